import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { MAX_DERIVED_INDEXES, indexSpec, syncDerivedIndexes, wantedIndexes } from '../../src/modules/transactions/derived-indexes.js';
import { derivedIndexRows } from '../../src/modules/transactions/repository.js';
import type { RuleSet } from '../../src/engines/rules/index.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

const AGGS = [
  { key: 'ix_wallet_7d', fn: 'count', window: '7d', group_by: 'wallet' },
  { key: 'ix_pair_30d', fn: 'sum', field: 'amount', window: '30d', group_by: ['subject', 'counterparty'] },
  { key: 'ix_device_1h', fn: 'count_distinct', field: 'subject', window: '1h', group_by: 'device' },
  { key: 'ix_ip_1h', fn: 'count', window: '1h', group_by: 'ip' },
  { key: 'ix_subject_30d', fn: 'count', window: '30d', group_by: 'subject' },
];

async function publish(o: Tenant, expression: string | null) {
  const start = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json();
  for (const r of start.rules) await t.call('PATCH', `/v1/rules/${r.id}`, { key: o.sandboxKey, body: { status: 'disabled' } });
  const keys = new Set(start.aggregates.map((a: { key: string }) => a.key));
  const d = await t.call('PATCH', '/v1/rules/draft', {
    key: o.sandboxKey,
    body: { aggregates: [...start.aggregates, ...AGGS.filter((a) => !keys.has(a.key))] },
  });
  assert.equal(d.statusCode, 200, d.body);
  if (expression) {
    const r = await t.call('POST', '/v1/rules', {
      key: o.sandboxKey,
      body: { key: 'ix_rule', name: 'ix', expression, score: 10, severity: 'low', status: 'active' },
    });
    assert.equal(r.statusCode, 201, r.body);
  }
  const revision = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json().revision;
  const pub = await t.call('POST', '/v1/rules/publish', { key: await o.keyWith(['rules:publish']), body: { revision } });
  assert.equal(pub.statusCode, 201, pub.body);
}

describe('indexes derived from the published aggregates', () => {
  test('publishing queues the sync; it creates one index per grouping in use (not the unused, rollup or fixed ones), is idempotent, drops what is no longer used', async () => {
    const o = await t.tenant();
    await publish(o, 'agg.ix_wallet_7d > 2 || agg.ix_pair_30d > 1000.0 || agg.ix_device_1h > 3 || agg.ix_subject_30d > 100');
    const jobs = await t.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM jobs WHERE queue = 'transactions.derived_indexes' AND state = 'queued'`,
    );
    assert.equal(Number(jobs[0]!.n), 1, 'publishing queued one index sync');

    const first = await syncDerivedIndexes(t.db);
    assert.deepEqual(first.created.sort(), ['txn_agg_device', 'txn_agg_subject_counterparty', 'txn_agg_wallet']);
    assert.deepEqual(
      (await derivedIndexRows.list(t.db)).map((r) => [r.name, r.valid]),
      [
        ['txn_agg_device', true],
        ['txn_agg_subject_counterparty', true],
        ['txn_agg_wallet', true],
      ],
    );
    const again = await syncDerivedIndexes(t.db);
    assert.deepEqual([again.created, again.dropped, again.kept.length], [[], [], 3], 'a second run changes nothing');

    // The history query of a wallet aggregate can use its index (sequential scans off, so the plan shows it).
    const plan = await t.db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      return tx.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT id FROM transactions WHERE account_id = 'a' AND environment = 'sandbox' AND wallet = 'w'
           AND occurred_at > now() - interval '7 days' AND occurred_at <= now()`,
      );
    });
    assert.match(plan.map((p) => p['QUERY PLAN']).join('\n'), /txn_agg_wallet/);

    // Evaluations group by wallet as before (the index changes the plan, not the values).
    const body = (n: number) => ({
      reference: `ix_${n}_${Math.random().toString(36).slice(2)}`,
      occurred_at: new Date().toISOString(),
      amount: '10.00',
      currency: 'EUR',
      direction: 'out',
      type: 'crypto',
      subject: { reference: `cus_ix_${n}` },
      crypto: { chain: 'ethereum', wallet: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
    });
    let last: { rules: { values_used: Record<string, unknown> }[] } | null = null;
    for (let i = 0; i < 4; i++) last = (await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: body(i) })).json();
    assert.equal(last!.rules[0]!.values_used['agg.ix_wallet_7d'], 3, 'four subjects, one wallet: the fourth sees three');

    await publish(o, null); // no active rule reads the aggregates any more
    const after = await syncDerivedIndexes(t.db);
    assert.deepEqual(after.dropped.sort(), ['txn_agg_device', 'txn_agg_subject_counterparty', 'txn_agg_wallet']);
    assert.deepEqual(await derivedIndexRows.list(t.db), []);
  });

  test('at most MAX_DERIVED_INDEXES, the groupings most rule sets use first; names come from a closed set', () => {
    const dims = ['account', 'wallet', 'device', 'ip'] as const;
    const combos: string[][] = [];
    for (let m = 1; m < 16; m++) combos.push(dims.filter((_, i) => m & (1 << i)));
    const rs = (group: string[], i: number): RuleSet => ({
      version: 1,
      thresholds: { review: 1, block_and_review: 2, decline: 3 },
      aggregates: [{ key: 'a', fn: 'count', window: '1h', group_by: group as never }],
      rules: [
        {
          id: `r${i}`,
          key: 'r',
          version: 1,
          name: 'r',
          description: '',
          expression: 'agg.a > 1',
          score: 1,
          severity: 'low',
          typologies: [],
          status: 'active',
          author: 'x',
        },
      ],
    });
    // ip alone is used by three rule sets, wallet by two: they come first.
    const sets = [...combos.map(rs), rs(['ip'], 90), rs(['ip'], 91), rs(['wallet'], 92)];
    const w = wantedIndexes(sets);
    assert.equal(w.length, MAX_DERIVED_INDEXES);
    assert.deepEqual(
      w.slice(0, 2).map((x) => x.name),
      ['txn_agg_ip', 'txn_agg_wallet'],
    );
    assert.equal(indexSpec(['ip', 'account']).name, 'txn_agg_account_ip', 'dimension order is fixed');
    for (const x of w) assert.match(x.name, /^txn_agg_[a-z_]+$/);
  });
});
