-- Pages of one list are read newest first by id; an index led by the list itself serves that query
-- whatever the planner's statistics say (right after a bulk load they can be empty, and the old
-- index made it sort every entry of the tenant).
DROP INDEX IF EXISTS list_entries_page;
CREATE INDEX list_entries_page ON list_entries (account_id, environment, list, id) WHERE deleted_at IS NULL;
