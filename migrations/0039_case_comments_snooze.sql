-- Cases in the console (issue #16, item 4): comments, snooze and a structured outcome.
-- A snoozed case stays open but leaves the queue (GET /v1/cases?snoozed=false) and "claim next" until
-- snoozed_until; the outcome is set when an alert or alert review case is closed.
ALTER TABLE cases ADD COLUMN snoozed_until timestamptz;
ALTER TABLE cases ADD COLUMN outcome text CHECK (outcome IN ('true_positive', 'false_positive', 'inconclusive'));

-- A reviewer's note on a case: kept with the case (it may name the subject), referenced by id from the
-- audit row (case.commented) so the hash-chained audit log holds no free text about people.
CREATE TABLE case_comments (
  id text PRIMARY KEY,
  case_id text NOT NULL REFERENCES cases(id),
  account_id text NOT NULL,
  environment text NOT NULL,
  author text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX case_comments_case ON case_comments (case_id, id);
