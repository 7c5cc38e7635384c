-- Wallet screening and monitoring (src/modules/wallets). Tenant data is scoped by account and
-- environment like every other resource; the processed-snapshot table is global (list snapshots are).

-- One row per screening (POST /v1/wallets/screen, a monitor's first screen and every re-screen).
CREATE TABLE wallet_screenings (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  address text NOT NULL,
  chain text NOT NULL,
  normalized_address text NOT NULL,
  level text NOT NULL,
  score integer NOT NULL,
  categories text[] NOT NULL,
  subject_reference text,
  monitor_id text,
  trigger text NOT NULL,
  result jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wallet_screenings_tenant ON wallet_screenings (account_id, environment, id);
CREATE INDEX wallet_screenings_address ON wallet_screenings (account_id, environment, normalized_address, id);

-- Operator attribution lists: (chain, address, category, entity, source) per tenant and list name.
CREATE TABLE wallet_attributions (
  seq bigserial PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  list text NOT NULL,
  chain text NOT NULL,
  address text NOT NULL,
  category text NOT NULL,
  entity_id text,
  entity_name text,
  source text,
  import_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wallet_attributions_tenant ON wallet_attributions (account_id, environment, seq);

-- Known transfers (imported files; KYT crypto transactions later): the exposure graph's edges.
CREATE TABLE wallet_transfers (
  seq bigserial PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  chain text NOT NULL,
  asset text,
  tx_hash text,
  from_address text NOT NULL,
  to_address text NOT NULL,
  amount text NOT NULL,
  import_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wallet_transfers_tenant ON wallet_transfers (account_id, environment, seq);

-- One row per import call (attributions or transfers): counts and line errors.
CREATE TABLE wallet_imports (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  kind text NOT NULL,
  list text,
  lines integer NOT NULL,
  imported integer NOT NULL,
  errors jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wallet_imports_tenant ON wallet_imports (account_id, environment, id);

-- The operator-editable policy table (absent: the engine's DEFAULT_POLICY).
CREATE TABLE wallet_policies (
  account_id text NOT NULL,
  environment text NOT NULL,
  rows jsonb NOT NULL,
  version integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, environment)
);

-- Monitored wallets: one per (tenant, subject_reference, normalised address).
CREATE TABLE wallet_monitors (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  subject_reference text NOT NULL,
  address text NOT NULL,
  chain text NOT NULL,
  normalized_address text NOT NULL,
  state text NOT NULL,
  last_screening_id text NOT NULL,
  fingerprint text NOT NULL,
  level text NOT NULL,
  categories text[] NOT NULL,
  rescreened_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX wallet_monitors_subject_address ON wallet_monitors (account_id, environment, subject_reference, normalized_address)
  WHERE state <> 'stopped';
CREATE INDEX wallet_monitors_tenant ON wallet_monitors (account_id, environment, id);
CREATE INDEX wallet_monitors_address ON wallet_monitors (normalized_address) WHERE state = 'active';

-- The list snapshot of each source whose crypto addresses monitors were last re-screened against.
CREATE TABLE wallet_list_state (
  source text PRIMARY KEY,
  snapshot_id text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
