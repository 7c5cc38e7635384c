-- Platform tables: tenancy, keys, idempotency, audit, usage, outbox, jobs.
-- Every tenant-owned row carries account_id and environment; every query filters on both.

CREATE TABLE accounts (
  id text PRIMARY KEY,
  name text NOT NULL,
  -- Requests per minute per key unless the key overrides it (the "plan").
  rate_limit_per_minute integer,
  -- Days after which session media and personal data are deleted (null: keep).
  retention_days integer,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  name text,
  -- SHA-256 of the whole key; the key itself is never stored.
  key_hash text NOT NULL UNIQUE,
  -- First characters and last four, so an operator can recognise a key in listings.
  display text NOT NULL,
  scopes text[] NOT NULL,
  rate_limit_per_minute integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id, environment);

CREATE TABLE idempotency_keys (
  account_id text NOT NULL,
  environment text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('running', 'done')),
  response_status integer,
  response_body text,
  response_headers jsonb,
  -- A crashed request releases its key once this passes, so a client can retry.
  locked_until timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, environment, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

CREATE TABLE audit_events (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  actor_type text NOT NULL,
  actor_id text NOT NULL,
  action text NOT NULL,
  resource_type text NOT NULL,
  resource_id text NOT NULL,
  request_id text,
  diff jsonb,
  metadata jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Filled by the sealer: position in the hash chain, previous hash and own hash.
  chain_seq bigint UNIQUE,
  prev_hash text,
  hash text
);
CREATE INDEX audit_events_tenant ON audit_events (account_id, environment, id);
CREATE INDEX audit_events_unsealed ON audit_events (id) WHERE chain_seq IS NULL;

CREATE TABLE usage_records (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  module text NOT NULL,
  operation text NOT NULL,
  resource_id text,
  quantity integer NOT NULL DEFAULT 1,
  period text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_records_period ON usage_records (account_id, environment, period, module);

-- The outbox: one row per event to deliver, written in the transaction of the change it reports.
CREATE TABLE events (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  type text NOT NULL,
  resource_type text,
  resource_id text,
  data jsonb NOT NULL,
  -- Commit-independent global order, so receivers can order events of one resource.
  seq bigserial NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  dispatched_at timestamptz
);
CREATE INDEX events_undispatched ON events (seq) WHERE dispatched_at IS NULL;
CREATE INDEX events_tenant ON events (account_id, environment, id);

CREATE TABLE jobs (
  id text PRIMARY KEY,
  queue text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 10,
  run_at timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  locked_until timestamptz,
  last_error text,
  -- At most one queued or running job per key (e.g. one expiry sweep at a time).
  dedupe_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_ready ON jobs (queue, run_at) WHERE state IN ('queued', 'running');
CREATE UNIQUE INDEX jobs_dedupe ON jobs (dedupe_key) WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running');

CREATE TABLE list_entries (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  list text NOT NULL CHECK (list IN ('blocklist', 'allowlist')),
  kind text NOT NULL,
  value text NOT NULL,
  normalized_value text NOT NULL,
  subject_reference text,
  reason text NOT NULL,
  created_by text NOT NULL,
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX list_entries_lookup ON list_entries (account_id, environment, list, kind, normalized_value) WHERE deleted_at IS NULL;
CREATE INDEX list_entries_page ON list_entries (account_id, environment, id);
