import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ageAt, compileJourneyRules, evaluateJourneyRules, journeyContext, type JourneyRule } from './journey-rules.js';

const TYPES = ['document', 'liveness', 'sanctions_pep', 'risk_score'];
const NOW = Date.parse('2026-11-23T12:00:00Z');

test('ageAt: whole years in UTC, the birthday itself counts; malformed or missing dates are null', () => {
  assert.equal(ageAt('2008-11-23', NOW), 18);
  assert.equal(ageAt('2008-11-24', NOW), 17);
  assert.equal(ageAt('1974-08-12', NOW), 52);
  assert.equal(ageAt('2000-02-29', Date.parse('2025-02-28T23:59:00Z')), 24);
  assert.equal(ageAt('2000-02-29', Date.parse('2025-03-01T00:00:00Z')), 25);
  assert.equal(ageAt(null, NOW), null);
  assert.equal(ageAt('23/11/2008', NOW), null);
});

test('journeyContext: document expiry at the decision, defaults and the flags that tell unknown from zero', () => {
  const c = journeyContext(TYPES, {
    checks: { document: 'passed' },
    risk: { score: 12.7, band: 'low' },
    subject: { type: 'individual', reference: 'c1', country: null },
    results: { document: { status: 'passed', score: 0.91, reasons: ['mrz_valid'] } },
    document: {
      document_type: 'passport',
      issuing_country: 'UTO',
      nationality: 'UTO',
      date_of_birth: '1974-08-12',
      expiry_date: '2026-11-23',
    },
    declared: { given_names: 'Anna', date_of_birth: null, country: 'SE' },
    now: NOW,
  });
  assert.deepEqual(c.document, {
    read: true,
    type: 'passport',
    issuing_country: 'UTO',
    nationality: 'UTO',
    age: 52,
    age_known: true,
    expiry_date: '2026-11-23',
    days_to_expiry: 0,
    expired: false,
  });
  assert.deepEqual(c.declared, { name_given: true, birth_date_given: false, age: 0, country: 'SE' });
  assert.deepEqual(c.results!.document, { status: 'passed', score: 0.91, scored: true, reasons: ['mrz_valid'] });
  assert.deepEqual(c.results!.liveness, { status: '', score: 0, scored: false, reasons: [] });
  assert.deepEqual(c.risk, { score: 12, band: 'low' });
  assert.deepEqual(c.capture, { ip_country: '' });
  const dayAfter = journeyContext(TYPES, {
    checks: {},
    risk: { score: 0, band: 'low' },
    subject: {},
    document: { expiry_date: '2026-11-22' },
    now: NOW,
  });
  assert.equal(dayAfter.document!.expired, true);
  assert.equal(dayAfter.document!.days_to_expiry, -1);
  const none = journeyContext(TYPES, { checks: {}, risk: { score: 0, band: 'low' }, subject: {}, now: NOW });
  assert.equal(none.document!.read, false);
  assert.equal(none.document!.age_known, false);
  assert.equal(none.document!.expired, false);
});

test('evaluateJourneyRules: typed session context, values used per rule, errors reported with what the rule read', () => {
  const rules: JourneyRule[] = [
    { key: 'minor', expression: 'document.age_known && document.age < 18', outcome: 'decline' },
    { key: 'weak_read', expression: 'results.document.scored && results.document.score < 0.5', outcome: 'refer' },
    { key: 'divide', expression: '10 / risk.score > 1', outcome: 'refer' },
  ];
  const compiled = compileJourneyRules(TYPES, rules);
  assert.ok(compiled.ok);
  const out = evaluateJourneyRules(TYPES, rules, compiled.expressions, {
    checks: { document: 'passed' },
    risk: { score: 0, band: 'low' },
    subject: {},
    results: { document: { status: 'passed', score: 0.4 } },
    document: { date_of_birth: '2010-01-01' },
    now: NOW,
  });
  assert.deepEqual(out[0], {
    key: 'minor',
    outcome: 'decline',
    matched: true,
    values_used: { 'document.age_known': true, 'document.age': 16 },
  });
  assert.deepEqual(out[1], {
    key: 'weak_read',
    outcome: 'refer',
    matched: true,
    values_used: { 'results.document.scored': true, 'results.document.score': 0.4 },
  });
  assert.ok('error' in out[2]!);
  assert.deepEqual(out[2]!.values_used, { 'risk.score': 0 });
});

test('compileJourneyRules: unknown fields and wrong types are errors at the rule with a position', () => {
  for (const expression of ['document.agee > 1', 'declared.age == "18"', 'document.birth_date != ""', 'capture.ip == "1.2.3.4"']) {
    const c = compileJourneyRules(TYPES, [{ key: 'x', expression, outcome: 'refer' }], 'definition.rules');
    assert.equal(c.ok, false, expression);
    if (!c.ok) {
      assert.equal(c.errors[0]!.field, 'definition.rules[0].expression');
      assert.ok(c.errors[0]!.position, expression);
    }
  }
});
