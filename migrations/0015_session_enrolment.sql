-- Approved sessions enrol the subject's selfie for face search (journey option enrol_on_approval):
-- the session an enrolment came from, unique so a retried enrolment job adds nothing.
ALTER TABLE face_enrollments ADD COLUMN session_id text;
CREATE UNIQUE INDEX face_enrollments_session ON face_enrollments (session_id) WHERE session_id IS NOT NULL;
