-- The console's aggregate reads stay range scans at 100,000 sessions: decisions per day between two
-- moments (GET /v1/verifications/decision-stats, the dashboard's chart).
CREATE INDEX sessions_decided ON sessions (account_id, environment, decided_at) WHERE decided_at IS NOT NULL;
