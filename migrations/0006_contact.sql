-- Contact verification (one-time codes by email or SMS). One row per verification, keyed by its check id.
-- The state (destination, salt, HMAC of the code, attempts, send times) is sealed JSON: the code itself is never stored.

CREATE TABLE contact_verifications (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  channel text NOT NULL,
  -- HMAC of the normalised destination (key derived from MASTER_KEY): lookups without storing it in clear.
  destination_hash text NOT NULL,
  -- sending (hash stored, message not yet confirmed sent) | pending | verified | expired | locked
  status text NOT NULL,
  state_sealed text NOT NULL,
  provider_message_id text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_verifications_tenant ON contact_verifications (account_id, environment, id);

-- Every code sent (or being sent) to a destination, across verifications: the per-destination limits
-- against SMS pumping and mail bombing read this.
CREATE TABLE contact_sends (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  destination_hash text NOT NULL,
  verification_id text NOT NULL,
  sent_at timestamptz NOT NULL
);
CREATE INDEX contact_sends_destination ON contact_sends (account_id, environment, destination_hash, sent_at);
