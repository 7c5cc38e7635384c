-- Generic alerts (owned by cases): any pillar raises one through cases' raiseAlert (transaction rule,
-- rule error, wallet risk, business ownership or screening, Travel Rule). An alert is deduplicated per
-- (kind, subject, dedupe key) within a cooldown and attached to its subject's open alert_review case,
-- or opens one. The kind is an open set (no CHECK): a new pillar adds a kind without a migration.
ALTER TABLE cases DROP CONSTRAINT cases_kind_check;
ALTER TABLE cases ADD CONSTRAINT cases_kind_check CHECK (kind IN ('verification_review', 'screening_alert', 'alert_review'));
ALTER TABLE cases DROP CONSTRAINT cases_subject_check;
ALTER TABLE cases ADD CONSTRAINT cases_subject_check CHECK (
  (kind = 'verification_review' AND session_id IS NOT NULL) OR (kind = 'screening_alert' AND alert_id IS NOT NULL) OR kind = 'alert_review');

CREATE TABLE alerts (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  kind text NOT NULL,
  severity text NOT NULL CHECK (severity IN ('low', 'medium', 'high', 'critical')),
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'closed')),
  subject_type text NOT NULL,
  subject_id text NOT NULL,
  subject_reference text,
  title text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}',
  dedupe_key text NOT NULL DEFAULT '',
  case_id text NOT NULL REFERENCES cases(id),
  occurrences integer NOT NULL DEFAULT 1,
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz
);
CREATE INDEX alerts_tenant ON alerts (account_id, environment, id);
CREATE INDEX alerts_dedupe ON alerts (account_id, environment, kind, subject_type, subject_id, dedupe_key, created_at);
CREATE INDEX alerts_case ON alerts (case_id, id);
CREATE INDEX cases_open_subject ON cases (account_id, environment, subject_type, subject_id) WHERE state <> 'closed';

-- KYT rule sets (src/modules/rules). A published version is a row of rule_set_versions and never changes
-- (no UPDATE path; a trigger refuses one); edits go to the one draft per tenant in rule_set_drafts, whose
-- revision increases on every edit (publish names the revision it reviewed: 409 when stale). Rules keep a
-- stable id (rul_…) across versions; the document is the engine's RuleSet (thresholds, rules, aggregates).
CREATE TABLE rule_set_versions (
  account_id text NOT NULL,
  environment text NOT NULL,
  version integer NOT NULL CHECK (version >= 1),
  document jsonb NOT NULL,
  change_note text,
  authors text[] NOT NULL,
  published_by text NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, environment, version)
);
CREATE FUNCTION rule_set_versions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'published rule set versions are immutable';
END $$;
CREATE TRIGGER rule_set_versions_no_update BEFORE UPDATE ON rule_set_versions FOR EACH ROW EXECUTE FUNCTION rule_set_versions_immutable();

CREATE TABLE rule_set_drafts (
  account_id text NOT NULL,
  environment text NOT NULL,
  base_version integer NOT NULL DEFAULT 0,
  revision integer NOT NULL DEFAULT 1,
  document jsonb NOT NULL,
  authors text[] NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, environment)
);

-- Per-rule snoozes for one subject: the rule is still evaluated (would_hit recorded) but does not count.
CREATE TABLE rule_snoozes (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  rule_id text NOT NULL,
  subject_reference text NOT NULL,
  until timestamptz NOT NULL,
  reason text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rule_snoozes_subject ON rule_snoozes (account_id, environment, subject_reference, until);

-- Transactions (src/modules/transactions): amounts are numeric (never floats); the reference is unique per
-- environment (a repeat answers the stored evaluation). source api (evaluated) or import (history only).
CREATE TABLE transactions (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  reference text NOT NULL,
  occurred_at timestamptz NOT NULL,
  amount numeric NOT NULL,
  currency text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('in', 'out')),
  type text,
  channel text,
  subject_reference text NOT NULL,
  subject jsonb NOT NULL DEFAULT '{}',
  counterparty_key text,
  account text,
  wallet text,
  device text,
  ip text,
  country text,
  balance_after numeric,
  counterparty jsonb,
  crypto jsonb,
  metadata jsonb NOT NULL DEFAULT '{}',
  source text NOT NULL DEFAULT 'api' CHECK (source IN ('api', 'import')),
  label_suspicious boolean,
  status text CHECK (status IN ('approved', 'review', 'block_and_review', 'declined')),
  score numeric,
  ruleset_version integer,
  evaluation jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX transactions_reference ON transactions (account_id, environment, reference);
CREATE INDEX transactions_tenant ON transactions (account_id, environment, id);
CREATE INDEX transactions_subject_time ON transactions (account_id, environment, subject_reference, occurred_at);
CREATE INDEX transactions_counterparty_time ON transactions (account_id, environment, counterparty_key, occurred_at) WHERE counterparty_key IS NOT NULL;
CREATE INDEX transactions_time ON transactions (account_id, environment, occurred_at);

-- Daily rollup per subject, day, direction and currency, updated in the transaction's own database
-- transaction: aggregates of windows of whole days read it instead of the raw rows.
CREATE TABLE transaction_daily (
  account_id text NOT NULL,
  environment text NOT NULL,
  subject_reference text NOT NULL,
  day date NOT NULL,
  direction text NOT NULL,
  currency text NOT NULL,
  n bigint NOT NULL,
  total numeric NOT NULL,
  PRIMARY KEY (account_id, environment, subject_reference, day, direction, currency)
);

-- Backtests (POST /v1/rules/backtest, owned by src/modules/transactions): a rule set snapshot replayed over
-- stored transactions by a job; the result (per rule hits, outcomes, precision/recall on labels) is stored here.
CREATE TABLE rule_backtests (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
  ruleset jsonb NOT NULL,
  ruleset_label text NOT NULL,
  params jsonb NOT NULL,
  result jsonb,
  error text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX rule_backtests_tenant ON rule_backtests (account_id, environment, id);
