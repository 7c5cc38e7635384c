import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AggregateDecl, TxRow } from './aggregates.js';
import { validateAggregate } from './aggregates.js';
import { computeAggregate, computeAggregateWith } from './aggregate-compute.js';
import { planAggregate } from './aggregate-plan.js';
import { SlidingAggregates } from './sliding-window.js';
import { seededInts } from '../../../test/helpers/random.js';

const H = 3_600_000;
const D = 24 * H;
const T0 = Date.UTC(2024, 0, 10);
let seq = 0;
function row(o: Partial<TxRow>): TxRow {
  return { id: `t${++seq}`, occurred_at: T0, amount: '100', currency: 'USD', direction: 'in', subject: 'alice', ...o };
}
const count = (o: Partial<AggregateDecl> = {}): AggregateDecl => ({ key: 'c', fn: 'count', window: '30d', group_by: 'subject', ...o });

test('anchor bug 1 (Jube #77): the evaluated transaction is never counted, even when it is in the rows', () => {
  const tx = row({ counterparty: 'bob' });
  assert.equal(computeAggregate(count(), tx, [tx]), 0);
  const other = row({ occurred_at: T0 - H });
  assert.equal(computeAggregate(count(), tx, [tx, other]), 1);
  // Both sides of an internal transfer share the id: the mirror row is excluded as well.
  const mirror = { ...tx, direction: 'out' as const, subject: 'bob', counterparty: 'alice' };
  assert.equal(computeAggregate(count({ group_by: 'counterparty' }), { ...tx, counterparty: 'bob' }, [mirror, other]), 0);
  const sw = new SlidingAggregates([count()]);
  sw.add(other);
  assert.deepEqual(sw.values(tx), { c: 1 });
  sw.add(tx);
  assert.throws(() => sw.values(tx), /already added/);
});

test('anchor bug 2 (Marble #510): count counts rows, not non-null field values', () => {
  const tx = row({});
  const rows = [
    row({ occurred_at: T0 - H }),
    row({ occurred_at: T0 - 2 * H, counterparty: 'x' }),
    row({ occurred_at: T0 - 3 * H, channel: 'web' }),
  ];
  assert.equal(computeAggregate(count(), tx, rows), 3);
  assert.deepEqual(
    validateAggregate(count({ field: 'counterparty' }), 'a').map((e) => e.field),
    ['a.field'],
  );
  assert.equal(
    computeAggregate({ key: 'd', fn: 'count_distinct', field: 'counterparty', window: '30d', group_by: 'subject' }, tx, rows),
    1,
  );
});

test('window is (t − w, t]: the boundary row is out, a later row is out, same-time history is in', () => {
  const tx = row({});
  const rows = [
    row({ occurred_at: T0 - 30 * D }),
    row({ occurred_at: T0 - 30 * D + 1 }),
    row({ occurred_at: T0 }),
    row({ occurred_at: T0 + 1 }),
  ];
  assert.equal(computeAggregate(count(), tx, rows), 2);
  assert.equal(
    computeAggregate(count({ window: '15m' }), tx, [row({ occurred_at: T0 - 14 * 60_000 }), row({ occurred_at: T0 - 16 * 60_000 })]),
    1,
  );
});

test('window, group and field validation name the field', () => {
  const f = (d: Partial<AggregateDecl>) => validateAggregate(count(d), 'aggregates[0]').map((e) => e.field);
  assert.deepEqual(f({ window: '366d' }), ['aggregates[0].window']);
  assert.deepEqual(f({ window: '365d' }), []);
  assert.deepEqual(f({ window: '0m' }), ['aggregates[0].window']);
  assert.deepEqual(f({ window: '30s' }), ['aggregates[0].window']);
  assert.deepEqual(f({ group_by: 'planet' as never }), ['aggregates[0].group_by']);
  assert.deepEqual(f({ fn: 'sum' }), ['aggregates[0].field']);
  assert.deepEqual(f({ fn: 'sum', field: 'counterparty' }), ['aggregates[0].field']);
  assert.deepEqual(f({ filters: [{ field: 'type', op: 'gt', value: 'x' }] }), ['aggregates[0].filters[0].op']);
  assert.deepEqual(f({ filters: [{ field: 'amount', op: 'between', value: ['1', 'x'] }] }), ['aggregates[0].filters[0].value']);
  assert.deepEqual(f({ filters: [{ field: 'amount', op: 'gte', value: '1e3' }] }), ['aggregates[0].filters[0].value']);
  assert.deepEqual(f({ filters: [{ field: 'amount', op: 'eq', value: { tx: 'amount' } }] }), []);
});

test('filters: amount range, type, direction, other subjects, tx references', () => {
  const tx = row({ amount: '500', counterparty: 'bob' });
  const rows = [
    row({ occurred_at: T0 - H, amount: '150', counterparty: 'c1', type: 'wire' }),
    row({ occurred_at: T0 - H, amount: '250', counterparty: 'c2', type: 'card' }),
    row({ occurred_at: T0 - H, amount: '250.01', counterparty: 'c3', type: 'wire' }),
    row({ occurred_at: T0 - H, amount: '500', counterparty: 'bob' }),
    row({ occurred_at: T0 - H, amount: '500', counterparty: 'c4' }),
    row({ occurred_at: T0 - H, amount: '200', counterparty: 'c5', direction: 'out' }),
    row({ occurred_at: T0 - H, amount: '200', counterparty: 'c6', subject: 'carol' }),
  ];
  const distinct = (filters: AggregateDecl['filters']) =>
    computeAggregate(
      { key: 'd', fn: 'count_distinct', field: 'counterparty', window: '30d', group_by: 'subject', direction: 'in', filters },
      tx,
      rows,
    );
  assert.equal(distinct([]), 5);
  assert.equal(distinct([{ field: 'amount', op: 'between', value: ['150', '250'] }]), 2);
  assert.equal(distinct([{ field: 'type', op: 'in', value: ['wire'] }]), 2);
  assert.equal(distinct([{ field: 'amount', op: 'eq', value: { tx: 'amount' } }]), 2);
  assert.equal(
    distinct([
      { field: 'amount', op: 'eq', value: { tx: 'amount' } },
      { field: 'counterparty', op: 'ne', value: { tx: 'counterparty' } },
    ]),
    1,
  );
  assert.equal(distinct([{ field: 'amount', op: 'multiple_of', value: '250' }]), 3);
});

test('sums of many small amounts are exact; avg, min, max, population stddev', () => {
  const tx = row({});
  const rows = Array.from({ length: 1000 }, (_, i) => row({ occurred_at: T0 - 1000 + i, amount: '0.01' }));
  assert.equal(computeAggregate({ key: 's', fn: 'sum', field: 'amount', window: '1d', group_by: 'subject' }, tx, rows), '10');
  const three = ['2', '4', '4', '4', '5', '5', '7', '9'].map((a, i) => row({ occurred_at: T0 - 10 - i, amount: a }));
  const v = (fn: AggregateDecl['fn']) => computeAggregate({ key: 'x', fn, field: 'amount', window: '1d', group_by: 'subject' }, tx, three);
  assert.equal(v('avg'), '5');
  assert.equal(v('stddev'), '2'); // the textbook population example
  assert.equal(v('min'), '2');
  assert.equal(v('max'), '9');
  assert.equal(computeAggregate({ key: 'x', fn: 'avg', field: 'amount', window: '1d', group_by: 'subject' }, tx, []), null);
  // Rows in another currency do not enter an amount aggregate.
  assert.equal(
    computeAggregate({ key: 's', fn: 'sum', field: 'amount', window: '1d', group_by: 'subject' }, tx, [
      row({ occurred_at: T0 - 1, currency: 'EUR' }),
    ]),
    '0',
  );
});

test('sliding window replay equals the reference computation on random histories', () => {
  const decls: AggregateDecl[] = [
    { key: 'n', fn: 'count', window: '2h', group_by: 'subject', direction: 'in' },
    { key: 's', fn: 'sum', field: 'amount', window: '3h', group_by: 'subject' },
    { key: 'a', fn: 'avg', field: 'amount', window: '3h', group_by: 'subject', direction: 'out' },
    { key: 'lo', fn: 'min', field: 'amount', window: '90m', group_by: 'subject' },
    { key: 'hi', fn: 'max', field: 'amount', window: '90m', group_by: ['subject', 'counterparty'] },
    { key: 'sd', fn: 'stddev', field: 'amount', window: '5h', group_by: 'subject' },
    {
      key: 'cd',
      fn: 'count_distinct',
      field: 'counterparty',
      window: '4h',
      group_by: 'subject',
      filters: [{ field: 'amount', op: 'between', value: ['10', '60.5'] }],
    },
    // An amount function in the transaction's currency (part of the window's group key) with a filter on the
    // evaluated transaction (checked row by row).
    {
      key: 'ge',
      fn: 'sum',
      field: 'amount',
      window: '3h',
      group_by: 'subject',
      filters: [{ field: 'amount', op: 'gte', value: { tx: 'amount' } }],
    },
    {
      key: 'gea',
      fn: 'max',
      field: 'amount',
      window: '2h',
      group_by: 'counterparty',
      filters: [{ field: 'amount', op: 'lt', value: { tx: 'amount' } }],
    },
    {
      key: 'same',
      fn: 'count_distinct',
      field: 'counterparty',
      window: '6h',
      group_by: 'subject',
      filters: [{ field: 'amount', op: 'eq', value: { tx: 'amount' } }],
    },
  ];
  const rnd = seededInts(12345);
  const sw = new SlidingAggregates(decls);
  const history: TxRow[] = [];
  let t = T0;
  for (let i = 0; i < 600; i++) {
    t += rnd(4) * 10 * 60_000;
    const tx: TxRow = {
      id: `r${i}`,
      occurred_at: t,
      amount: `${rnd(80)}.${rnd(100)}`,
      currency: rnd(10) ? 'USD' : 'EUR',
      direction: rnd(2) ? 'in' : 'out',
      subject: `s${rnd(3)}`,
      counterparty: `c${rnd(6)}`,
    };
    const got = sw.values(tx);
    for (const d of decls) assert.deepEqual(got[d.key], computeAggregate(d, tx, history), `${d.key} at ${i}`);
    sw.add(tx);
    history.push(tx);
  }
});

test('a window indexed by an eq filter on the evaluated transaction equals the reference computation past compaction', () => {
  // One group, a 1-hour window over 6,000 rows: thousands of evictions (the window compacts several times),
  // few distinct amounts written several ways ("5", "5.0", "5.00" are one key), a counterparty filter on top.
  const decls: AggregateDecl[] = [
    {
      key: 'same',
      fn: 'count_distinct',
      field: 'counterparty',
      window: '1h',
      group_by: 'subject',
      direction: 'in',
      filters: [
        { field: 'amount', op: 'eq', value: { tx: 'amount' } },
        { field: 'counterparty', op: 'ne', value: { tx: 'counterparty' } },
      ],
    },
    {
      key: 'sum_same',
      fn: 'sum',
      field: 'amount',
      window: '30m',
      group_by: 'subject',
      filters: [{ field: 'amount', op: 'eq', value: { tx: 'amount' } }],
    },
    {
      key: 'same_cp',
      fn: 'count',
      window: '2h',
      group_by: 'subject',
      filters: [{ field: 'counterparty', op: 'eq', value: { tx: 'counterparty' } }],
    },
  ];
  const rnd = seededInts(777);
  const sw = new SlidingAggregates(decls);
  const history: TxRow[] = [];
  const spellings = ['5', '5.0', '5.00', '7.5', '7.50', '12'];
  let t = T0;
  for (let i = 0; i < 6000; i++) {
    t += rnd(3) * 30_000;
    const tx: TxRow = {
      id: `k${i}`,
      occurred_at: t,
      amount: spellings[rnd(spellings.length)]!,
      currency: 'EUR',
      direction: rnd(2) ? 'in' : 'out',
      subject: 's',
      counterparty: `c${rnd(8)}`,
    };
    const got = sw.values(tx);
    if (i % 7 === 0 || i > 5900) for (const d of decls) assert.deepEqual(got[d.key], computeAggregate(d, tx, history), `${d.key} at ${i}`);
    sw.add(tx);
    history.push(tx);
  }
});

test('a ne filter on the evaluated transaction is answered from the window totals minus its key buckets: same values, far fewer rows read', () => {
  // fan_out's aggregate and the other functions a ne filter can be subtracted from; some rows lack the compared
  // field (they never match ne), some transactions too (nothing matches then); amounts written several ways.
  const ne = (field: 'counterparty' | 'amount') => [{ field, op: 'ne' as const, value: { tx: field } }];
  const decls: AggregateDecl[] = [
    {
      key: 'fan_out',
      fn: 'count_distinct',
      field: 'counterparty',
      window: '24h',
      group_by: 'subject',
      direction: 'out',
      filters: ne('counterparty'),
    },
    { key: 'n', fn: 'count', window: '12h', group_by: 'subject', filters: ne('counterparty') },
    { key: 'sum', fn: 'sum', field: 'amount', window: '6h', group_by: 'subject', filters: ne('counterparty') },
    { key: 'avg', fn: 'avg', field: 'amount', window: '6h', group_by: 'subject', filters: ne('amount') },
    { key: 'sd', fn: 'stddev', field: 'amount', window: '3h', group_by: 'subject', filters: ne('amount') },
    { key: 'cps', fn: 'count_distinct', field: 'counterparty', window: '24h', group_by: 'subject', filters: ne('amount') },
  ];
  const run = (withIndex: boolean) => {
    const rnd = seededInts(4242);
    const sw = new SlidingAggregates(withIndex ? decls : decls.map((d) => ({ ...d })));
    if (!withIndex) for (const p of (sw as unknown as { plans: { windowExclude: unknown }[] }).plans) p.windowExclude = null;
    const history: TxRow[] = [];
    const values: unknown[] = [];
    let t = T0;
    for (let i = 0; i < 3000; i++) {
      t += rnd(4) * 60_000;
      const tx: TxRow = {
        id: `n${i}`,
        occurred_at: t,
        amount: `${rnd(150)}.${rnd(2) ? '5' : '50'}`, // one value, two spellings
        currency: 'EUR',
        direction: rnd(3) ? 'out' : 'in',
        subject: 'heavy',
      };
      if (rnd(20)) tx.counterparty = `c${rnd(60)}`;
      const got = sw.values(tx);
      values.push(got);
      if (withIndex && (i % 29 === 0 || i > 2970))
        for (const d of decls) assert.deepEqual(got[d.key], computeAggregate(d, tx, history), `${d.key} at ${i}`);
      sw.add(tx);
      history.push(tx);
    }
    return { values, rows: sw.stats.rowsExamined };
  };
  const indexed = run(true);
  const scanned = run(false);
  assert.deepEqual(indexed.values, scanned.values, 'identical to the window scan, every evaluation');
  assert.ok(indexed.rows * 5 < scanned.rows, `rows read: ${indexed.rows} with the buckets, ${scanned.rows} scanning`);
});

test('the sliding window refuses rows or transactions out of time order', () => {
  const sw = new SlidingAggregates([count()]);
  sw.add(row({ occurred_at: T0 }));
  assert.throws(() => sw.add(row({ occurred_at: T0 - 1 })), /time order/);
  assert.throws(() => sw.values(row({ occurred_at: T0 - 1 })), /time order/);
  assert.deepEqual(sw.values(row({ occurred_at: T0 })), { c: 1 });
});

test("a transaction without the group dimension gets an empty aggregate, not everyone's history", () => {
  const rows = [row({ occurred_at: T0 - H, device: 'd1' }), row({ occurred_at: T0 - H })];
  assert.equal(computeAggregate(count({ group_by: 'device' }), row({}), rows), 0);
  assert.equal(computeAggregate(count({ group_by: 'device' }), row({ device: 'd1' }), rows), 1);
});

test('totals minus the rows outside the window equal the reference computation; min and max refuse to subtract', () => {
  const tx = row({ occurred_at: T0 + 20 * H, amount: '1' });
  const rows = [
    row({ occurred_at: T0 + 2 * H, amount: '10.5' }),
    row({ occurred_at: T0 + 19 * H, amount: '3', currency: 'EUR' }),
    row({ occurred_at: T0 + 21 * H, amount: '7.25' }), // after t: in the day's totals, not in the window
    row({ occurred_at: T0 + 22 * H, amount: '900', subject: 'bob' }), // another subject: never in alice's totals
  ];
  const alice = rows.filter((r) => r.subject === 'alice');
  const presum = (rs: TxRow[]) => ({
    n: rs.length,
    total: String(rs.reduce((a, r) => a + Number(r.amount), 0)),
    sumSq: String(rs.reduce((a, r) => a + Number(r.amount) ** 2, 0)),
    min: null,
    max: null,
  });
  for (const fn of ['count', 'sum', 'avg', 'stddev'] as const) {
    const plan = planAggregate({
      key: fn,
      fn,
      window: '1d',
      group_by: 'subject',
      ...(fn === 'count' ? {} : { field: 'amount', currency: 'USD' }),
    });
    const usd = fn === 'count' ? alice : alice.filter((r) => r.currency === 'USD');
    // The day's totals (what a rollup of alice's day holds) minus the rows after t; the bob row is offered and ignored.
    const got = computeAggregateWith(plan, tx, [], presum(usd), rows.slice(2));
    assert.deepEqual(got, computeAggregate(plan, tx, rows), fn);
  }
  const max = planAggregate({ key: 'mx', fn: 'max', field: 'amount', window: '1d', group_by: 'subject' });
  assert.throws(() => computeAggregateWith(max, tx, [], presum(alice), [rows[2]!]), /cannot take rows out/);
});
