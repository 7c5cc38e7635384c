-- The request that holds an Idempotency-Key: the key row itself is the lock (claimed before the
-- handler runs), and only its owner may record the response or release the key.
ALTER TABLE idempotency_keys ADD COLUMN owner text;
