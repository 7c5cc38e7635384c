-- Write path (issue 17). A session is created on the journey version this process last read (a cache): its INSERT
-- checks that the version is still the published one. The check raises this error instead of inserting nothing,
-- so that the INSERT needs no answer of its own and travels with the transaction's committing message; when it
-- raises, the whole transaction rolls back and the request runs again on the journey read afresh
-- (src/modules/verifications/create-verification.ts).
CREATE OR REPLACE FUNCTION journey_version_stale() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'journey version no longer published' USING ERRCODE = 'VK002';
END
$$;
