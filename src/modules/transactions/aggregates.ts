import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { addDecimal, computeAggregate, type AggregateValue, type CompiledRuleSet, type TxRow } from '../../engines/rules/index.js';
import { transactionRows } from './repository.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;
type Plan = CompiledRuleSet['aggregates'][number];
export const DAY_MS = 86_400_000;

const dayString = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Served by the daily rollup: whole-day windows of count or sum grouped by subject alone with no filters
 * (direction and, for sum, currency are rollup columns). Everything else reads raw rows.
 */
export function usesRollup(p: Plan): boolean {
  const d = p.decl;
  return (
    (d.fn === 'count' || d.fn === 'sum') &&
    p.dims.length === 1 &&
    p.dims[0] === 'subject' &&
    (d.filters ?? []).length === 0 &&
    p.windowMs >= DAY_MS &&
    p.windowMs % DAY_MS === 0
  );
}

/**
 * The values of the aggregates the rules read, for the transaction about to be stored (it is not in
 * the table yet, and computeAggregate also excludes its id): window (t − w, t]. Rollup aggregates add
 * the whole days strictly inside the window from transaction_daily to the raw rows of the two partial
 * days; the others scan the raw rows of their group within the window.
 */
export async function computeTransactionAggregates(
  db: Queryable,
  t: Tenant,
  plans: readonly Plan[],
  tx: TxRow,
): Promise<Record<string, AggregateValue>> {
  const out: Record<string, AggregateValue> = {};
  const raw = new Map<string, { dims: Record<string, string>; windowMs: number; plans: Plan[] }>();
  for (const p of plans) {
    const dims: Record<string, string> = {};
    let complete = true;
    for (const d of p.dims) {
      const v = tx[d];
      if (v === undefined || v === '') complete = false;
      else dims[d] = v;
    }
    if (!complete) {
      out[p.key] = computeAggregate(p, tx, []);
      continue;
    }
    if (usesRollup(p)) {
      out[p.key] = await viaRollup(db, t, p, tx);
      continue;
    }
    const k = p.dims.join(',');
    const g = raw.get(k) ?? { dims, windowMs: 0, plans: [] };
    g.windowMs = Math.max(g.windowMs, p.windowMs);
    g.plans.push(p);
    raw.set(k, g);
  }
  for (const g of raw.values()) {
    const rows = await transactionRows.history(db, t, g.dims, tx.occurred_at - g.windowMs, tx.occurred_at);
    for (const p of g.plans) out[p.key] = computeAggregate(p, tx, rows);
  }
  return out;
}

async function viaRollup(db: Queryable, t: Tenant, p: Plan, tx: TxRow): Promise<AggregateValue> {
  const lo = tx.occurred_at - p.windowMs;
  const firstFull = Math.floor(lo / DAY_MS) * DAY_MS + DAY_MS; // first midnight strictly after lo
  const today = Math.floor(tx.occurred_at / DAY_MS) * DAY_MS;
  const partial = await transactionRows.history(db, t, { subject: tx.subject }, lo, tx.occurred_at, { from: firstFull, to: today });
  const rawValue = computeAggregate(p, tx, partial);
  if (firstFull >= today) return rawValue;
  const direction = p.decl.direction ?? 'any';
  const currency = p.decl.fn === 'sum' ? (p.decl.currency ?? tx.currency) : null;
  const r = await transactionRows.rollup(db, t, {
    subject: tx.subject,
    fromDay: dayString(firstFull),
    toDay: dayString(today),
    direction,
    currency,
  });
  if (p.decl.fn === 'count') return (rawValue as number) + r.n;
  return addDecimal(String(rawValue), r.total);
}
