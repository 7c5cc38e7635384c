-- Write path (issue 17). A short handler's Idempotency-Key row is written once, at commit, with its
-- stored response (src/platform/idempotency.ts, claimInTransaction). When the key turns out to be taken
-- (a live row of another request, committed first), the statement raises this error so that the whole
-- transaction, sent with its COMMIT in one message, rolls back; the request then replays or is refused.
CREATE OR REPLACE FUNCTION idempotency_key_taken() RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'idempotency key taken' USING ERRCODE = 'VK001';
END
$$;

-- Every audit row paid for an entry in this partial index on insert (and its removal when sealed). The
-- sealer finds unsealed rows as well through the chain_seq unique index, whose NULL entries are exactly
-- the unsealed rows (`WHERE chain_seq IS NULL` is an index condition there), then sorts that backlog.
DROP INDEX IF EXISTS audit_events_unsealed;
