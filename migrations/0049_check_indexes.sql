-- Write path (issue 17). Creating a session writes one pending check per journey check, and each paid for an entry
-- in every index of `checks`:
-- * `checks_tenant` (account, environment, id) served no query: every read of a check is by its id (the primary
--   key), by its session (`checks_session`) or by its subject (below). Dropped.
-- * `checks_subject` held every check with a subject reference, pending ones too, but its one reader (a subject's
--   latest completed check of a type: the KYT rule context's screening and PEP standing) asks only for completed
--   checks. It now holds completed checks only, in the order that reader wants them, so a session's pending checks
--   write no entry here until they complete (their completion rewrites the row with its sealed result anyway).
DROP INDEX IF EXISTS checks_tenant;
DROP INDEX IF EXISTS checks_subject;
CREATE INDEX checks_subject_completed ON checks (account_id, environment, subject_reference, type, completed_at, id)
  WHERE subject_reference IS NOT NULL AND completed_at IS NOT NULL;
