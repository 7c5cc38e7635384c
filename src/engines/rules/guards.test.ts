import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AggregateValue } from './aggregate-plan.js';
import type { RuleContextInput } from './context.js';
import { evaluate } from './evaluate.js';
import { neededAggregates } from './guards.js';
import { compileRuleSet, type CompiledRuleSet, type Rule } from './ruleset.js';
import { ruleOf } from '../../../test/helpers/rules.js';
import { STARTER_TYPOLOGIES } from './typologies.js';
import { seededRandom } from '../seeded-random.js';

const rule = ruleOf;

function compile(rules: Rule[]): CompiledRuleSet {
  const r = compileRuleSet({
    version: 1,
    thresholds: { review: 10, block_and_review: 20, decline: 30 },
    rules,
    aggregates: [
      { key: 'x', fn: 'count', window: '7d', group_by: 'subject' },
      { key: 'y', fn: 'sum', field: 'amount', window: '30d', group_by: 'subject' },
      { key: 'z', fn: 'count', window: '1d', group_by: 'subject', direction: 'in' },
    ],
  });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.compiled;
}

const tx = (o: Partial<RuleContextInput['tx']> = {}): RuleContextInput['tx'] => ({
  amount: '250.00',
  currency: 'EUR',
  occurred_at: Date.UTC(2026, 0, 5, 12),
  direction: 'in',
  type: 'transfer',
  metadata: {},
  ...o,
});

test('guards: the conjuncts that read no aggregate, wherever they stand; none for a disjunction or a rule without aggregates', () => {
  const c = compile([
    rule('out_x', 'tx.direction == "out" && agg.x >= 5'),
    rule('right', 'agg.z >= 1 && (tx.type == "cash" || tx.type == "atm") && tx.amount > 100.0'),
    rule('or', 'agg.y > 1000.0 || tx.amount > 5000.0'),
    rule('plain', 'tx.amount > 1.0 && tx.direction == "in"'),
    // The parser's range of `!(…)` stops before its last parenthesis: that conjunct is not trusted as a guard.
    rule('negated', '!(tx.type == "cash") && agg.x > 1 && -tx.amount < -5.0'),
  ]);
  const guards = Object.fromEntries(c.rules.map((r) => [r.rule.key, r.expression.guards.length]));
  assert.deepEqual(guards, { out_x: 1, right: 2, or: 0, plain: 0, negated: 1 });
  assert.equal(neededAggregates(c, { tx: tx({ amount: '3.00' }) }).decided.has('rul_negated'), true);
  assert.equal(neededAggregates(c, { tx: tx({ amount: '9.00', type: 'cash' }) }).decided.has('rul_negated'), false);
});

test('neededAggregates: a false guard decides its rule and spares its aggregates; a true or failing guard decides nothing', () => {
  const c = compile([
    rule('out_x', 'tx.direction == "out" && agg.x >= 5'),
    rule('cash_z', 'agg.z >= 1 && tx.type == "cash"'),
    rule('or_y', 'agg.y > 1000.0 || tx.amount > 5000.0'),
    // metadata.k is absent: the guard errors, so it decides nothing and z is read.
    rule('meta_z', 'tx.metadata.k == "v" && agg.z > 0', 'test'),
  ]);
  const n = neededAggregates(c, { tx: tx() });
  assert.deepEqual([...n.decided].sort(), ['rul_cash_z', 'rul_out_x']);
  assert.deepEqual(
    n.plans.map((p) => p.key),
    ['y', 'z'],
  );
  const out = neededAggregates(c, { tx: tx({ direction: 'out', type: 'cash' }) });
  assert.deepEqual([...out.decided], []);
  assert.deepEqual(
    out.plans.map((p) => p.key),
    ['x', 'y', 'z'],
  );
  // One set of keys, one array (the module's statement and row shapes are keyed on it).
  assert.equal(neededAggregates(c, { tx: tx({ amount: '9.00' }) }).plans, n.plans);
});

test('evaluate: a decided rule is no_hit (snoozed: would_hit false) without its aggregates, which values_used leaves out', () => {
  const c = compile([rule('out_x', 'tx.direction == "out" && agg.x >= 5'), rule('or_y', 'agg.y > 10.0 || tx.amount > 5000.0')]);
  const input = { tx: tx() };
  const n = neededAggregates(c, input);
  const e = evaluate(c, { ...input, agg: { y: '20.00' } }, { decided: n.decided });
  assert.deepEqual(
    e.outcomes.map((o) => [o.key, o.outcome, o.values_used]),
    [
      ['out_x', 'no_hit', { 'tx.direction': 'in' }],
      ['or_y', 'hit', { 'agg.y': '20.00', 'tx.amount': '250.00' }],
    ],
  );
  // Without the decision the missing aggregate is still an error, never a silent 0.
  assert.equal(evaluate(c, { ...input, agg: { y: '20.00' } }).outcomes[0]!.outcome, 'error');
  const snoozed = evaluate(c, { ...input, agg: { y: '20.00' } }, { decided: n.decided, snoozed: new Set(['rul_out_x']) });
  assert.equal(snoozed.outcomes[0]!.outcome, 'snoozed');
  assert.equal(snoozed.outcomes[0]!.would_hit, false);
});

test('past 256 distinct sets of needed aggregates, a new set reads every aggregate (still correct, only slower)', () => {
  // Nine rules with independent guards: 512 possible sets.
  const bits = Array.from({ length: 9 }, (_, i) => i);
  const r = compileRuleSet({
    version: 1,
    thresholds: { review: 10, block_and_review: 20, decline: 30 },
    rules: bits.map((i) => rule(`b${i}`, `tx.metadata.b${i} == "1" && agg.a${i} > 0`)),
    aggregates: bits.map((i) => ({ key: `a${i}`, fn: 'count' as const, window: '1d', group_by: 'subject' as const })),
  });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const c = r.compiled;
  // The set of all nine comes last (m = 511): the map is full long before that set is first needed.
  const nine = bits.map((i) => `a${i}`);
  let full = 0;
  for (let m = 0; m < 512; m++) {
    const input = { tx: tx({ metadata: Object.fromEntries(bits.map((i) => [`b${i}`, (m >> i) & 1 ? '1' : '0'])) }) };
    const n = neededAggregates(c, input);
    const open = bits.filter((i) => (m >> i) & 1).map((i) => `a${i}`);
    const keys = n.plans.map((p) => p.key);
    if (open.length < 9 && keys.length === 9) full++;
    else assert.deepEqual(keys, open);
    // Whatever was read, the undecided rules have their aggregates and the outcomes are those of the full evaluation.
    const agg = Object.fromEntries(keys.map((k) => [k, 1]));
    const part = evaluate(c, { ...input, agg }, { decided: n.decided });
    const whole = evaluate(c, { ...input, agg: Object.fromEntries(nine.map((k) => [k, 1])) });
    assert.deepEqual(
      part.outcomes.map((o) => o.outcome),
      whole.outcomes.map((o) => o.outcome),
    );
  }
  assert.ok(full >= 512 - 256, `${full} sets answered with every aggregate`);
});

test('the starter library: outcomes, score and status with only the needed aggregates equal those with all of them', () => {
  const r = compileRuleSet({
    version: 1,
    thresholds: { review: 20, block_and_review: 50, decline: 90 },
    rules: STARTER_TYPOLOGIES.map((t, i) => ({ ...t.rule, status: i % 4 === 3 ? ('test' as const) : ('active' as const) })),
    aggregates: STARTER_TYPOLOGIES.flatMap((t) => t.aggregates),
  });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const c = r.compiled;
  const guarded = c.rules.filter((x) => x.expression.guards.length > 0).length;
  assert.ok(guarded >= 8, `most starter typologies have a guard (${guarded})`);
  const rnd = seededRandom(13);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  let spared = 0;
  let read = 0;
  for (let i = 0; i < 3000; i++) {
    const amount = pick(['50.00', '999.99', '1000.00', '4999.00', '5000.00', '9000.00', '9500.00', '12000.00', '73000.00']);
    const input: RuleContextInput = {
      tx: tx({
        amount,
        direction: pick(['in', 'out']),
        type: pick(['transfer', 'cash', 'cash_out', 'card']),
        country: pick(['DE', 'IR', 'KP', '']),
      }),
      subject: {
        type: pick(['person', 'business', '']),
        kyc_decision: pick(['approved', 'declined', '']),
        risk_band: pick(['low', 'high', '']),
        relationship_days: pick([0, 20, 400, 1000]),
        pep: rnd() < 0.1,
      },
      counterparty: { reference: pick(['', 'cp_1']), bank_country: pick(['DE', 'IR', '']) },
    };
    const agg: Record<string, AggregateValue> = {};
    for (const p of c.aggregates) {
      const k = p.decl.fn;
      const v = Math.floor(rnd() * 30);
      agg[p.key] = k === 'count' || k === 'count_distinct' ? (rnd() < 0.3 ? 0 : v) : rnd() < 0.2 ? null : `${v * 137}.50`;
    }
    const n = neededAggregates(c, input);
    const some = Object.fromEntries(n.plans.map((p) => [p.key, agg[p.key]!]));
    spared += c.aggregates.length - n.plans.length;
    read += n.plans.length;
    const all = evaluate(c, { ...input, agg });
    const part = evaluate(c, { ...input, agg: some }, { decided: n.decided });
    assert.equal(part.status, all.status, `case ${i}`);
    assert.equal(part.score, all.score, `case ${i}`);
    assert.deepEqual(
      part.outcomes.map((o) => [o.key, o.outcome]),
      all.outcomes.map((o) => [o.key, o.outcome]),
      `case ${i}: ${JSON.stringify(input)}`,
    );
  }
  // The guards spare reads here (the figure depends on the mix; the equality above is the test).
  assert.ok(spared > read / 2, `spared ${spared}, read ${read}`);
});
