-- The audit chain becomes keyed (HMAC-SHA256 with a key derived from MASTER_KEY, docs/security.md).
-- Rows written from now on carry row_mac, computed by the service when it inserts them, so a row
-- inserted by anyone without the key is found when the chain is verified. Rows already sealed keep
-- their unkeyed SHA-256 links; the chain switches to HMAC at hmac_from_seq, and rows up to
-- legacy_max_id (written before this migration) may have no row_mac.
ALTER TABLE audit_events ADD COLUMN row_mac text;

CREATE TABLE audit_chain_meta (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  hmac_from_seq bigint NOT NULL,
  legacy_max_id text
);
INSERT INTO audit_chain_meta (hmac_from_seq, legacy_max_id)
SELECT coalesce(max(chain_seq), 0) + 1, max(id) FROM audit_events;
