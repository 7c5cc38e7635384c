import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decide, REASON_CODES, type CheckOutcome } from './decide.js';
import { DEFAULT_JOURNEYS } from './defaults.js';
import { validateDefinition, type JourneyDefinition } from './definition.js';

const kyc = validateDefinition(DEFAULT_JOURNEYS[0]!.definition);
const clean: CheckOutcome[] = [
  { type: 'document', status: 'passed' },
  { type: 'liveness', status: 'passed' },
  { type: 'face_match', status: 'passed' },
  { type: 'sanctions_pep', status: 'no_match' },
];
const withStatus = (type: CheckOutcome['type'], status: CheckOutcome['status']) =>
  clean.map((o) => (o.type === type ? { type, status } : o));

test('all clean: approved, score 0, band low, no reason codes, risk_score passed', () => {
  const r = decide(kyc, clean);
  assert.equal(r.decision, 'approved');
  assert.deepEqual(r.risk, { score: 0, band: 'low' });
  assert.deepEqual(r.reason_codes, []);
  assert.deepEqual(
    r.checks.map((c) => `${c.type}:${c.status}`),
    ['document:passed', 'liveness:passed', 'face_match:passed', 'sanctions_pep:no_match', 'risk_score:passed'],
  );
});

test('a failed document declines with document_failed and 60 risk points (medium)', () => {
  const r = decide(kyc, withStatus('document', 'failed'));
  assert.equal(r.decision, 'declined');
  assert.deepEqual(r.reason_codes, ['document_failed']);
  assert.deepEqual(r.risk, { score: 60, band: 'medium' });
});

test('a potential sanctions match refers; together with a review on liveness the band reaches high', () => {
  const one = decide(kyc, withStatus('sanctions_pep', 'potential_match'));
  assert.equal(one.decision, 'referred');
  assert.deepEqual(one.reason_codes, ['sanctions_pep_potential_match']);
  assert.deepEqual(one.risk, { score: 45, band: 'medium' });
  const two = decide(kyc, [
    ...withStatus('sanctions_pep', 'potential_match').filter((o) => o.type !== 'liveness'),
    { type: 'liveness', status: 'needs_review' },
  ]);
  assert.equal(two.decision, 'referred');
  assert.deepEqual(two.risk, { score: 70, band: 'high' });
  assert.deepEqual(two.reason_codes, ['liveness_needs_review', 'sanctions_pep_potential_match', 'risk_band_high']);
  assert.equal(two.checks.find((c) => c.type === 'risk_score')!.status, 'needs_review');
});

test('decline beats refer, and both reasons are kept; the score is capped at 100', () => {
  const r = decide(kyc, [
    { type: 'document', status: 'failed' },
    { type: 'liveness', status: 'failed' },
    { type: 'face_match', status: 'needs_review' },
    { type: 'sanctions_pep', status: 'match' },
  ]);
  assert.equal(r.decision, 'declined');
  assert.deepEqual(r.reason_codes, [
    'document_failed',
    'liveness_failed',
    'sanctions_pep_match',
    'face_match_needs_review',
    'risk_band_high',
  ]);
  assert.deepEqual(r.risk, { score: 100, band: 'high' });
});

test('a decline band declines on score alone, and its risk_score check fails', () => {
  const def: JourneyDefinition = { ...kyc, decision_rules: { decline: [], refer: [], decline_at_band: 'medium', refer_at_band: null } };
  const r = decide(def, withStatus('face_match', 'needs_review'));
  assert.equal(r.decision, 'approved', '20 points is low');
  const r2 = decide(
    def,
    withStatus('document', 'needs_review').map((o) =>
      o.type === 'liveness' ? { type: 'liveness' as const, status: 'needs_review' as const } : o,
    ),
  );
  assert.equal(r2.decision, 'declined');
  assert.deepEqual(r2.reason_codes, ['risk_band_medium']);
  assert.equal(r2.checks.find((c) => c.type === 'risk_score')!.status, 'failed');
});

test('refuses missing or impossible outcomes instead of guessing', () => {
  assert.throws(() => decide(kyc, clean.slice(1)), /no outcome for the document check/);
  assert.throws(() => decide(kyc, withStatus('document', 'no_match')), /not a document outcome/);
});

test('every reason code decide can produce is in the published list', () => {
  for (const code of [
    'document_failed',
    'document_needs_review',
    'sanctions_pep_match',
    'sanctions_pep_potential_match',
    'risk_band_high',
    'manual_approved',
  ])
    assert.ok(REASON_CODES.includes(code), code);
  assert.ok(!REASON_CODES.includes('document_passed'));
});

test('definition validation names the field', () => {
  const bad = (d: unknown, field: string) =>
    assert.throws(
      () => validateDefinition(d as JourneyDefinition),
      (e: { field?: string }) => e.field === field,
    );
  bad({ ...kyc, checks: [...kyc.checks, { type: 'document' }] }, 'definition.checks[5].type');
  bad({ ...kyc, checks: [{ type: 'liveness', settings: { threshold: 2 } }] }, 'definition.checks[0].settings.threshold');
  bad({ ...kyc, checks: kyc.checks.filter((c) => c.type !== 'face_match') }, 'definition.decision_rules.decline[2].check');
  bad(
    { ...kyc, decision_rules: { ...kyc.decision_rules, refer: [{ check: 'document', statuses: ['needs_review', 'match'] }] } },
    'definition.decision_rules.refer[0].statuses[1]',
  );
  bad({ ...kyc, risk_scoring: { ...kyc.risk_scoring, high_from: 10 } }, 'definition.risk_scoring.high_from');
  assert.equal(validateDefinition(kyc).checks[1]!.settings?.threshold, 0.5);
});
