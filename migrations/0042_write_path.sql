-- Write path (issue 17). A short handler's Idempotency-Key row is written once, at commit, with its
-- stored response (src/platform/idempotency.ts, claimInTransaction). When the key turns out to be taken
-- (a live row of another request, committed first), the statement raises this error so that the whole
-- transaction, sent with its COMMIT in one message, rolls back; the request then replays or is refused.
CREATE OR REPLACE FUNCTION idempotency_key_taken() RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'idempotency key taken' USING ERRCODE = 'VK001';
END
$$;
