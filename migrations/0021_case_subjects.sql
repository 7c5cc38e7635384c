-- Cases get a generic subject (subject_type, subject_id) and alerts a kind, so that later kinds of
-- alert (transaction, wallet, business, Travel Rule) and the cases they open share these tables
-- instead of adding a table per kind. Today a case is about a verification session (review case)
-- or a monitoring alert (screening alert case); every monitoring alert is a screening alert.
ALTER TABLE cases ADD COLUMN subject_type text;
ALTER TABLE cases ADD COLUMN subject_id text;
UPDATE cases SET
  subject_type = CASE WHEN kind = 'screening_alert' THEN 'monitoring_alert' ELSE 'verification' END,
  subject_id = CASE WHEN kind = 'screening_alert' THEN alert_id ELSE session_id END;
ALTER TABLE cases ALTER COLUMN subject_type SET NOT NULL;
ALTER TABLE cases ALTER COLUMN subject_id SET NOT NULL;
CREATE INDEX cases_subject ON cases (account_id, environment, subject_type, subject_id);

ALTER TABLE monitoring_alerts ADD COLUMN kind text NOT NULL DEFAULT 'screening';
CREATE INDEX monitoring_alerts_kind ON monitoring_alerts (account_id, environment, kind, id);
