import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRuleSet, type CompiledRuleSet, type Rule, type RuleSet } from './ruleset.js';
import { decide, evaluate } from './evaluate.js';
import { celContextOf, normalizeContext, toCelContext, type RuleContextInput } from './context.js';

const rule = (o: Partial<Rule>): Rule => ({
  id: `rul_${o.key}`,
  key: 'x',
  version: 3,
  name: 'r',
  description: '',
  expression: 'true',
  score: 10,
  severity: 'low',
  typologies: [],
  status: 'active',
  author: 'ann',
  ...o,
});

function compile(rules: Rule[]): CompiledRuleSet {
  const rs: RuleSet = {
    version: 7,
    thresholds: { review: 20, block_and_review: 50, decline: 90 },
    rules,
    aggregates: [
      { key: 'in_30d', fn: 'count', window: '30d', group_by: 'subject', direction: 'in' },
      { key: 'in_sum_30d', fn: 'sum', field: 'amount', window: '30d', group_by: 'subject' },
    ],
  };
  const r = compileRuleSet(rs);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.compiled;
}

const input = (
  o: Partial<RuleContextInput['tx']> = {},
  agg: RuleContextInput['agg'] = { in_30d: 4, in_sum_30d: '1000.10' },
): RuleContextInput => ({
  tx: { amount: '250.50', currency: 'EUR', occurred_at: '2024-03-01T10:00:00Z', direction: 'in', metadata: { k: 'v' }, ...o },
  counterparty: { country: 'DE', screening: { status: 'clear' } },
  agg,
});

test('thresholds: score sums active hits only', () => {
  assert.equal(decide(19, { review: 20, block_and_review: 50, decline: 90 }), 'approved');
  assert.equal(decide(50, { review: 20, block_and_review: 50, decline: 90 }), 'block_and_review');
  const c = compile([
    rule({ key: 'a', score: 15, expression: 'tx.amount > 200.0' }),
    rule({ key: 'b', score: 15, expression: 'agg.in_30d >= 4' }),
    rule({ key: 'c', score: 40, expression: 'tx.amount > 1000.0' }),
  ]);
  const e = evaluate(c, input());
  assert.equal(e.score, 30);
  assert.equal(e.status, 'review');
  assert.equal(e.ruleset_version, 7);
  assert.deepEqual(
    e.outcomes.map((o) => [o.key, o.outcome, o.score, o.version]),
    [
      ['a', 'hit', 15, 3],
      ['b', 'hit', 15, 3],
      ['c', 'no_hit', 0, 3],
    ],
  );
  assert.deepEqual(e.outcomes[0]!.values_used, { 'tx.amount': '250.50' });
  assert.deepEqual(e.outcomes[1]!.values_used, { 'agg.in_30d': 4 });
});

test('test rules are shadow hits and never change the outcome', () => {
  const c = compile([rule({ key: 'shadow', score: 100, status: 'test', force_outcome: 'decline' })]);
  const e = evaluate(c, input());
  assert.equal(e.status, 'approved');
  assert.equal(e.score, 0);
  assert.equal(e.outcomes[0]!.outcome, 'shadow_hit');
});

test('drafts and disabled rules are not evaluated', () => {
  const c = compile([rule({ key: 'd', status: 'draft', score: 100 }), rule({ key: 'x2', status: 'disabled', score: 100 })]);
  const e = evaluate(c, input());
  assert.deepEqual(e.outcomes, []);
  assert.equal(e.status, 'approved');
});

test('snoozed rules are recorded as snoozed with would_hit, and do not score', () => {
  const c = compile([rule({ key: 's', score: 100 }), rule({ key: 'n', expression: 'false' })]);
  const e = evaluate(c, input(), { snoozed: new Set(['rul_s', 'rul_n']) });
  assert.deepEqual(
    e.outcomes.map((o) => [o.outcome, o.would_hit]),
    [
      ['snoozed', true],
      ['snoozed', false],
    ],
  );
  assert.equal(e.status, 'approved');
});

test('a rule that errors is recorded and never blocks', () => {
  const c = compile([
    rule({ key: 'div', score: 100, force_outcome: 'decline', expression: '1 / (tx.hour - tx.hour) > 0' }),
    rule({ key: 'meta', score: 100, expression: 'tx.metadata["nope"] == "x"' }),
    rule({ key: 'ok', score: 5, expression: 'true' }),
  ]);
  const e = evaluate(c, input());
  assert.deepEqual(
    e.outcomes.map((o) => o.outcome),
    ['error', 'error', 'hit'],
  );
  assert.ok(e.outcomes[0]!.error!.message.length > 0);
  assert.equal(e.status, 'approved');
  assert.equal(e.score, 5);
});

test('an aggregate the caller did not provide is an error, not a zero', () => {
  const c = compile([rule({ key: 'quiet', score: 100, expression: 'agg.in_30d == 0' })]);
  const e = evaluate(c, input({}, {}));
  assert.equal(e.outcomes[0]!.outcome, 'error');
  assert.equal(e.outcomes[0]!.error!.code, 'aggregate_missing');
  assert.equal(e.status, 'approved');
});

test('forced outcomes: the highest wins over a lower score outcome', () => {
  const c = compile([
    rule({ key: 'r', score: 1, force_outcome: 'review' }),
    rule({ key: 'b', score: 1, force_outcome: 'block_and_review' }),
    rule({ key: 'n', score: 1, force_outcome: 'decline', expression: 'false' }),
  ]);
  assert.equal(evaluate(c, input()).status, 'block_and_review');
  const d = compile([rule({ key: 'r', score: 1, force_outcome: 'review' }), rule({ key: 'd', score: 1, force_outcome: 'decline' })]);
  assert.equal(evaluate(d, input()).status, 'declined');
  // A forced review does not lower a score that already declines.
  const s = compile([rule({ key: 'big', score: 95 }), rule({ key: 'r', score: 0, force_outcome: 'review' })]);
  assert.equal(evaluate(s, input()).status, 'declined');
});

test('money compares from decimal strings; aggregate sums reach CEL as numbers', () => {
  const c = compile([rule({ key: 'm', expression: 'agg.in_sum_30d + tx.amount == 1250.6 && tx.amount_decimal == "250.50"' })]);
  assert.equal(evaluate(c, input()).outcomes[0]!.outcome, 'hit');
  assert.throws(() => evaluate(c, input({ amount: '1e3' })), /plain decimal/);
});

test('requiredAggregates lists only what evaluated rules read', async () => {
  const { requiredAggregates } = await import('./ruleset.js');
  const c = compile([
    rule({ key: 'a', expression: 'agg.in_30d > 1' }),
    rule({ key: 'b', status: 'draft', expression: 'agg.in_sum_30d > 1.0' }),
  ]);
  assert.deepEqual(
    requiredAggregates(c).map((a) => a.key),
    ['in_30d'],
  );
});

test('values_used reports nested paths and every referenced value, even past a short-circuit', () => {
  const c = compile([rule({ key: 'v', expression: 'tx.amount > 1000.0 && counterparty.screening.status == "hit"' })]);
  const o = evaluate(c, input()).outcomes[0]!;
  assert.equal(o.outcome, 'no_hit');
  // A rule on the counterparty's screening also reports the list entries behind it (evidence), here none.
  assert.deepEqual(o.values_used, {
    'tx.amount': '250.50',
    'counterparty.screening.status': 'clear',
    'counterparty.screening.matches': [],
  });
});

test('values_used of a rule on counterparty.screening names the matched list entries, read or not', () => {
  const c = compile([
    rule({ key: 's', expression: 'counterparty.screening.score >= 0.95' }),
    rule({ key: 'm', expression: 'counterparty.screening.matches.size() > 0' }),
    rule({ key: 't', expression: 'tx.amount > 1.0' }),
  ]);
  const matches = ['ofac-sdn:1 "Evil Corp" (ofac_sdn, 0.98)'];
  const e = evaluate(c, { ...input(), counterparty: { screening: { status: 'potential_match', score: 0.98, matches } } });
  assert.deepEqual(e.outcomes[0]!.values_used, { 'counterparty.screening.score': 0.98, 'counterparty.screening.matches': matches });
  assert.deepEqual(e.outcomes[1]!.values_used, { 'counterparty.screening.matches': matches });
  assert.deepEqual(e.outcomes[2]!.values_used, { 'tx.amount': '250.50' });
});

test('valuesUsed: false (replays) gives the same outcomes, scores and status without values_used', () => {
  const c = compile([
    rule({ key: 'a', score: 15, expression: 'tx.amount > 200.0' }),
    rule({ key: 'b', score: 15, expression: 'agg.in_30d >= 4 && counterparty.screening.status == "clear"' }),
    rule({ key: 'c', score: 40, expression: 'tx.amount > 1000.0' }),
  ]);
  const full = evaluate(c, input());
  const lean = evaluate(c, input(), { valuesUsed: false });
  const strip = (e: typeof full) => ({ ...e, outcomes: e.outcomes.map((o) => ({ ...o, values_used: {} })) });
  assert.deepEqual(lean, strip(full));
  assert.deepEqual(full.outcomes[1]!.values_used, {
    'agg.in_30d': 4,
    'counterparty.screening.status': 'clear',
    'counterparty.screening.matches': [],
  });
});

test('the one-pass CEL context of replays equals the normalized one, whatever the input leaves out', () => {
  const c = compile([rule({ key: 'a', expression: 'tx.amount > 200.0' })]);
  const inputs: RuleContextInput[] = [
    input(),
    input(
      { occurred_at: Date.UTC(2024, 1, 29, 23, 59, 59, 999), balance_after: '0', type: null, hour: 7 },
      { in_30d: 0, in_sum_30d: null },
    ),
    { tx: { amount: '0.000000000000000001', currency: 'JPY', occurred_at: 0 } },
    {
      tx: { amount: '12', currency: 'EUR', occurred_at: '2024-03-01T10:00:00Z', balance_before: '3.5', id: 'txn_1' },
      subject: { reference: 's', relationship_days: '12', pep: null, business: { age_days: 3n, registered: true } },
      counterparty: { reference: 'c', country: 'FR', screening: null },
      wallet: { score: '0.7', categories: ['mixer'] },
      lists: { names: ['x'], counterparty_blocked: true },
      agg: { in_30d: 2, in_sum_30d: '99999999999.999999999999999999' },
    },
  ];
  for (const i of inputs) {
    const twoSteps = toCelContext(c.environment, normalizeContext(i, c.ruleset.aggregates));
    assert.deepEqual(celContextOf(c.environment, i), twoSteps);
    assert.deepEqual(celContextOf(c.environment, i), twoSteps, 'the shared default records are unchanged by a use');
  }
  assert.throws(() => celContextOf(c.environment, input({ amount: '1e3' })), /decimal/);
  assert.throws(() => celContextOf(c.environment, input({ occurred_at: 'yesterday' })), /valid time/);
});

test('validateRuleSet returns the same errors without compiling for use', async () => {
  const { validateRuleSet } = await import('./ruleset.js');
  const errs = validateRuleSet({
    version: 1,
    thresholds: { review: 1, block_and_review: 2, decline: 3 },
    aggregates: [],
    rules: [rule({ key: 'a', expression: 'agg.nope > 1' })],
  });
  assert.deepEqual(
    errs.map((e) => [e.field, e.code]),
    [['rules[0].expression', 'undeclared_aggregate']],
  );
});
