-- KYT rule context: a transaction's evaluation reads what verification knows of its subject reference
-- (latest decided session, first seen). Without this index that is a scan of the tenant's sessions.
CREATE INDEX sessions_subject_reference ON sessions (account_id, environment, subject_reference, decided_at)
  WHERE subject_reference IS NOT NULL;
