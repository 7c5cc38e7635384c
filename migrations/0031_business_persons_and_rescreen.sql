-- KYB follow-ups (issue 14 item 8): verification sessions of a business's persons (UBOs, officers), and the
-- list snapshots business screening last re-ran against.

-- A person of a business's ownership graph (its node id) sent through a verification session. The session
-- itself belongs to the verifications module; this row only links it to the business and the person.
CREATE TABLE business_person_verifications (
  account_id text NOT NULL,
  environment text NOT NULL,
  business_id text NOT NULL REFERENCES businesses (id),
  node_id text NOT NULL,
  session_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, node_id, session_id)
);
CREATE INDEX business_person_verifications_tenant ON business_person_verifications (account_id, environment, business_id, created_at);

-- Per list source, the active snapshot the businesses' screening was last re-run against (the recurring
-- businesses.rescreen job compares it with the active snapshots, as wallets.rescreen does).
CREATE TABLE business_list_state (
  source text PRIMARY KEY,
  snapshot_id text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
