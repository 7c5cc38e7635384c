import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { CHECK_TYPES } from './kernel/index.js';
import type { CheckTypeEntry } from './check-type.js';
import { CHECK_REGISTRY, CHECK_ROUTES, JOURNEY_CHECK_TYPES, journeySettingsOf, statusesOf } from './registry.js';

test('every check type has one registry entry naming itself, with its clean status first', () => {
  assert.deepEqual(Object.keys(CHECK_REGISTRY).sort(), [...CHECK_TYPES].sort());
  for (const t of CHECK_TYPES) {
    const e: CheckTypeEntry = CHECK_REGISTRY[t];
    assert.equal(e.type, t);
    assert.ok(e.statuses.includes(e.reviewStatus), `${t}: review status is one of its statuses`);
    assert.notEqual(e.statuses[0], e.reviewStatus, `${t}: the clean status is not the review status`);
  }
  assert.deepEqual(statusesOf('sanctions_pep'), ['no_match', 'potential_match', 'match']);
  assert.deepEqual(statusesOf('document'), ['passed', 'failed', 'needs_review']);
});

test('a journey check type has settings and either a pipeline step or a decision that computes it', () => {
  assert.deepEqual(
    [...JOURNEY_CHECK_TYPES],
    ['document', 'liveness', 'face_match', 'sanctions_pep', 'age_estimation', 'proof_of_address', 'risk_score'],
  );
  for (const t of JOURNEY_CHECK_TYPES) {
    const j = CHECK_REGISTRY[t].journey!;
    assert.ok(j.step !== null || j.decidedBy === 'risk_bands', `${t} runs somehow`);
    assert.ok(Value.Check(journeySettingsOf(t), {}), `${t}: empty settings are valid (defaults apply)`);
  }
  assert.equal(Value.Check(journeySettingsOf('face_match'), { threshold: 2 }), false);
  assert.deepEqual(Value.Default(journeySettingsOf('age_estimation'), {}), { minimum_age: 18 });
});

test('standalone endpoints: the kernel first, then each family plugin once', () => {
  const plugins = CHECK_ROUTES.map((r) => r.plugin);
  assert.equal(new Set(plugins).size, plugins.length);
  assert.equal(CHECK_ROUTES.length, 7);
  for (const t of CHECK_TYPES) {
    const r = CHECK_REGISTRY[t].routes;
    if (r) assert.ok(plugins.includes(r.plugin), `${t}'s plugin is mounted`);
  }
});
