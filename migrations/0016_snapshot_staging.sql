-- A snapshot is written in short batches while `staging` (other requests of an embedded database
-- interleave with the batches) and switched to `active` in one short transaction; a staging
-- snapshot is never screened against. Leftovers of a crashed import are deleted by the next
-- activation of the same source.
ALTER TABLE list_snapshots DROP CONSTRAINT list_snapshots_state_check;
ALTER TABLE list_snapshots ADD CONSTRAINT list_snapshots_state_check CHECK (state IN ('staging', 'active', 'superseded', 'failed'));
