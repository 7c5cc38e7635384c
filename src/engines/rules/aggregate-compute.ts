import type { AggregateDecl, TxRow } from './aggregates.js';
import { type AggregatePlan, type AggregateValue, Accumulator, planAggregate } from './aggregate-plan.js';

/**
 * Reference computation over given history rows, O(n) per aggregate.
 * Semantics (tested): a row counts when it is in the window (tx.occurred_at − window, tx.occurred_at],
 * has the evaluated transaction's group key, passes direction, currency and filters, and is NOT the
 * evaluated transaction (by id: both sides of an internal transfer are excluded). count counts rows;
 * avg, min, max and stddev (population) are null when no row matches.
 */
export function computeAggregate(plan: AggregatePlan | AggregateDecl, tx: TxRow, rows: Iterable<TxRow>): AggregateValue {
  const p = 'staticMatch' in plan ? plan : planAggregate(plan);
  const acc = new Accumulator(p);
  const key = p.groupKey(tx);
  if (key === null) return acc.value();
  const from = tx.occurred_at - p.windowMs;
  for (const row of rows) {
    if (row.id === tx.id || row.occurred_at <= from || row.occurred_at > tx.occurred_at) continue;
    if (p.groupKey(row) !== key || !p.staticMatch(row)) continue;
    if (p.dynamicMatch && !p.dynamicMatch(row, tx)) continue;
    acc.add(row);
  }
  return acc.value();
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
