import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import {
  computeAggregate,
  computeAggregateWith,
  type AggregateValue,
  type CompiledRuleSet,
  type TxRow,
} from '../../engines/rules/index.js';
import { rowConditions } from './aggregate-pushdown.js';
import { transactionRows, type AggregateRead, type RollupTotals, type RowFilter } from './repository.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;
type Plan = CompiledRuleSet['aggregates'][number];
export const DAY_MS = 86_400_000;

const dayString = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const ROLLUP_FUNCTIONS: ReadonlySet<string> = new Set(['count', 'sum', 'avg', 'stddev', 'min', 'max']);

/** `currency == tx.currency` or `currency == "EUR"`: a filter the rollup's currency column answers. */
const isCurrencyFilter = (f: NonNullable<Plan['decl']['filters']>[number]) =>
  f.field === 'currency' &&
  f.op === 'eq' &&
  (typeof f.value === 'string' || (typeof f.value === 'object' && !Array.isArray(f.value) && f.value.tx === 'currency'));

/**
 * Served by the daily rollup: whole-day windows of count, sum, avg, stddev, min or max grouped by subject alone,
 * with no filter but a count's currency (direction and currency are rollup columns; an amount function's
 * currency is its declared one or the transaction's). Everything else reads raw rows.
 */
export function usesRollup(p: Plan): boolean {
  const filters = p.decl.filters ?? [];
  return (
    ROLLUP_FUNCTIONS.has(p.decl.fn) &&
    p.dims.length === 1 &&
    p.dims[0] === 'subject' &&
    (filters.length === 0 || (filters.length === 1 && p.decl.fn === 'count' && isCurrencyFilter(filters[0]!))) &&
    p.windowMs >= DAY_MS &&
    p.windowMs % DAY_MS === 0
  );
}

/** The currency a rollup aggregate's whole days are read in (the rollup's column), null for all (usesRollup holds). */
function rollupCurrency(p: Plan, tx: TxRow): string | null {
  const d = p.decl;
  if (d.fn !== 'count') return d.currency ?? tx.currency;
  const v = d.filters?.[0]?.value;
  return v === undefined ? null : typeof v === 'string' ? v : tx.currency;
}

/**
 * The values of the aggregates the rules read, for the transaction about to be stored (it is not in
 * the table yet, and computeAggregate also excludes its id): window (t − w, t]. Rollup aggregates add
 * the whole days strictly inside the window from transaction_daily to the raw rows of the two partial
 * days; the others read the raw rows of their group (one read per grouping, over its longest window) that at
 * least one of them can use: its window and the conditions SQL can check (aggregate-pushdown.ts). Every read
 * (raw groups, partial days, rollup sums) is planned first and sent as one statement.
 */
export async function computeTransactionAggregates(
  db: Queryable,
  t: Tenant,
  plans: readonly Plan[],
  tx: TxRow,
): Promise<Record<string, AggregateValue>> {
  const out: Record<string, AggregateValue> = {};
  const reads: AggregateRead[] = [];
  const readIndex = new Map<string, number>();
  const need = (r: AggregateRead) => {
    const k = JSON.stringify(r);
    let i = readIndex.get(k);
    if (i === undefined) readIndex.set(k, (i = reads.push(r) - 1));
    return i;
  };
  type RawGroup = { dims: Record<string, string>; windowMs: number; plans: Plan[]; any: Map<string, RowFilter> };
  const raw = new Map<string, RawGroup>();
  const rollups: { p: Plan; partial: number; days: number | null }[] = [];
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
      const lo = tx.occurred_at - p.windowMs;
      const firstFull = Math.floor(lo / DAY_MS) * DAY_MS + DAY_MS; // first midnight strictly after lo
      const today = Math.floor(tx.occurred_at / DAY_MS) * DAY_MS;
      const partial = need({
        kind: 'history',
        dims: { subject: tx.subject },
        fromMs: lo,
        toMs: tx.occurred_at,
        gap: { from: firstFull, to: today },
      });
      const days =
        firstFull >= today
          ? null
          : need({
              kind: 'rollup',
              subject: tx.subject,
              fromDay: dayString(firstFull),
              toDay: dayString(today),
              direction: p.decl.direction ?? 'any',
              currency: rollupCurrency(p, tx),
            });
      rollups.push({ p, partial, days });
      continue;
    }
    const k = p.dims.join(',');
    const g: RawGroup = raw.get(k) ?? { dims, windowMs: 0, plans: [], any: new Map() };
    g.windowMs = Math.max(g.windowMs, p.windowMs);
    g.plans.push(p);
    const where = rowConditions(p, tx);
    const fromMs = tx.occurred_at - p.windowMs;
    g.any.set(JSON.stringify([fromMs, where]), { fromMs, where });
    raw.set(k, g);
  }
  const groups = [...raw.values()].map((g) => ({
    g,
    i: need({ kind: 'history', dims: g.dims, fromMs: tx.occurred_at - g.windowMs, toMs: tx.occurred_at, any: [...g.any.values()] }),
  }));
  const results = await transactionRows.readMany(db, t, reads);
  for (const { g, i } of groups) for (const p of g.plans) out[p.key] = computeAggregate(p, tx, results[i] as TxRow[]);
  for (const { p, partial, days } of rollups)
    out[p.key] =
      days === null
        ? computeAggregate(p, tx, results[partial] as TxRow[])
        : computeAggregateWith(p, tx, results[partial] as TxRow[], results[days] as RollupTotals);
  return out;
}
