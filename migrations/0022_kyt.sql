-- Generic alerts (owned by cases): any pillar raises one through cases' raiseAlert (transaction rule,
-- rule error, wallet risk, business ownership or screening, Travel Rule). An alert is deduplicated per
-- (kind, subject, dedupe key) within a cooldown and attached to its subject's open alert_review case,
-- or opens one. The kind is an open set (no CHECK): a new pillar adds a kind without a migration.
ALTER TABLE cases DROP CONSTRAINT cases_kind_check;
ALTER TABLE cases ADD CONSTRAINT cases_kind_check CHECK (kind IN ('verification_review', 'screening_alert', 'alert_review'));
ALTER TABLE cases DROP CONSTRAINT cases_subject_check;
ALTER TABLE cases ADD CONSTRAINT cases_subject_check CHECK (
  (kind = 'verification_review' AND session_id IS NOT NULL) OR (kind = 'screening_alert' AND alert_id IS NOT NULL) OR kind = 'alert_review');

CREATE TABLE alerts (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  kind text NOT NULL,
  severity text NOT NULL CHECK (severity IN ('low', 'medium', 'high', 'critical')),
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'closed')),
  subject_type text NOT NULL,
  subject_id text NOT NULL,
  subject_reference text,
  title text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}',
  dedupe_key text NOT NULL DEFAULT '',
  case_id text NOT NULL REFERENCES cases(id),
  occurrences integer NOT NULL DEFAULT 1,
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz
);
CREATE INDEX alerts_tenant ON alerts (account_id, environment, id);
CREATE INDEX alerts_dedupe ON alerts (account_id, environment, kind, subject_type, subject_id, dedupe_key, created_at);
CREATE INDEX alerts_case ON alerts (case_id, id);
CREATE INDEX cases_open_subject ON cases (account_id, environment, subject_type, subject_id) WHERE state <> 'closed';
