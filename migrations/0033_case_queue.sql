-- The console's review queue (issue #16): "claim next" takes the most severe, then oldest, open and
-- unassigned case of a tenant (src/modules/cases/repository.ts lockNextUnclaimed); this index serves
-- that order without scanning the tenant's closed cases.
CREATE INDEX cases_queue ON cases (
  account_id, environment, (CASE severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END), created_at, id
) WHERE state = 'open' AND owner IS NULL;
