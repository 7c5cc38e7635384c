-- Historical verifications imported from a previous provider (POST /v1/verifications/imports).
-- An imported session is a row in sessions like any other, marked by origin; it pinned no journey.
ALTER TABLE sessions ADD COLUMN origin text NOT NULL DEFAULT 'native' CHECK (origin IN ('native', 'import'));
ALTER TABLE sessions ADD COLUMN import_provider text;
ALTER TABLE sessions ADD COLUMN import_external_id text;
-- The previous provider's journey or workflow label, kept as given (the session's journey reads import:<provider>).
ALTER TABLE sessions ADD COLUMN import_journey text;
ALTER TABLE sessions ADD CONSTRAINT sessions_import_fields CHECK (
  (origin = 'native' AND import_provider IS NULL AND import_external_id IS NULL)
  OR (origin = 'import' AND import_provider IS NOT NULL AND import_external_id IS NOT NULL)
);
-- One session per record of the previous provider: a re-import (even a concurrent one) finds the first.
CREATE UNIQUE INDEX sessions_import_source ON sessions (account_id, environment, import_provider, import_external_id) WHERE origin = 'import';

-- One row per import request: its summary and per-record results, for GET /v1/verifications/imports/{id}.
CREATE TABLE verification_imports (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  provider text NOT NULL,
  created integer NOT NULL,
  duplicates integer NOT NULL,
  failed integer NOT NULL,
  -- [{ index, external_id, status, verification_id, error }]: no personal data (errors name fields, not values).
  records jsonb NOT NULL,
  actor_type text NOT NULL,
  actor_id text NOT NULL,
  request_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX verification_imports_tenant ON verification_imports (account_id, environment, id);
