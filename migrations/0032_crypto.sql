-- Travel Rule: what a wallet-screening level of a message's addresses does to the message
-- (proceed / hold / reject), per environment. Levels absent from the object use the defaults
-- of src/modules/travel-rule/address-screening.ts (high: hold, severe: reject).
ALTER TABLE travel_rule_settings ADD COLUMN address_risk_actions jsonb;

-- Chain-data polling (src/modules/wallets/chain-data.ts, off by default): per tenant, monitored address
-- and provider, how far the provider's history has been read, so each poll fetches only newer transfers.
CREATE TABLE wallet_chain_cursors (
  account_id text NOT NULL,
  environment text NOT NULL,
  provider text NOT NULL,
  chain text NOT NULL,
  normalized_address text NOT NULL,
  cursor text,
  fetched_at timestamptz,
  transfers bigint NOT NULL DEFAULT 0,
  last_error text,
  PRIMARY KEY (account_id, environment, provider, normalized_address)
);
