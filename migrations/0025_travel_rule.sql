-- Travel Rule (issue #15 items 6-10): messages with their state trail, the counterparty VASP directory,
-- and the per-environment settings of the inbound TRP receiver (disabled by default).

CREATE TABLE travel_rule_counterparties (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  name text NOT NULL,
  legal_name text NOT NULL,
  lei text,
  country text,
  website text,
  domains text[] NOT NULL DEFAULT '{}',
  travel_addresses text[] NOT NULL DEFAULT '{}',
  protocols jsonb NOT NULL DEFAULT '[]',
  due_diligence_status text NOT NULL DEFAULT 'unknown',
  due_diligence_notes text,
  screening jsonb,
  screened_at timestamptz,
  source text NOT NULL DEFAULT 'api',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX travel_rule_counterparties_tenant ON travel_rule_counterparties (account_id, environment, id);
CREATE UNIQUE INDEX travel_rule_counterparties_lei ON travel_rule_counterparties (account_id, environment, lei) WHERE lei IS NOT NULL;

CREATE TABLE travel_rule_messages (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  direction text NOT NULL,
  status text NOT NULL,
  protocol text NOT NULL,
  counterparty_id text REFERENCES travel_rule_counterparties(id),
  request_identifier text NOT NULL,
  travel_address text,
  -- outgoing: where the inquiry goes; incoming: null
  endpoint_url text,
  -- the peer's callback: outgoing, the beneficiary's approval callback (for the confirmation);
  -- incoming, the originator's inquiry callback (for the resolution)
  peer_callback_url text,
  -- our own callback capability (sealed, and its sha256 for the lookup): outgoing /resolve, incoming /confirm
  callback_token_sealed text,
  callback_token_hash text,
  asset jsonb NOT NULL,
  amount text NOT NULL,
  amount_fiat jsonb,
  threshold_applied jsonb NOT NULL,
  ivms101_sealed text NOT NULL,
  originator_name text,
  beneficiary_name text,
  destination_address text,
  tx_hash text,
  rejection jsonb,
  screening jsonb,
  warnings jsonb NOT NULL DEFAULT '[]',
  delivery jsonb,
  reference text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX travel_rule_messages_tenant ON travel_rule_messages (account_id, environment, id);
CREATE UNIQUE INDEX travel_rule_messages_request ON travel_rule_messages (account_id, environment, direction, request_identifier);
CREATE UNIQUE INDEX travel_rule_messages_callback ON travel_rule_messages (callback_token_hash) WHERE callback_token_hash IS NOT NULL;

CREATE TABLE travel_rule_transitions (
  id bigserial PRIMARY KEY,
  message_id text NOT NULL REFERENCES travel_rule_messages(id),
  account_id text NOT NULL,
  environment text NOT NULL,
  from_state text,
  to_state text NOT NULL,
  action text NOT NULL,
  actor text NOT NULL,
  note text,
  request_id text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX travel_rule_transitions_message ON travel_rule_transitions (message_id, id);

CREATE TABLE travel_rule_settings (
  account_id text NOT NULL,
  environment text NOT NULL,
  inbound_trp_enabled boolean NOT NULL DEFAULT false,
  -- sha256 of the path secret of this environment's TRP receiver (/trp/{secret}/...)
  inbound_secret_hash text,
  inbound_secret_sealed text,
  vasp_name text,
  vasp_lei text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, environment)
);
CREATE UNIQUE INDEX travel_rule_settings_secret ON travel_rule_settings (inbound_secret_hash) WHERE inbound_secret_hash IS NOT NULL;
