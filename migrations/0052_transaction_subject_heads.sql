-- KYT (issue 13). A subject's aggregates may be read ahead of its write transaction, outside any lock, on a
-- pipelined connection; the write then checks that no transaction of the subject was stored in between. Each
-- evaluated transaction advances its subject's head by one in the transaction that stores it (under the subject's
-- lock); a write whose reads saw another head raises transaction_subject_moved() and rolls back whole, and the
-- request is evaluated again under the lock (src/modules/transactions/create-transaction.ts). Imports do not
-- advance it: they never did take the lock.
CREATE TABLE transaction_subject_heads (
  account_id text NOT NULL,
  environment text NOT NULL,
  subject_reference text NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (account_id, environment, subject_reference)
);

CREATE OR REPLACE FUNCTION transaction_subject_moved() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a transaction of this subject was stored after its aggregates were read' USING ERRCODE = 'VK003';
END
$$;
