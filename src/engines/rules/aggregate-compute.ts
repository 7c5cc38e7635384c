import type { AggregateDecl, TxRow } from './aggregates.js';
import { type AggregatePlan, type AggregateValue, Accumulator, SCALE, finish, planAggregate } from './aggregate-plan.js';

/**
 * Reference computation over given history rows, O(n) per aggregate.
 * Semantics (tested): a row counts when it is in the window (tx.occurred_at − window, tx.occurred_at],
 * has the evaluated transaction's group key, passes direction, currency and filters, and is NOT the
 * evaluated transaction (by id: both sides of an internal transfer are excluded). count counts rows;
 * avg, min, max and stddev (population) are null when no row matches.
 */
export function computeAggregate(plan: AggregatePlan | AggregateDecl, tx: TxRow, rows: Iterable<TxRow>): AggregateValue {
  return accumulate('staticMatch' in plan ? plan : planAggregate(plan), tx, rows).value();
}

/** The rows that count (window, group, filters, not the evaluated transaction); `inWindow: false` skips only the window test. */
function accumulate(p: AggregatePlan, tx: TxRow, rows: Iterable<TxRow>, inWindow = true): Accumulator {
  const acc = new Accumulator(p);
  const key = p.groupKey(tx);
  if (key === null) return acc;
  const from = inWindow ? tx.occurred_at - p.windowMs : -Infinity;
  const to = inWindow ? tx.occurred_at : Infinity;
  for (const row of rows) {
    if (row.id === tx.id || row.occurred_at <= from || row.occurred_at > to) continue;
    if (p.groupKey(row) !== key || !p.staticMatch(row)) continue;
    if (p.dynamicMatch && !p.dynamicMatch(row, tx)) continue;
    acc.add(row);
  }
  return acc;
}

/**
 * Totals of rows summed elsewhere (a daily rollup: row count, sum, sum of squares, smallest and largest
 * amount, as exact decimal text of any length). Amounts are at SCALE, the sum of squares at 2·SCALE.
 */
export interface PresummedTotals {
  n: number;
  total: string;
  sumSq: string;
  min: string | null;
  max: string | null;
}

/**
 * The aggregate over the given rows (as computeAggregate: window, group, filters, the transaction excluded)
 * together with rows already summed elsewhere that match it too (the whole days of a rollup): count, sum,
 * avg, stddev, min and max; the same exact arithmetic and definitions (population stddev) as computeAggregate.
 * `minus`: rows that the totals include but the window does not (the part of a rollup day outside the window),
 * taken out again by the same group and filters (no window test); count, sum, avg and stddev only, since a
 * smallest or largest amount cannot be taken out of a total.
 */
export function computeAggregateWith(
  plan: AggregatePlan,
  tx: TxRow,
  rows: Iterable<TxRow>,
  more: PresummedTotals,
  minus: Iterable<TxRow> = [],
): AggregateValue {
  if (plan.fn === 'count_distinct') throw new Error('count_distinct cannot be combined from totals');
  const a = accumulate(plan, tx, rows);
  const m = accumulate(plan, tx, minus, false);
  if (m.n > 0 && (plan.fn === 'min' || plan.fn === 'max')) throw new Error(`${plan.fn} cannot take rows out of totals`);
  const lo = more.min === null ? null : exactUnits(more.min, SCALE);
  const hi = more.max === null ? null : exactUnits(more.max, SCALE);
  return finish(
    plan.fn,
    a.n + more.n - m.n,
    a.sum + exactUnits(more.total, SCALE) - m.sum,
    plan.fn === 'stddev' ? a.sumSq + exactUnits(more.sumSq, 2 * SCALE) - m.sumSq : 0n,
    lo === null || (a.min !== null && a.min < lo) ? a.min : lo,
    hi === null || (a.max !== null && a.max > hi) ? a.max : hi,
    0,
  );
}

/** Exact decimal text (a database numeric, no length limit) as units of 10^-scale; throws rather than rounding. */
export function exactUnits(text: string, scale: number): bigint {
  const m = /^(-?)([0-9]+)(?:\.([0-9]*))?$/.exec(text);
  if (!m) throw new Error(`not a plain decimal: ${text.slice(0, 40)}`);
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > scale) throw new Error(`more than ${scale} fraction digits: ${text.slice(0, 40)}`);
  const v = BigInt(m[2]! + frac.padEnd(scale, '0'));
  return m[1] ? -v : v;
}

export function computeAggregates(
  decls: readonly (AggregatePlan | AggregateDecl)[],
  tx: TxRow,
  rows: readonly TxRow[],
): Record<string, AggregateValue> {
  const out: Record<string, AggregateValue> = {};
  for (const d of decls) out['staticMatch' in d ? d.key : d.key] = computeAggregate(d, tx, rows);
  return out;
}
