-- The subject's open case is looked up newest first (ORDER BY id DESC LIMIT 1). With `id` after the subject in
-- this index the lookup reads the subject's entries alone; without it a generic plan (KYT forces them) or stale
-- statistics took the tenant index backwards and filtered every case of the tenant (issue 13: 278 cases, 201
-- pages per alert raised, growing with the tenant).
DROP INDEX cases_open_subject;
CREATE INDEX cases_open_subject ON cases (account_id, environment, subject_type, subject_id, id) WHERE state <> 'closed';
