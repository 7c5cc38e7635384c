-- Webhook destinations, one delivery per (event, destination), and every attempt.

CREATE TABLE webhook_destinations (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  url text NOT NULL,
  description text,
  -- Event types to receive; '*' means all.
  event_types text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  -- Signing secrets, sealed with MASTER_KEY. During a rotation the previous secret also signs until it expires.
  secret_sealed text NOT NULL,
  previous_secret_sealed text,
  previous_secret_expires_at timestamptz,
  consecutive_failures integer NOT NULL DEFAULT 0,
  failing_since timestamptz,
  last_success_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX webhook_destinations_tenant ON webhook_destinations (account_id, environment, id) WHERE deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  destination_id text NOT NULL REFERENCES webhook_destinations(id),
  event_id text NOT NULL REFERENCES events(id),
  event_seq bigint NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivering', 'succeeded', 'failed', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  locked_until timestamptz,
  last_status integer,
  last_error text,
  -- A manual redelivery is a new delivery pointing at the one it repeats.
  redelivery_of text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE UNIQUE INDEX webhook_deliveries_once ON webhook_deliveries (destination_id, event_id) WHERE redelivery_of IS NULL;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, event_seq) WHERE state IN ('pending', 'delivering');
CREATE INDEX webhook_deliveries_tenant ON webhook_deliveries (account_id, environment, id);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

CREATE TABLE webhook_attempts (
  id text PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries(id),
  attempt integer NOT NULL,
  worker text NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  status_code integer,
  error text,
  response_excerpt text
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, attempt);

-- An event meant for one destination only (test events, redeliveries are separate rows).
ALTER TABLE events ADD COLUMN destination_id text;
