-- Standalone and session checks: one row per check, its media sealed with MASTER_KEY.

CREATE TABLE checks (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  type text NOT NULL,
  status text NOT NULL,
  score double precision,
  subject_reference text,
  session_id text,
  -- The full result (fields, signals, model, timings) as sealed JSON: it holds personal data.
  result_sealed text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  -- Set when personal data and media were removed under the retention policy; the row stays as a tombstone.
  redacted_at timestamptz
);
CREATE INDEX checks_tenant ON checks (account_id, environment, id);
CREATE INDEX checks_subject ON checks (account_id, environment, subject_reference) WHERE subject_reference IS NOT NULL;
CREATE INDEX checks_session ON checks (session_id) WHERE session_id IS NOT NULL;

CREATE TABLE media (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  check_id text,
  session_id text,
  kind text NOT NULL,
  content_type text NOT NULL,
  bytes integer NOT NULL,
  sha256 text NOT NULL,
  data_sealed bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX media_check ON media (check_id);
CREATE INDEX media_session ON media (session_id);
CREATE INDEX media_retention ON media (account_id, environment, created_at) WHERE deleted_at IS NULL;
