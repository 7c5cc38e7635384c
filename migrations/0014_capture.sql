-- Capture API: the quality guidance computed when the subject uploaded a medium
-- ({ acceptable, issues: [{ code, message }] }), so the hosted page can show it again after a reload.
ALTER TABLE media ADD COLUMN quality jsonb;
