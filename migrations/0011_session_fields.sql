-- The subject data a session extracted from its document (sealed JSON, personal data), which the
-- screening step reads and a reviewer may correct (PATCH /v1/verifications/{id}).
ALTER TABLE sessions ADD COLUMN extracted_fields_sealed text;
