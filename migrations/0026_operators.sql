-- Operators: people who sign in to the console. One row per person per tenant; the password is an
-- argon2id PHC string, the TOTP secret is sealed with MASTER_KEY (purpose "operator-totp").
CREATE TABLE operators (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  email text NOT NULL,
  password_hash text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'reviewer', 'analyst', 'approver', 'viewer')),
  totp_secret text,
  -- The last TOTP time step accepted: a code is used once.
  totp_last_step bigint,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX operators_email ON operators (account_id, email);
CREATE INDEX operators_login ON operators (email);

-- Console sessions. The cookie holds a random token; only its SHA-256 is stored. A session waiting
-- for its TOTP code (mfa_pending) authenticates nothing.
CREATE TABLE console_sessions (
  token_hash text PRIMARY KEY,
  operator_id text NOT NULL REFERENCES operators(id),
  account_id text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  csrf_hash text NOT NULL,
  mfa_pending boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX console_sessions_operator ON console_sessions (operator_id);

-- Failed sign-in counters, one row per subject ("operator:<id>" or "ip:<address>").
CREATE TABLE console_login_failures (
  subject text PRIMARY KEY,
  failures integer NOT NULL,
  window_started_at timestamptz NOT NULL,
  locked_until timestamptz
);
