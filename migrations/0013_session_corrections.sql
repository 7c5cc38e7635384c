-- Reviewer corrections of a session's extracted fields (PATCH /v1/verifications/{id}), and the cases
-- API: review cases of referred sessions and monitoring alerts as one queue with owner, severity and state.

-- One row per correction. The before/after values are personal data: sealed, and removed with the
-- session's other personal data (DELETE, retention). The audit row holds only salted hashes of them;
-- the salt lives inside changes_sealed, so once that is gone the hashes no longer identify anything.
CREATE TABLE session_corrections (
  id text PRIMARY KEY,
  session_id text NOT NULL REFERENCES sessions(id),
  account_id text NOT NULL,
  environment text NOT NULL,
  actor text NOT NULL,
  reason text NOT NULL,
  -- The corrected field names (not personal data; kept in the tombstone).
  fields text[] NOT NULL,
  -- Sealed JSON { salt, changes: { name: { before, after } } }; null once the session was deleted.
  changes_sealed text,
  -- The sanctions_pep check re-run with the corrected fields: { before, after, score } or null.
  rescreening jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX session_corrections_session ON session_corrections (session_id, id);

-- Cases: a referred session's review (verification_review) or a monitoring alert (screening_alert).
ALTER TABLE cases ADD COLUMN kind text NOT NULL DEFAULT 'verification_review' CHECK (kind IN ('verification_review', 'screening_alert'));
ALTER TABLE cases ADD COLUMN severity text NOT NULL DEFAULT 'medium' CHECK (severity IN ('low', 'medium', 'high', 'critical'));
ALTER TABLE cases ADD COLUMN owner text;
ALTER TABLE cases ADD COLUMN resolution text;
ALTER TABLE cases ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE cases ADD COLUMN alert_id text REFERENCES monitoring_alerts(id);
ALTER TABLE cases DROP CONSTRAINT cases_state_check;
ALTER TABLE cases ADD CONSTRAINT cases_state_check CHECK (state IN ('open', 'in_review', 'closed'));
ALTER TABLE cases ADD CONSTRAINT cases_subject_check CHECK ((kind = 'verification_review' AND session_id IS NOT NULL) OR (kind = 'screening_alert' AND alert_id IS NOT NULL));
CREATE UNIQUE INDEX cases_alert ON cases (alert_id) WHERE alert_id IS NOT NULL;

-- Every state change of a case (the first row of each case is its opening, from_state null).
CREATE TABLE case_transitions (
  id bigserial PRIMARY KEY,
  case_id text NOT NULL REFERENCES cases(id),
  account_id text NOT NULL,
  environment text NOT NULL,
  from_state text,
  to_state text NOT NULL,
  event text NOT NULL,
  actor text NOT NULL,
  request_id text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX case_transitions_case ON case_transitions (case_id, id);

-- Existing review cases: severity from their session's risk (a sanctions match is critical), and
-- closed ones resolved by the session's decision.
UPDATE cases c SET
  severity = CASE WHEN 'sanctions_pep_match' = ANY (c.reason_codes) THEN 'critical' ELSE coalesce(s.risk_band, 'medium') END,
  resolution = CASE WHEN c.state = 'closed' THEN 'decision: ' || coalesce(s.decision, 'unknown') ELSE NULL END,
  updated_at = coalesce(c.closed_at, c.created_at)
FROM sessions s WHERE s.id = c.session_id;
INSERT INTO case_transitions (case_id, account_id, environment, from_state, to_state, event, actor, at)
  SELECT id, account_id, environment, NULL, 'open', 'opened', 'system:system', created_at FROM cases;
INSERT INTO case_transitions (case_id, account_id, environment, from_state, to_state, event, actor, at)
  SELECT id, account_id, environment, 'open', 'closed', 'session_decided', 'system:system', closed_at FROM cases WHERE state = 'closed';

-- Existing monitoring alerts become screening_alert cases (new ones open theirs in the alert's
-- transaction). The case id reuses the alert id's time-sortable part.
INSERT INTO cases (id, account_id, environment, kind, state, severity, reason_code, reason_codes, alert_id, resolution, created_at, updated_at, closed_at)
  SELECT 'case_' || substr(a.id, 6), a.account_id, a.environment, 'screening_alert', a.state,
    CASE WHEN (a.hit ->> 'blocked') = 'true' OR (a.hit -> 'explanation' -> 'components' ->> 'identifier') = 'match' THEN 'critical'
         WHEN a.score >= 0.9 AND (a.hit -> 'datasets') @> '["sanctions"]'::jsonb THEN 'high'
         WHEN a.score >= 0.9 OR (a.hit -> 'datasets') @> '["sanctions"]'::jsonb THEN 'medium'
         ELSE 'low' END,
    'rescreening_' || a.reason, ARRAY['rescreening_' || a.reason], a.id,
    CASE WHEN a.state = 'closed' THEN coalesce(a.closed_reason, 'closed') ELSE NULL END,
    a.created_at, coalesce(a.closed_at, a.created_at), a.closed_at
  FROM monitoring_alerts a;
INSERT INTO case_transitions (case_id, account_id, environment, from_state, to_state, event, actor, at)
  SELECT c.id, c.account_id, c.environment, NULL, 'open', 'opened', 'system:system', c.created_at FROM cases c WHERE c.kind = 'screening_alert';
INSERT INTO case_transitions (case_id, account_id, environment, from_state, to_state, event, actor, at)
  SELECT c.id, c.account_id, c.environment, 'open', 'closed', 'alert_closed', 'system:system', c.closed_at FROM cases c WHERE c.kind = 'screening_alert' AND c.state = 'closed';
