-- AML screening: list snapshots (global operator data, not per tenant), their entities, and the
-- per-tenant ongoing-monitoring subjects and alerts.

-- One row per import or sync attempt of one source. Exactly one snapshot per source is active;
-- activation (new → active, old → superseded) happens in one transaction, so readers that select
-- state = 'active' never see a mix. A failed import or sync is kept as a 'failed' row (no entities)
-- so operators can see what went wrong; it never replaces the active one.
CREATE TABLE list_snapshots (
  id text PRIMARY KEY,
  source text NOT NULL,
  format text,
  -- Content hash of all entities (null for failed attempts that produced none).
  version text,
  entity_count integer NOT NULL DEFAULT 0,
  state text NOT NULL CHECK (state IN ('active', 'superseded', 'failed')),
  origin text NOT NULL CHECK (origin IN ('import', 'sync', 'builtin')),
  error text,
  imported_at timestamptz NOT NULL DEFAULT now(),
  superseded_at timestamptz
);
CREATE UNIQUE INDEX list_snapshots_one_active ON list_snapshots (source) WHERE state = 'active';
CREATE INDEX list_snapshots_source ON list_snapshots (source, imported_at);

CREATE TABLE list_snapshot_entities (
  snapshot_id text NOT NULL REFERENCES list_snapshots(id) ON DELETE CASCADE,
  entity_id text NOT NULL,
  -- The engine's ListEntity: names and aliases, dates of birth, nationalities, addresses,
  -- identifiers, programmes, listing date, source link.
  entity jsonb NOT NULL,
  PRIMARY KEY (snapshot_id, entity_id)
);

-- Subjects enrolled for ongoing monitoring, one live row per (tenant, subject_reference).
CREATE TABLE monitored_subjects (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  subject_reference text NOT NULL,
  -- The screening query (name, date of birth, countries, entity type, identifiers…), sealed with
  -- MASTER_KEY and stored as a JSON string: it is personal data.
  query jsonb NOT NULL,
  datasets text[],
  sources text[],
  threshold double precision,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX monitored_subjects_reference ON monitored_subjects (account_id, environment, subject_reference) WHERE deleted_at IS NULL;
CREATE INDEX monitored_subjects_tenant ON monitored_subjects (account_id, environment, id) WHERE deleted_at IS NULL;

-- A new hit of a monitored subject found by re-screening a list update.
CREATE TABLE monitoring_alerts (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  monitored_subject_id text NOT NULL REFERENCES monitored_subjects(id),
  subject_reference text NOT NULL,
  entity_id text NOT NULL,
  source text NOT NULL,
  snapshot_id text NOT NULL REFERENCES list_snapshots(id),
  reason text NOT NULL CHECK (reason IN ('added', 'changed')),
  score double precision NOT NULL,
  hit jsonb NOT NULL,
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'closed')),
  closed_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz
);
-- One alert per subject and listed entity: a retried or repeated re-screen never alerts twice.
CREATE UNIQUE INDEX monitoring_alerts_once ON monitoring_alerts (account_id, environment, monitored_subject_id, entity_id);
CREATE INDEX monitoring_alerts_tenant ON monitoring_alerts (account_id, environment, id);
CREATE INDEX monitoring_alerts_entity ON monitoring_alerts (entity_id) WHERE state = 'open';
