import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { splitSql } from '../../src/platform/db.js';

// Migration 0027 removes face_match thresholds that were set on the old model's similarity scale (0.65
// passed nearly every impostor under the face-api net): published journey versions and the definitions
// pinned by sessions still running. Replayed here on rows written with such a threshold.
const MIGRATION = readFileSync(new URL('../../migrations/0027_face_match_threshold_scale.sql', import.meta.url), 'utf8');

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

test('0027: a stored face_match threshold is removed from journey versions and running sessions, nothing else changes', async () => {
  const owner = await t.tenant();
  const created = await t.call('POST', '/v1/verifications', {
    key: owner.sandboxKey,
    body: { journey: 'kyc_standard', subject: { type: 'individual', reference: 'cus_mig' } },
  });
  assert.equal(created.statusCode, 201, created.body);
  const id = created.json().id as string;
  const oldScale = (def: { checks: { type: string; settings?: Record<string, unknown> }[] }) => ({
    ...def,
    checks: def.checks.map((c) => (c.type === 'face_match' ? { ...c, settings: { threshold: 0.65 } } : c)),
  });
  // A session written before migration 0051 held a copy of its version's definition (now it refers to the version).
  const [session] = await t.db.query<{ definition: { checks: { type: string; settings?: Record<string, unknown> }[] } }>(
    `SELECT v.definition FROM sessions s JOIN journeys j ON j.account_id = s.account_id AND j.environment = s.environment AND j.key = s.journey_key
     JOIN journey_versions v ON v.journey_id = j.id AND v.version = s.journey_version WHERE s.id = $1`,
    [id],
  );
  await t.db.query('UPDATE sessions SET definition = $2::jsonb WHERE id = $1', [id, JSON.stringify(oldScale(session!.definition))]);
  await t.db.query(
    `UPDATE journey_versions SET definition = jsonb_set(definition, '{checks}', (
       SELECT jsonb_agg(CASE WHEN c->>'type' = 'face_match' THEN jsonb_set(c, '{settings}', '{"threshold": 0.65}'::jsonb) ELSE c END ORDER BY ord)
       FROM jsonb_array_elements(definition->'checks') WITH ORDINALITY AS x(c, ord)))
     WHERE definition->'checks' @> '[{"type": "face_match"}]'`,
  );
  const before = await t.db.query<{ definition: { checks: { type: string; settings?: Record<string, unknown> }[] } }>(
    'SELECT definition FROM journey_versions WHERE definition->\'checks\' @> \'[{"type": "face_match"}]\'',
  );
  assert.ok(before.length > 0);
  assert.ok(before.every((r) => r.definition.checks.find((c) => c.type === 'face_match')!.settings!.threshold === 0.65));

  for (const statement of splitSql(MIGRATION)) await t.db.query(statement);

  const versions = await t.db.query<{ definition: { checks: { type: string; settings?: Record<string, unknown> }[] } }>(
    'SELECT definition FROM journey_versions WHERE definition->\'checks\' @> \'[{"type": "face_match"}]\'',
  );
  for (const v of versions) {
    const fm = v.definition.checks.find((c) => c.type === 'face_match')!;
    assert.deepEqual(fm.settings, {});
    // The other checks keep their settings, in their order.
    assert.deepEqual(
      v.definition.checks.map((c) => c.type),
      before[0]!.definition.checks.map((c) => c.type),
    );
    assert.equal(v.definition.checks.find((c) => c.type === 'liveness')!.settings!.threshold, 0.5);
  }
  const [after] = await t.db.query<{ definition: { checks: { type: string; settings?: Record<string, unknown> }[] } }>(
    'SELECT definition FROM sessions WHERE id = $1',
    [id],
  );
  assert.deepEqual(after!.definition.checks.find((c) => c.type === 'face_match')!.settings, {});
});
