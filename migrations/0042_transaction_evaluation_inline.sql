-- A transaction's stored evaluation (every rule's outcome and the values it used: ~5 kB of jsonb for 20 rules) was
-- compressed with pglz and, still past the 2 kB toast target, moved out of line: every POST /v1/transactions
-- paid pglz (4 % of its PostgreSQL CPU in a profile of the KYT bench) and a second heap row and index entry in the
-- toast table. Rows up to 4 kB now stay inline, and where the server has lz4 (not PGlite) the evaluation is
-- compressed with it (a few times cheaper than pglz; ~2.4 kB here instead of ~2.0 kB). Only new rows change.
ALTER TABLE transactions SET (toast_tuple_target = 4096);

DO $$
BEGIN
  ALTER TABLE transactions ALTER COLUMN evaluation SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL; -- built without lz4: pglz as before, inline all the same
END $$;
