-- A session created on a stored journey version no longer copies that version's definition into its row: the
-- definition is read from journey_versions by (account, environment, journey key, version), which never changes
-- once written (publishing changes only a version's status). Rows written before keep their copy; imported
-- sessions, pinned to no stored version, keep storing theirs. A migration that rewrites definitions must now
-- rewrite journey_versions (as 0027 did alongside sessions).
ALTER TABLE sessions ALTER COLUMN definition DROP NOT NULL;
