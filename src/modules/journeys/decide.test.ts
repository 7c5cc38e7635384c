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

const withRules = (rules: JourneyDefinition['rules']) => validateDefinition({ ...DEFAULT_JOURNEYS[0]!.definition, rules });

test('journey rules: a match declines or refers with journey_rule_<key>; no match leaves the decision alone', () => {
  const def = withRules([
    { key: 'embargoed', expression: 'subject.country in ["KP", "IR"]', outcome: 'decline' },
    { key: 'doc_review_medium', expression: 'checks.document == "needs_review" && risk.band != "low"', outcome: 'refer' },
  ]);
  assert.deepEqual(decide(def, clean, { subject: { country: 'FR' } }).decision, 'approved');
  const kp = decide(def, clean, { subject: { country: 'KP' } });
  assert.equal(kp.decision, 'declined');
  assert.deepEqual(kp.reason_codes, ['journey_rule_embargoed']);
  // document needs_review alone scores 30 (medium) and refers by status; the rule adds its reason.
  const review = decide(def, withStatus('document', 'needs_review'), { subject: { country: 'FR' } });
  assert.equal(review.decision, 'referred');
  assert.ok(review.reason_codes.includes('journey_rule_doc_review_medium'), review.reason_codes.join());
  const refers = decide(withRules([{ key: 'vip', expression: 'subject.reference.startsWith("vip_")', outcome: 'refer' }]), clean, {
    subject: { reference: 'vip_1' },
  });
  assert.equal(refers.decision, 'referred');
  assert.deepEqual(refers.reason_codes, ['journey_rule_vip']);
});

test('journey rules: a rule that errors at the decision refers (never approves) and its reason names the error', () => {
  const def = withRules([{ key: 'numeric_ref', expression: 'int(subject.reference) > 5', outcome: 'decline' }]);
  const r = decide(def, clean, { subject: { reference: 'cust_abc' } });
  assert.equal(r.decision, 'referred');
  assert.deepEqual(r.reason_codes, ['journey_rule_numeric_ref_error_int_conversion_error']);
  assert.equal(decide(def, clean, { subject: { reference: '9' } }).decision, 'declined');
});

test('journey rules: expressions are compiled when the definition is saved; the 400 names the rule and the position', () => {
  const cases: [string, string, RegExp][] = [
    ['risk.score > 1 &&', 'definition.rules[1].expression', /syntax_error.*line 1, column 18/],
    ['checks.face_search == "passed"', 'definition.rules[1].expression', /No such key: face_search.*column 8/],
    ['checks.document == 1', 'definition.rules[1].expression', /no such overload/],
    ['risk.score', 'definition.rules[1].expression', /must be bool/],
    ['tx.amount > 1.0', 'definition.rules[1].expression', /tx/],
  ];
  for (const [expression, field, message] of cases) {
    assert.throws(
      () =>
        withRules([
          { key: 'ok', expression: 'true', outcome: 'refer' },
          { key: 'bad', expression, outcome: 'refer' },
        ]),
      (e: { field?: string; message: string }) => e.field === field && message.test(e.message),
      expression,
    );
  }
  assert.throws(
    () =>
      withRules([
        { key: 'same', expression: 'true', outcome: 'refer' },
        { key: 'same', expression: 'false', outcome: 'refer' },
      ]),
    (e: { field?: string }) => e.field === 'definition.rules[1].key',
  );
});
