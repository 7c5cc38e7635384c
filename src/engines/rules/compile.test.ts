import { test } from 'node:test';
import { ruleOf } from '../../../test/helpers/rules.js';
import assert from 'node:assert/strict';
import { compileExpression } from './compile.js';
import { buildEnvironment } from './context.js';
import { compileRuleSet, readsPath, requiredContext, type Rule, type RuleSet } from './ruleset.js';

const env = buildEnvironment([{ key: 'fan_in_30d', fn: 'count_distinct', field: 'counterparty', window: '30d', group_by: 'subject' }]);

function fail(src: string) {
  const r = compileExpression(env, src, 'rules[0].expression');
  assert.equal(r.ok, false, src);
  return (r as { errors: { field: string; code: string; message: string; position?: { offset: number; line: number; column: number } }[] })
    .errors[0]!;
}

test('a syntax error carries offset, line and column', () => {
  const e = fail('tx.amount > 10.0 &&\n  (agg.fan_in_30d >= ');
  assert.equal(e.field, 'rules[0].expression');
  assert.match(e.code, /^syntax_error/);
  assert.deepEqual([e.position?.line, e.position?.column, e.position?.offset], [2, 22, 41]);
});

test('type errors and unknown fields point at the offending token', () => {
  const e = fail('tx.amount + "x" > 1');
  assert.match(e.code, /^type_error/);
  const k = fail('tx.amount > 1.0 &&\n tx.amont > 2.0');
  assert.match(k.message, /amont/);
  assert.deepEqual([k.position?.line, k.position?.column], [2, 5]);
  assert.match(fail('bogus > 1').message, /bogus/i);
  assert.equal(fail('tx.amount + 1.0').code, 'not_boolean');
  assert.equal(fail('   ').code, 'empty_expression');
});

test('an undeclared aggregate is an error naming it, with its position', () => {
  const e = fail('tx.amount > 1.0 && agg.fan_out_7d > 3');
  assert.equal(e.code, 'undeclared_aggregate');
  assert.match(e.message, /fan_out_7d/);
  assert.equal(e.position?.offset, 19);
  assert.equal(fail('agg == agg').code, 'invalid_aggregate_reference');
});

test('a valid expression lists the paths it reads', () => {
  const r = compileExpression(
    env,
    'tx.direction == "in" && agg.fan_in_30d >= 3 && counterparty.screening.status != "hit" && wallet.categories.exists(c, c == "mixer")',
  );
  assert.ok(r.ok);
  assert.deepEqual(r.expression.paths.sort(), ['agg.fan_in_30d', 'counterparty.screening.status', 'tx.direction', 'wallet.categories']);
});

const rule = (o: Partial<Rule>): Rule => ({
  id: 'rul_1',
  key: 'r1',
  version: 1,
  name: 'r',
  description: '',
  expression: 'tx.amount > 1.0',
  score: 10,
  severity: 'low',
  typologies: [],
  status: 'active',
  author: 'ann',
  ...o,
});

test('rule set validation: every problem, each naming its field', () => {
  const rs: RuleSet = {
    version: 1,
    thresholds: { review: 50, block_and_review: 40, decline: 100 },
    aggregates: [
      { key: 'a', fn: 'count', window: '400d', group_by: 'subject' },
      { key: 'a', fn: 'count', window: '1d', group_by: 'subject' },
    ],
    rules: [
      rule({}),
      rule({ id: 'rul_2', key: 'r1', expression: 'agg.zzz > 1' }),
      rule({ id: 'rul_3', key: 'r3', expression: 'tx.amount >', status: 'draft' }),
      rule({ id: 'rul_4', key: 'r4', reviewed_by: 'ann' }),
    ],
  };
  const r = compileRuleSet(rs);
  assert.equal(r.ok, false);
  const fields = (r as { errors: { field: string }[] }).errors.map((e) => e.field).sort();
  assert.deepEqual(fields, [
    'aggregates[0].window',
    'aggregates[1].key',
    'rules[1].expression',
    'rules[1].key',
    'rules[2].expression',
    'rules[3].reviewed_by',
    'thresholds',
  ]);
});

test('subject, counterparty, wallet and lists are typed: nested fields check, mistakes point at the token', () => {
  const ok = compileExpression(
    env,
    'subject.kyc_decision != "approved" && subject.relationship_days < 30 && subject.business.age_days < 365 && counterparty.screening.score > 0.9 && "ofac" in counterparty.screening.lists && wallet.sanctioned && lists.counterparty_blocked && "blocklist:name" in lists.names',
  );
  assert.ok(ok.ok, JSON.stringify(!ok.ok && ok.errors));
  assert.ok(ok.expression.paths.includes('counterparty.screening.lists'));
  const band = fail('tx.amount > 1.0 &&\n subject.risk_band > 2');
  assert.match(band.code, /^type_error/);
  assert.equal(band.position?.line, 2);
  const unknown = fail('wallet.sanctoned');
  assert.match(unknown.message, /sanctoned/);
  assert.equal(unknown.position?.offset, 7); // the misspelt field
  assert.match(fail('lists.device_blocked').message, /device_blocked/);
  assert.match(fail('subject.relationship_days > "30"').code, /^type_error/);
});

test('requiredContext: the non-aggregate paths evaluated rules read; drafts and disabled rules do not count', () => {
  const rule = ruleOf;
  const c = compileRuleSet({
    version: 1,
    thresholds: { review: 10, block_and_review: 20, decline: 30 },
    aggregates: [{ key: 'fan_in_30d', fn: 'count_distinct', field: 'counterparty', window: '30d', group_by: 'subject' }],
    rules: [
      rule('a', 'wallet.sanctioned && agg.fan_in_30d > 1'),
      rule('b', 'subject.risk_band == "high"', 'test'),
      rule('c', 'lists.subject_blocked', 'draft'),
    ],
  });
  assert.ok(c.ok);
  assert.deepEqual(requiredContext(c.compiled), ['subject.risk_band', 'wallet.sanctioned']);
  assert.equal(readsPath(['subject.business.age_days'], 'subject.business'), true);
  assert.equal(readsPath(['subject'], 'subject.pep'), true);
  assert.equal(readsPath(['subject.risk_band'], 'subject.pep'), false);
});
