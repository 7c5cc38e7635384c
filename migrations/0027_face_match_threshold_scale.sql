-- The face match model changed (issue #19): similarities are now cosines of the face-api recognition
-- net (impostors score about 0.85-0.90, the calibrated pass threshold is 0.927) instead of Human's
-- faceres (pass at 0.65). A face_match threshold stored in a journey version or pinned by a session was
-- set on the old scale, where it would now pass almost every impostor. Remove it, so the engine's
-- calibrated default applies; an operator who wants another threshold sets it again on the new scale.
UPDATE journey_versions SET definition = jsonb_set(
  definition, '{checks}',
  (SELECT jsonb_agg(
     CASE WHEN c->>'type' = 'face_match' THEN jsonb_set(c, '{settings}', COALESCE(c->'settings', '{}'::jsonb) - 'threshold') ELSE c END
     ORDER BY ord)
   FROM jsonb_array_elements(definition->'checks') WITH ORDINALITY AS x(c, ord)))
WHERE jsonb_typeof(definition->'checks') = 'array' AND definition->'checks' @> '[{"type": "face_match"}]';

UPDATE sessions SET definition = jsonb_set(
  definition, '{checks}',
  (SELECT jsonb_agg(
     CASE WHEN c->>'type' = 'face_match' THEN jsonb_set(c, '{settings}', COALESCE(c->'settings', '{}'::jsonb) - 'threshold') ELSE c END
     ORDER BY ord)
   FROM jsonb_array_elements(definition->'checks') WITH ORDINALITY AS x(c, ord)))
WHERE status IN ('created', 'awaiting_subject', 'processing')
  AND jsonb_typeof(definition->'checks') = 'array' AND definition->'checks' @> '[{"type": "face_match"}]';
