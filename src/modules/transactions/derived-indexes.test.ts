import { test } from 'node:test';
import assert from 'node:assert/strict';
import { starterRuleSet, type AggregateDecl, type RuleSet } from '../../engines/rules/index.js';
import { indexSpec, wantedIndexes } from './derived-indexes.js';

const on = (field: string, op: string, value: unknown) => ({ field, op, value }) as NonNullable<AggregateDecl['filters']>[number];

/** A published rule set whose one active rule reads every aggregate given. */
function ruleSet(aggregates: AggregateDecl[]): RuleSet {
  return {
    version: 1,
    thresholds: { review: 1, block_and_review: 2, decline: 3 },
    aggregates,
    rules: [
      {
        id: 'rul_1',
        key: 'r',
        version: 1,
        name: 'r',
        description: '',
        expression: aggregates.map((a) => `agg.${a.key} > 1`).join(' || '),
        score: 1,
        severity: 'low',
        typologies: [],
        status: 'active',
        author: 'x',
      },
    ],
  };
}
const names = (aggs: AggregateDecl[]) => wantedIndexes([ruleSet(aggs)]).map((s) => s.name);
const agg = (key: string, o: Partial<AggregateDecl>): AggregateDecl => ({ key, fn: 'count', window: '30d', group_by: 'subject', ...o });

test('an amount equality filter derives (…, group, amount, occurred_at), subject included; other amount filters do not', () => {
  const spec = indexSpec(['subject'], true);
  assert.equal(spec.name, 'txn_agg_subject_amount');
  assert.equal(
    spec.sql.createConcurrently,
    'CREATE INDEX CONCURRENTLY IF NOT EXISTS txn_agg_subject_amount ON transactions (account_id, environment, subject_reference, amount, occurred_at) WHERE subject_reference IS NOT NULL',
  );
  assert.equal(indexSpec(['ip', 'account'], true).name, 'txn_agg_account_ip_amount', 'dimension order is fixed, amount last');

  assert.deepEqual(names([agg('same', { filters: [on('amount', 'eq', { tx: 'amount' })] })]), ['txn_agg_subject_amount']);
  assert.deepEqual(names([agg('lit', { filters: [on('amount', 'eq', '100.00')] })]), ['txn_agg_subject_amount'], 'a literal amount too');
  assert.deepEqual(
    names([
      agg('pair', { fn: 'sum', field: 'amount', group_by: ['counterparty', 'subject'], filters: [on('amount', 'eq', { tx: 'amount' })] }),
    ]),
    ['txn_agg_subject_counterparty_amount'],
  );
  // Plain subject reads keep the fixed index; ranges, between and ne are not one amount.
  for (const f of [
    on('amount', 'gte', '10'),
    on('amount', 'between', ['1', '2']),
    on('amount', 'ne', { tx: 'amount' }),
    on('type', 'eq', 'cash'),
  ])
    assert.deepEqual(names([agg('x', { filters: [f] })]), [], JSON.stringify(f));
  // A device grouping with and without an amount equality: both indexes, each used by its own read.
  assert.deepEqual(
    names([agg('a', { group_by: 'device' }), agg('b', { group_by: 'device', filters: [on('amount', 'eq', { tx: 'amount' })] })]),
    ['txn_agg_device', 'txn_agg_device_amount'],
  );
  // Only aggregates an evaluated rule reads count: a draft-only fan-in derives nothing.
  const unused = ruleSet([agg('same', { filters: [on('amount', 'eq', { tx: 'amount' })] }), agg('plain', { group_by: 'ip' })]);
  unused.rules[0]!.expression = 'agg.plain > 1';
  assert.deepEqual(
    wantedIndexes([unused]).map((s) => s.name),
    ['txn_agg_ip'],
  );
});

test('the starter library (all rules on) derives the fan-in and PaySim amount index', () => {
  const rs = starterRuleSet();
  rs.rules = rs.rules.map((r) => ({ ...r, status: 'active' as const }));
  assert.deepEqual(
    wantedIndexes([rs]).map((s) => s.name),
    ['txn_agg_subject_amount', 'txn_agg_subject_counterparty'],
  );
  const drafts = starterRuleSet(); // drafts are not evaluated
  assert.deepEqual(wantedIndexes([drafts]), []);
});
