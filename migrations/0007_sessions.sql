-- Journeys (versioned per tenant and environment), verification sessions, their transition trail,
-- and the minimal review cases a referred session opens (the cases API comes later).

CREATE TABLE journeys (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  -- The spec's journey identifier (e.g. kyc_standard), unique per tenant and environment.
  key text NOT NULL,
  name text NOT NULL,
  latest_version integer NOT NULL,
  -- The version new sessions start on; null while only drafts exist.
  published_version integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, environment, key)
);
CREATE INDEX journeys_tenant ON journeys (account_id, environment, id);

CREATE TABLE journey_versions (
  journey_id text NOT NULL REFERENCES journeys(id),
  version integer NOT NULL,
  definition jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('draft', 'published')),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz,
  PRIMARY KEY (journey_id, version)
);

-- Default journeys are seeded once per tenant and environment, on first use.
CREATE TABLE journey_seeds (
  account_id text NOT NULL,
  environment text NOT NULL,
  seeded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, environment)
);

CREATE TABLE sessions (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  journey_key text NOT NULL,
  journey_version integer NOT NULL,
  -- The definition the session pinned at creation: later versions never change a running session.
  definition jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('created', 'awaiting_subject', 'processing', 'referred', 'approved', 'declined', 'abandoned', 'expired')),
  subject_type text NOT NULL,
  subject_reference text,
  subject_country text,
  redirect_url text,
  expires_at timestamptz NOT NULL,
  -- SHA-256 of the client session token; the token itself is never stored.
  token_hash text NOT NULL UNIQUE,
  token_expires_at timestamptz NOT NULL,
  capture_started_at timestamptz,
  decision text CHECK (decision IN ('approved', 'declined', 'referred')),
  risk_score integer,
  risk_band text,
  reason_codes text[] NOT NULL DEFAULT '{}',
  decided_by text,
  decided_reason text,
  decided_at timestamptz,
  -- Sandbox only: the forced outcome named by the subject reference.
  sandbox_outcome text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX sessions_tenant ON sessions (account_id, environment, id);
CREATE INDEX sessions_waiting ON sessions (expires_at) WHERE status IN ('created', 'awaiting_subject');

CREATE TABLE session_transitions (
  id bigserial PRIMARY KEY,
  session_id text NOT NULL REFERENCES sessions(id),
  account_id text NOT NULL,
  environment text NOT NULL,
  from_status text NOT NULL,
  to_status text NOT NULL,
  event text NOT NULL,
  actor_type text NOT NULL,
  actor_id text NOT NULL,
  request_id text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX session_transitions_session ON session_transitions (session_id, id);

CREATE TABLE cases (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  session_id text REFERENCES sessions(id),
  state text NOT NULL CHECK (state IN ('open', 'closed')),
  reason_code text NOT NULL,
  reason_codes text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz
);
CREATE INDEX cases_tenant ON cases (account_id, environment, id);
CREATE INDEX cases_session ON cases (session_id);
