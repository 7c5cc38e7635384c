import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { STARTER_TYPOLOGIES, computeAggregate, planAggregate, type AggregateDecl, type TxRow } from '../../src/engines/rules/index.js';
import { computeTransactionAggregates, rowFields, usesRollup } from '../../src/modules/transactions/aggregates.js';
import { rowConditions } from '../../src/modules/transactions/aggregate-pushdown.js';
import { transactionRows } from '../../src/modules/transactions/repository.js';
import type { Queryable } from '../../src/platform/db.js';

// The daily rollup (count, sum, sum of squares, min, max per subject, day, direction and currency) against the
// raw rows: every whole-day aggregate it serves must give the value the reference scan gives over the same history,
// at window edges (midnight exactly, a millisecond either side), per direction and currency, on both databases.

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

const DAY = 86_400_000;
const HOUR = 3_600_000;
const M = Date.UTC(2025, 2, 20); // a midnight
const AMOUNTS = ['0.1', '12.34', '1000', '999999.99', '0.01', '5000.00', '7.5', '250', '3.14', '88', '9000', '250.0', '8500.5'];
const SUBJECT = 'cus_r';

const call = (o: Tenant, method: 'GET' | 'POST', url: string, body?: unknown) => t.call(method, url, { key: o.sandboxKey, body });

/** History of SUBJECT over the 35 days before M and the day after: both directions, EUR and USD, some at midnight exactly. */
function history(): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < 160; i++) {
    const at = i % 9 === 0 ? M - (i % 36) * DAY : M - 35 * DAY + ((i * 7_919_993) % (36 * DAY));
    rows.push({
      reference: `r_${i}`,
      occurred_at: new Date(at).toISOString(),
      amount: AMOUNTS[(i * 7) % AMOUNTS.length],
      currency: i % 5 === 0 ? 'USD' : 'EUR',
      direction: i % 3 === 0 ? 'in' : 'out',
      type: ['cash', 'transfer', 'card', 'cash_out'][i % 4],
      channel: i % 6 === 0 ? 'atm' : 'web',
      subject: { reference: i % 11 === 0 ? 'cus_other' : SUBJECT },
      counterparty: { reference: `cp_${i % 4}`, bank_country: i % 7 === 0 ? 'FR' : 'DE', ...(i % 8 === 0 ? { balance_after: '0' } : {}) },
    });
  }
  return rows;
}

const decls = (): AggregateDecl[] => {
  const out: AggregateDecl[] = [];
  for (const window of ['1d', '2d', '7d', '30d'])
    for (const direction of ['in', 'out', undefined] as const) {
      const base = { window, group_by: 'subject' as const, ...(direction ? { direction } : {}) };
      const k = `${window}_${direction ?? 'any'}`;
      out.push({ key: `count_${k}`, fn: 'count', ...base });
      out.push({ key: `count_same_${k}`, fn: 'count', ...base, filters: [{ field: 'currency', op: 'eq', value: { tx: 'currency' } }] });
      out.push({ key: `count_usd_${k}`, fn: 'count', ...base, filters: [{ field: 'currency', op: 'eq', value: 'USD' }] });
      for (const fn of ['sum', 'avg', 'stddev', 'min', 'max'] as const) {
        out.push({ key: `${fn}_${k}`, fn, field: 'amount', ...base });
        out.push({ key: `${fn}_eur_${k}`, fn, field: 'amount', currency: 'EUR', ...base });
      }
    }
  return out;
};

describe('daily rollup: sums, sums of squares, min and max agree with the raw rows', () => {
  test('count, sum, avg, stddev, min, max over whole days equal the reference scan at window edges, per direction and currency', async () => {
    const o = await t.tenant();
    const rows = history();
    // Most rows by import (addManyToRollup), the rest live (addToRollup: upserts onto imported days).
    const res = await call(o, 'POST', '/v1/transactions/imports', {
      format: 'jsonl',
      data: rows
        .slice(0, 120)
        .map((r) => JSON.stringify(r))
        .join('\n'),
    });
    assert.equal(res.statusCode, 201, res.body);
    for (const r of rows.slice(120)) {
      const p = await call(o, 'POST', '/v1/transactions', r);
      assert.equal(p.statusCode, 201, p.body);
    }
    const plans = decls().map(planAggregate);
    for (const p of plans) assert.ok(usesRollup(p), `${p.key} reads the rollup`);
    const tenant = { accountId: o.accountId, environment: 'sandbox' as const };
    const all = await transactionRows.history(t.db, tenant, { subject: SUBJECT }, M - 60 * DAY, M + 2 * DAY);
    assert.equal(all.length, rows.filter((r) => (r.subject as { reference: string }).reference === SUBJECT).length);
    let compared = 0;
    let stddevs = 0;
    // Two moments where a partial day is read as the whole day's totals minus rows that are really there: just before
    // a row late in its day (today's rows after t are taken out), and 7 days and 1 ms after a row early in its day
    // (the 7-day window's first day: its rows at or before lo are taken out).
    const inDay = (r: TxRow) => r.occurred_at % DAY;
    const late = all.find((r) => inDay(r) > DAY / 2 + HOUR)!;
    const early = all.find((r) => inDay(r) > HOUR && inDay(r) < DAY / 2 - HOUR)!;
    const times = [M, M + 1, M - 1, M + 13 * HOUR, M + DAY - 1, M - 3 * DAY, late.occurred_at - 1, early.occurred_at + 7 * DAY + 1];
    for (const at of times)
      for (const currency of ['EUR', 'USD']) {
        const tx: TxRow = { id: 'txn_eval', occurred_at: at, amount: '1', currency, direction: 'out', subject: SUBJECT };
        const sent: string[] = [];
        const spy: Queryable = { query: <T>(sql: string, params?: readonly unknown[]) => (sent.push(sql), t.db.query<T>(sql, params)) };
        const got = await computeTransactionAggregates(spy, tenant, plans, tx);
        // One statement. Today's raw rows are read once for every window, each of the four windows reads its own first
        // partial day: five raw branches, up to ten where min and max (always rows inside the window) and the other
        // functions (rows outside, taken from the day's totals, when fewer) read a partial day differently.
        const branches = sent[0]!.match(/FROM transactions /g)?.length ?? 0;
        assert.ok(sent.length === 1 && branches >= 5 && branches <= 10, `${sent.length} statements, ${branches} raw branches`);
        for (const p of plans) {
          const want = computeAggregate(p, tx, all);
          assert.deepEqual(got[p.key], want, `${p.key} at ${new Date(at).toISOString()} in ${currency}`);
          compared++;
          if (p.fn === 'stddev' && want !== null && want !== '0') stddevs++;
        }
      }
    assert.equal(compared, times.length * 2 * plans.length);
    assert.ok(stddevs > 50, `non-trivial stddevs compared (${stddevs})`);
  });

  test('filtered aggregates read raw rows with their conditions in SQL and still equal the reference scan', async () => {
    const o = await t.tenant();
    const rows = history().map((r) => ({ ...r, reference: `f_${r.reference as string}` }));
    const res = await call(o, 'POST', '/v1/transactions/imports', { format: 'jsonl', data: rows.map((r) => JSON.stringify(r)).join('\n') });
    assert.equal(res.statusCode, 201, res.body);
    const starter = STARTER_TYPOLOGIES.flatMap((x) => x.aggregates);
    const bySubject = (key: string, fn: AggregateDecl['fn'], window: string, o: Partial<AggregateDecl>): AggregateDecl => ({
      key,
      fn,
      window,
      group_by: 'subject',
      ...(fn === 'count' ? {} : { field: 'amount' }),
      ...o,
    });
    const on = (field: string, op: string, value: unknown) => ({ field, op, value }) as NonNullable<AggregateDecl['filters']>[number];
    const extra: AggregateDecl[] = [
      bySubject('between', 'sum', '12d', { filters: [on('amount', 'between', ['7.5', '1000'])] }),
      bySubject('same_amount', 'count', '30d', { filters: [on('amount', 'eq', { tx: 'amount' })] }),
      bySubject('bigger', 'max', '20d', { direction: 'in', filters: [on('amount', 'gt', { tx: 'amount' })] }),
      bySubject('usd_min', 'min', '30d', { currency: 'USD', filters: [on('type', 'eq', { tx: 'type' })] }),
      bySubject('same_type_sd', 'stddev', '30d', { filters: [on('type', 'eq', { tx: 'type' })] }),
      bySubject('atm_avg', 'avg', '9d', { filters: [on('channel', 'eq', 'atm'), on('amount', 'lte', '5000')] }),
      bySubject('two_currencies', 'sum', '30d', { currency: 'USD', filters: [on('currency', 'eq', { tx: 'currency' })] }),
      bySubject('no_type', 'count', '30d', { filters: [on('type', 'eq', { tx: 'type' })] }),
    ];
    const plans = [...starter, ...extra].map(planAggregate);
    const fanIn = plans.find((p) => p.key === 'fan_in_same_amount_senders_90d')!;
    const tx0: TxRow = { id: 'x', occurred_at: M, amount: '250.00', currency: 'EUR', direction: 'in', subject: SUBJECT };
    assert.deepEqual(rowConditions(fanIn, tx0), [
      { column: 'amount', op: 'eq', value: '250.00' },
      { column: 'direction', op: 'eq', value: 'in' },
    ]);
    assert.deepEqual(
      rowConditions(
        plans.find((p) => p.key === 'two_currencies')!,
        tx0,
      ).map((c) => c.value),
      ['USD', 'EUR'],
      'both currency conditions kept (no rows), whatever the values',
    );
    const tenant = { accountId: o.accountId, environment: 'sandbox' as const };
    const all = await transactionRows.history(t.db, tenant, { subject: SUBJECT }, M - 400 * DAY, M + 2 * DAY);
    // The conditions do cut the rows read (the point of carrying them): only this amount, by value, in this direction.
    const [read] = await transactionRows.readMany(t.db, tenant, [
      {
        kind: 'history',
        dims: { subject: SUBJECT },
        fromMs: M - 400 * DAY,
        toMs: M + 2 * DAY,
        any: [{ fromMs: M - 400 * DAY, where: rowConditions(fanIn, tx0) }],
      },
    ]);
    const want = all.filter((r) => Number(r.amount) === 250 && r.direction === 'in');
    assert.ok(want.some((r) => r.amount === '250') && want.some((r) => r.amount === '250.0'));
    assert.deepEqual((read as TxRow[]).map((r) => r.id).sort(), want.map((r) => r.id).sort());
    let nonEmpty = 0;
    for (const at of [M, M + 13 * HOUR, M - 3 * DAY])
      for (const amount of ['250', '250.00', '9000.00', '0.10', '12'])
        for (const [currency, direction, type] of [
          ['EUR', 'in', 'cash'],
          ['USD', 'out', 'transfer'],
          ['EUR', 'out', undefined],
        ] as const) {
          const tx: TxRow = {
            id: 'txn_eval',
            occurred_at: at,
            amount,
            currency,
            direction,
            subject: SUBJECT,
            counterparty: 'cp_1',
            ...(type ? { type } : {}),
          };
          const got = await computeTransactionAggregates(t.db, tenant, plans, tx);
          for (const p of plans) {
            const want = computeAggregate(p, tx, all);
            assert.deepEqual(got[p.key], want, `${p.key} at ${new Date(at).toISOString()}, ${amount} ${currency} ${direction} ${type}`);
            if (want !== null && want !== 0 && want !== '0') nonEmpty++;
          }
        }
    assert.ok(nonEmpty > 300, `non-empty values compared (${nonEmpty})`);
  });

  test('raw reads return only the fields the aggregates look at, and every aggregate still equals the reference scan', async () => {
    const o = await t.tenant();
    const tenant = { accountId: o.accountId, environment: 'sandbox' as const };
    // Every field a history row has, set on some rows and not on others: a field the read left out would make
    // the rows that have it look like rows without it.
    const rows = history().map((r, i) => ({
      ...r,
      reference: `w_${r.reference as string}`,
      ...(i % 3 ? { account: `acc_${i % 2}`, device: `dev_${i % 3}` } : {}),
      ...(i % 4 ? { ip: `10.0.0.${i % 2}` } : {}),
      ...(i % 5 ? { crypto: { chain: 'bitcoin', wallet: `bc1q${i % 2}` } } : {}),
      counterparty: { ...(r.counterparty as object), ...(i % 6 === 1 ? { balance_after: '12.50' } : {}) },
    }));
    const res = await call(o, 'POST', '/v1/transactions/imports', { format: 'jsonl', data: rows.map((r) => JSON.stringify(r)).join('\n') });
    assert.equal(res.statusCode, 201, res.body);
    const on = (field: string, op: string, value: unknown) => ({ field, op, value }) as NonNullable<AggregateDecl['filters']>[number];
    const decl = (key: string, o: Partial<AggregateDecl>): AggregateDecl => ({
      key,
      fn: 'count',
      window: '30d',
      group_by: 'subject',
      ...o,
    });
    const fields = ['subject', 'counterparty', 'account', 'wallet', 'device', 'ip', 'type', 'channel', 'country', 'currency'] as const;
    const decls: AggregateDecl[] = [
      ...fields.map((f) => decl(`distinct_${f}`, { fn: 'count_distinct', field: f })),
      ...fields.map((f) => decl(`same_${f}`, { filters: [on(f, 'eq', { tx: f })] })),
      ...fields.map((f) => decl(`other_${f}`, { filters: [on(f, 'ne', { tx: f })] })),
      decl('drained', { filters: [on('counterparty_balance_after', 'eq', '0')] }),
      decl('balance_sum', { fn: 'sum', field: 'counterparty_balance_after' }),
      decl('by_device', { group_by: 'device' }),
      decl('by_account_ip', { fn: 'count_distinct', field: 'wallet', group_by: ['account', 'ip'] }),
      decl('by_wallet_out', { fn: 'max', field: 'amount', group_by: 'wallet', direction: 'out' }),
      decl('by_counterparty', { fn: 'count_distinct', field: 'device', group_by: ['subject', 'counterparty'] }),
    ];
    const plans = decls.map(planAggregate);
    // A count over a subject's rows needs no field at all; the starter set needs five.
    assert.deepEqual(rowFields([planAggregate(decl('plain', {}))]), []);
    assert.deepEqual(rowFields(STARTER_TYPOLOGIES.flatMap((x) => x.aggregates).map(planAggregate)), [
      'currency',
      'direction',
      'type',
      'counterparty',
      'counterparty_balance_after',
    ]);
    const all = await transactionRows.history(t.db, tenant, { subject: SUBJECT }, M - 400 * DAY, M + 2 * DAY);
    const everyone = [...all, ...(await transactionRows.history(t.db, tenant, { subject: 'cus_other' }, M - 400 * DAY, M + 2 * DAY))];
    let nonEmpty = 0;
    for (const at of [M, M + 13 * HOUR])
      for (const [i, base] of all.slice(0, 12).entries()) {
        const tx: TxRow = { ...base, id: 'txn_eval', occurred_at: at, ...(i % 2 ? { counterparty_balance_after: '0' } : {}) };
        const got = await computeTransactionAggregates(t.db, tenant, plans, tx);
        for (const p of plans) {
          const want = computeAggregate(p, tx, everyone);
          assert.deepEqual(got[p.key], want, `${p.key} for ${JSON.stringify(tx)}`);
          if (want !== null && want !== 0 && want !== '0') nonEmpty++;
        }
      }
    assert.ok(nonEmpty > 300, `non-empty values compared (${nonEmpty})`);
  });

  test("migration 0041's backfill writes the sums of squares, min and max that the write paths maintain", async () => {
    const o = await t.tenant();
    const rows = history().map((r) => ({ ...r, reference: `b_${r.reference as string}` }));
    await call(o, 'POST', '/v1/transactions/imports', {
      format: 'jsonl',
      data: rows
        .slice(0, 100)
        .map((r) => JSON.stringify(r))
        .join('\n'),
    });
    for (const r of rows.slice(100, 130)) assert.equal((await call(o, 'POST', '/v1/transactions', r)).statusCode, 201);
    const read = () =>
      t.db.query<Record<string, string>>(
        `SELECT subject_reference, day::text AS day, direction, currency, n::text AS n, total::text AS total, sum_sq::text AS sum_sq,
           min_amount::text AS lo, max_amount::text AS hi FROM transaction_daily WHERE account_id = $1 ORDER BY 1, 2, 3, 4`,
        [o.accountId],
      );
    const maintained = await read();
    assert.ok(maintained.length > 20);
    await t.db.query('UPDATE transaction_daily SET sum_sq = 0, min_amount = 0, max_amount = 0 WHERE account_id = $1', [o.accountId]);
    const sql = readFileSync(new URL('../../migrations/0041_rollup_moments.sql', import.meta.url), 'utf8');
    const backfill = sql.split(';').find((s) => s.includes('UPDATE transaction_daily'))!;
    await t.db.query(backfill);
    // Exact values: '250' and '250.0' are one value, and which of them is a day's min may differ by path.
    const exact = (x: Record<string, string>) =>
      Object.fromEntries(Object.entries(x).map(([k, v]) => [k, /^[0-9]+\.[0-9]*$/.test(v) ? v.replace(/\.?0+$/, '') : v]));
    assert.deepEqual((await read()).map(exact), maintained.map(exact));
    assert.ok(maintained.some((r) => r.sum_sq!.length > 4 && r.lo !== r.hi));
  });
});
