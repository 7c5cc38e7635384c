-- Deletion of verification sessions (DELETE /v1/verifications/{id} and the retention job): the
-- session row stays as a tombstone (id, status, timestamps, decision) with its personal data removed.
ALTER TABLE sessions ADD COLUMN deleted_at timestamptz;
-- The retention job scans sessions not yet deleted, oldest first.
CREATE INDEX sessions_retention ON sessions (created_at) WHERE deleted_at IS NULL;
