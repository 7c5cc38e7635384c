import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { MAX_DERIVED_INDEXES, indexSpec, syncDerivedIndexes, wantedIndexes } from '../../src/modules/transactions/derived-indexes.js';
import { derivedIndexRows } from '../../src/modules/transactions/repository.js';
import type { Queryable } from '../../src/platform/db.js';
import {
  STARTER_TYPOLOGIES,
  computeAggregate,
  planAggregate,
  type AggregateDecl,
  type RuleSet,
  type TxRow,
} from '../../src/engines/rules/index.js';
import { computeTransactionAggregates } from '../../src/modules/transactions/aggregates.js';
import { transactionRows as txRows } from '../../src/modules/transactions/repository.js';

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

async function publish(o: Tenant, expression: string | null, aggs: readonly object[] = AGGS) {
  const start = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json();
  for (const r of start.rules) await t.call('PATCH', `/v1/rules/${r.id}`, { key: o.sandboxKey, body: { status: 'disabled' } });
  const keys = new Set(start.aggregates.map((a: { key: string }) => a.key));
  const d = await t.call('PATCH', '/v1/rules/draft', {
    key: o.sandboxKey,
    body: { aggregates: [...start.aggregates, ...aggs.filter((a) => !keys.has((a as { key: string }).key))] },
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

/** The aggregates of `tx` and the plan of their read: the statement as sent, prepared, EXPLAINed in q's settings. */
async function aggregatesAndPlan(
  q: Queryable,
  tenant: { accountId: string; environment: 'sandbox' },
  plans: Parameters<typeof computeTransactionAggregates>[2],
  tx: TxRow,
) {
  let sent: { sql: string; params: readonly unknown[] } = { sql: '', params: [] };
  const spy: Queryable = { query: <T>(s: string, p?: readonly unknown[]) => ((sent = { sql: s, params: p ?? [] }), q.query<T>(s, p)) };
  const got = await computeTransactionAggregates(spy, tenant, plans, tx);
  await q.query(`PREPARE agg_read AS ${sent.sql}`);
  const lit = (v: unknown) => `'${String(v).replace(/'/g, "''")}'`;
  const plan = await q.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE agg_read(${sent.params.map(lit).join(', ')})`);
  await q.query('DEALLOCATE agg_read');
  return { got, sql: sent.sql, plan: plan.map((r) => r['QUERY PLAN']).join('\n') };
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

  test("amount equality aggregates: the derived (…, amount, occurred_at) index serves their read in custom and generic plans, with the reference scan's values", async () => {
    const o = await t.tenant();
    const DAY = 86_400_000;
    const now = Date.UTC(2026, 0, 15, 12);
    const AMOUNTS = ['250', '250.00', '99.5', '1000', '12', '250.0', '1000.00'];
    const rows = Array.from({ length: 240 }, (_, i) => ({
      reference: `amt_${i}`,
      occurred_at: new Date(now - ((i * 9_876_541) % (100 * DAY)) - 1).toISOString(),
      amount: AMOUNTS[(i * 5) % AMOUNTS.length],
      currency: 'EUR',
      direction: i % 3 === 0 ? 'out' : 'in',
      type: i % 4 === 0 ? 'cash_out' : 'transfer',
      subject: { reference: i % 13 === 0 ? 'cus_amt_other' : 'cus_amt' },
      counterparty: { reference: `cp_${i % 7}`, ...(i % 5 === 0 ? { balance_after: '0' } : {}) },
    }));
    const imp = await t.call('POST', '/v1/transactions/imports', {
      key: o.sandboxKey,
      body: { format: 'jsonl', data: rows.map((r) => JSON.stringify(r)).join('\n') },
    });
    assert.equal(imp.statusCode, 201, imp.body);
    const on = (field: string, op: string, value: unknown) => ({ field, op, value }) as NonNullable<AggregateDecl['filters']>[number];
    const starter = STARTER_TYPOLOGIES.flatMap((x) => x.aggregates).filter((a) =>
      ['fan_in_same_amount_senders_90d', 'emptying_transfer_in_same_amount_24h'].includes(a.key),
    );
    const aggs: AggregateDecl[] = [
      ...starter,
      {
        key: 'amt_pair_sum_30d',
        fn: 'sum',
        field: 'amount',
        window: '30d',
        group_by: ['subject', 'counterparty'],
        filters: [on('amount', 'eq', { tx: 'amount' })],
      },
      { key: 'amt_1000_60d', fn: 'count', window: '60d', group_by: 'subject', filters: [on('amount', 'eq', '1000')] },
      {
        key: 'amt_same_type_out_30d',
        fn: 'count',
        window: '30d',
        group_by: 'subject',
        direction: 'out',
        filters: [on('amount', 'eq', { tx: 'amount' }), on('type', 'eq', { tx: 'type' })],
      },
      { key: 'amt_plain_7d', fn: 'count_distinct', field: 'counterparty', window: '7d', group_by: 'subject' },
    ];
    await publish(o, aggs.map((a) => `agg.${a.key} > 1000.0`).join(' || '), aggs);
    const sync = await syncDerivedIndexes(t.db);
    assert.deepEqual(sync.created.sort(), ['txn_agg_subject_amount', 'txn_agg_subject_counterparty_amount']);

    const tenant = { accountId: o.accountId, environment: 'sandbox' as const };
    const all = await txRows.history(t.db, tenant, { subject: 'cus_amt' }, now - 400 * DAY, now + DAY);
    const plans = aggs.map(planAggregate);
    let compared = 0;
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      const { sql, plan } = await t.db.transaction(async (q) => {
        await q.query(`SET LOCAL plan_cache_mode = ${mode}`);
        await q.query('SET LOCAL enable_seqscan = off');
        let last = { sql: '', plan: '' };
        for (const [i, base] of all.slice(0, 25).entries())
          for (const at of [now, now - 20 * DAY]) {
            const tx: TxRow = { ...base, id: 'txn_eval', occurred_at: at, direction: i % 2 ? 'in' : 'out' };
            const { got, ...sent } = await aggregatesAndPlan(q, tenant, plans, tx);
            last = sent;
            for (const p of plans) {
              const want = computeAggregate(p, tx, all);
              assert.deepEqual(got[p.key], want, `${mode} ${p.key} for ${JSON.stringify(tx)}`);
              if (want !== null && want !== 0 && want !== '0') compared++;
            }
          }
        return last;
      });
      assert.match(sql, /amount = \$\d+::numeric/, 'the amount equality is a condition of the read');
      assert.doesNotMatch(
        sql,
        / OR /,
        'each filter is a branch of its own, its conditions at the top level (no OR for the generic plan to walk)',
      );
      assert.match(plan, /txn_agg_subject_amount/, `${mode}:\n${plan}`);
      assert.match(plan, /txn_agg_subject_counterparty_amount/, `${mode}:\n${plan}`);
    }
    assert.ok(compared > 100, `non-empty values compared (${compared})`);

    // A heavy subject among thousands of light ones, the shape that made the generic plan of the fan-in and PaySim read
    // (two OR'd amount conditions) walk the subject's whole window on its time index: now one range of the amount index.
    await t.db.query(
      `INSERT INTO transactions (id, account_id, environment, reference, occurred_at, amount, currency, direction, type, subject_reference,
         subject, counterparty_key, source)
       SELECT 'txn_amt' || g, $1, 'sandbox', 'amt_h_' || g, $2::timestamptz - (g % 89) * interval '1 day' - (g % 86400) * interval '1 second',
         (10 + g % 500)::numeric, 'EUR', 'in', 'transfer', CASE WHEN g % 4 = 0 THEN 'cus_heavy' ELSE 'cus_l' || (g % 4000) END, '{}'::jsonb,
         'cp_' || (g % 900), 'import'
       FROM generate_series(1, 24000) g`,
      [o.accountId, new Date(now - 3_600_000).toISOString()],
    );
    await t.db.query('ANALYZE transactions');
    const amountPlans = plans.filter((p) => starter.some((a) => a.key === p.key));
    const generic = await t.db.transaction(async (q) => {
      await q.query('SET LOCAL plan_cache_mode = force_generic_plan');
      const tx: TxRow = {
        id: 'txn_eval',
        occurred_at: now,
        amount: '20',
        currency: 'EUR',
        direction: 'in',
        type: 'transfer',
        subject: 'cus_heavy',
      };
      return (await aggregatesAndPlan(q, tenant, amountPlans, tx)).plan;
    });
    assert.match(generic, /Index Cond: .*subject_reference = \$\d+\) AND \(amount = \$\d+/, generic);
    assert.match(generic, /txn_agg_subject_amount/, generic);

    await publish(o, null);
    assert.deepEqual((await syncDerivedIndexes(t.db)).dropped.sort(), ['txn_agg_subject_amount', 'txn_agg_subject_counterparty_amount']);
  });
});

test("the subject's lock plans the rest of its transaction generically and never in parallel, and nothing outlives the transaction", async () => {
  const o = await t.tenant();
  const tenant = { accountId: o.accountId, environment: 'sandbox' as const };
  const read = (db: Queryable) =>
    db.query<{ mode: string; workers: string }>(
      "SELECT current_setting('plan_cache_mode') AS mode, current_setting('max_parallel_workers_per_gather') AS workers",
    );
  const [outside] = await read(t.db);
  const inside = await t.db.transaction(async (tx) => {
    await txRows.lockSubject(tx, tenant, 'cus_plan');
    return (await read(tx))[0];
  });
  // The custom plans of the aggregate read expected no rows today and ran a Gather of parallel workers: 144 ms
  // against the generic plan's 4 ms at 2,000,000 rows (docs/performance.md).
  assert.deepEqual(inside, { mode: 'force_generic_plan', workers: '0' });
  assert.notEqual(outside!.mode, 'force_generic_plan');
  for (let i = 0; i < 4; i++) assert.deepEqual((await read(t.db))[0], outside, 'SET LOCAL only: the pooled connection is as before');
});
