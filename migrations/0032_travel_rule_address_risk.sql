-- Travel Rule: what a wallet-screening level of a message's addresses does to the message
-- (proceed / hold / reject), per environment. Levels absent from the object use the defaults
-- of src/modules/travel-rule/address-screening.ts (high: hold, severe: reject).
ALTER TABLE travel_rule_settings ADD COLUMN address_risk_actions jsonb;
