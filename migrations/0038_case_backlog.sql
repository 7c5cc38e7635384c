-- The review backlog (GET /v1/cases/backlog, the console's dashboard): open cases counted per kind, with
-- how many are past the SLA and the oldest, in one grouped read of the tenant's open cases only.
CREATE INDEX cases_open_kind ON cases (account_id, environment, kind, created_at) WHERE state = 'open';
