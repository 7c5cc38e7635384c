-- Block and allow list values are personal data (emails, names, document numbers): they are stored
-- sealed (AES-256-GCM under MASTER_KEY) with a keyed blind index for matching, like everything else
-- personal. The clear columns stay for screening_entity entries (list entity ids, public data) and for
-- rows written before this migration until the service seals them at start (then they are set to NULL).
ALTER TABLE list_entries ALTER COLUMN value DROP NOT NULL;
ALTER TABLE list_entries ALTER COLUMN normalized_value DROP NOT NULL;
ALTER TABLE list_entries ADD COLUMN value_sealed text;
ALTER TABLE list_entries ADD COLUMN value_index text;
CREATE INDEX list_entries_blind ON list_entries (account_id, environment, list, kind, value_index) WHERE deleted_at IS NULL AND value_index IS NOT NULL;
