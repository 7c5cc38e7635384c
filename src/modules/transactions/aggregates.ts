import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import {
  computeAggregate,
  computeAggregateWith,
  type AggregateValue,
  type CompiledRuleSet,
  type TxRow,
} from '../../engines/rules/index.js';
import { amountEquality, rowConditions } from './aggregate-pushdown.js';
import { ROW_FIELDS, transactionRows, type AggregateRead, type RollupTotals, type RowField, type RowFilter } from './repository.js';

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
 * Served by the daily rollup: whole-day windows of count, or of sum, avg, stddev, min or max of the amount, grouped by subject alone,
 * with no filter but a count's currency (direction and currency are rollup columns; an amount function's
 * currency is its declared one or the transaction's). Everything else reads raw rows.
 */
export function usesRollup(p: Plan): boolean {
  const filters = p.decl.filters ?? [];
  return (
    ROLLUP_FUNCTIONS.has(p.decl.fn) &&
    // The rollup sums amounts: a sum of counterparty_balance_after is not in it.
    (p.decl.fn === 'count' || p.decl.field === 'amount') &&
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

/** How a rollup aggregate's two partial days are read: as rows inside the window, or as the day's totals minus its rows outside. */
export interface RollupDays {
  headMinus: boolean;
  tailMinus: boolean;
}

/**
 * For each partial day of a rollup aggregate's window (the first, lo's day; the last, today), whether to read the
 * rows inside the window and add them to the whole days' totals, or to take that whole day's totals too and
 * subtract the rows outside the window: whichever side of the cut holds less time. Rows after t exist at most up to
 * `now` (a transaction happening now has none, or the few that arrived since), so today's rows after t are
 * expected over (t, min(now, tomorrow)). Both ways give the same value exactly; only what is read differs. A
 * smallest or largest amount cannot be taken out of a total, so min and max always add.
 */
export function plannedRollupDays(p: Plan, lo: number, firstFull: number, today: number, t: number, now: number): RollupDays {
  if (p.decl.fn === 'min' || p.decl.fn === 'max') return { headMinus: false, tailMinus: false };
  const afterT = Math.max(0, Math.min(now, today + DAY_MS) - t);
  return { headMinus: lo - (firstFull - DAY_MS) < firstFull - lo, tailMinus: afterT < t - today };
}

const AMOUNT_FUNCTIONS: ReadonlySet<string> = new Set(['sum', 'avg', 'stddev', 'min', 'max']);
const FIELDS_OF = new WeakMap<readonly Plan[], RowField[]>();

/**
 * The row fields the plans' matching looks at besides id, time and amount (raw reads return only these; each read's
 * group dimensions are set from the read): direction, currency (amount functions, currency filters), the filtered
 * and the counted fields. A field the engine would read but the read left out would make a row not match, so this
 * errs on the side of more: every field a filter, a function or a direction names.
 */
export function rowFields(plans: readonly Plan[]): RowField[] {
  let out = FIELDS_OF.get(plans);
  if (out) return out;
  const want = new Set<string>();
  for (const p of plans) {
    const d = p.decl;
    if (d.direction === 'in' || d.direction === 'out') want.add('direction');
    if (AMOUNT_FUNCTIONS.has(d.fn)) want.add('currency');
    if (d.field) want.add(d.field);
    for (const f of d.filters ?? []) want.add(f.field);
  }
  out = ROW_FIELDS.filter((f) => want.has(f));
  FIELDS_OF.set(plans, out);
  return out;
}

/** What computeTransactionAggregates decides per plan once per plans array (a version's evaluated aggregates). */
const SHAPES = new WeakMap<readonly Plan[], { p: Plan; rollup: boolean; group: string }[]>();
function shapesOf(plans: readonly Plan[]) {
  let shapes = SHAPES.get(plans);
  if (shapes === undefined) SHAPES.set(plans, (shapes = plans.map((p) => ({ p, rollup: usesRollup(p), group: p.dims.join(',') }))));
  return shapes;
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
  // Rollup aggregates share today's raw rows, those of the same window their first partial day, and those of the same
  // window, direction and currency their rollup read (keys built from those values alone: the subject is the
  // transaction's).
  const readIndex = new Map<string, number>();
  const need = (k: string, r: () => AggregateRead) => {
    let i = readIndex.get(k);
    if (i === undefined) readIndex.set(k, (i = reads.push(r()) - 1));
    return i;
  };
  type RawGroup = { dims: Record<string, string>; amount?: string; windowMs: number; plans: Plan[]; any: Map<string, RowFilter> };
  const raw = new Map<string, RawGroup>();
  const rollups: ({ p: Plan; head: number; tail: number; days: number | null } & RollupDays)[] = [];
  for (const { p, rollup, group } of shapesOf(plans)) {
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
    if (rollup) {
      const lo = tx.occurred_at - p.windowMs;
      const firstFull = Math.floor(lo / DAY_MS) * DAY_MS + DAY_MS; // first midnight strictly after lo
      const loDay = firstFull - DAY_MS;
      const today = Math.floor(tx.occurred_at / DAY_MS) * DAY_MS;
      // The two partial days, each read the cheaper way (plannedRollupDays): the first day's rows inside the window,
      // (lo, firstFull), or that whole day's totals minus its rows at or before lo; today's rows [today, t], or today's
      // totals minus its rows after t (for a transaction happening now, none or a few: a heavy subject's day of rows
      // is not read). Reads are shared by every rollup aggregate that needs the same one (keys built from the values
      // alone: the subject is the transaction's). firstFull ≤ today: w ≥ 1 day.
      const mode = plannedRollupDays(p, lo, firstFull, today, tx.occurred_at, Date.now());
      const subject = { subject: tx.subject };
      const head = mode.headMinus
        ? need(`s${lo}`, () => ({ kind: 'history', dims: subject, fromMs: loDay, toMs: lo, fromInclusive: true }))
        : need(`p${lo}`, () => ({ kind: 'history', dims: subject, fromMs: lo, toMs: Math.min(firstFull, today), toExclusive: true }));
      const tail = mode.tailMinus
        ? need('u', () => ({ kind: 'history', dims: subject, fromMs: tx.occurred_at, toMs: today + DAY_MS, toExclusive: true }))
        : need('t', () => ({ kind: 'history', dims: subject, fromMs: today, toMs: tx.occurred_at, fromInclusive: true }));
      const fromDay = mode.headMinus ? loDay : firstFull;
      const toDay = mode.tailMinus ? today + DAY_MS : today;
      const direction = p.decl.direction ?? 'any';
      const currency = rollupCurrency(p, tx);
      const days =
        fromDay >= toDay
          ? null
          : need(`r${fromDay}|${toDay}|${direction}|${currency ?? ''}`, () => ({
              kind: 'rollup',
              subject: tx.subject,
              fromDay: dayString(fromDay),
              toDay: dayString(toDay),
              direction,
              currency,
            }));
      rollups.push({ p, head, tail, ...mode, days });
      continue;
    }
    // Aggregates filtered on an amount equality read apart from the rest of their group (aggregate-pushdown.ts).
    const eq = amountEquality(p, tx);
    const key = eq === null ? group : `${group}|${eq.source}`;
    let g = raw.get(key);
    if (g === undefined) raw.set(key, (g = { dims, ...(eq && { amount: eq.value }), windowMs: 0, plans: [], any: new Map() }));
    g.windowMs = Math.max(g.windowMs, p.windowMs);
    g.plans.push(p);
    const where = rowConditions(p, tx);
    const fromMs = tx.occurred_at - p.windowMs;
    let anyKey = String(fromMs);
    for (const c of where) anyKey += ` ${c.column} ${c.op} ${JSON.stringify(c.value)}`; // JSON: no value can fake a separator
    g.any.set(anyKey, { fromMs, where });
  }
  const groups = [...raw.values()].map((g) => ({
    g,
    i:
      reads.push({
        kind: 'history',
        dims: g.dims,
        ...(g.amount !== undefined && { amount: g.amount }),
        fromMs: tx.occurred_at - g.windowMs,
        toMs: tx.occurred_at,
        any: [...g.any.values()],
      }) - 1,
  }));
  const results = await transactionRows.readMany(db, t, reads, rowFields(plans));
  for (const { g, i } of groups) for (const p of g.plans) out[p.key] = computeAggregate(p, tx, results[i] as TxRow[]);
  const rowsOf = (i: number) => results[i] as TxRow[];
  // The rows to add and to take out, joined once per pair of partial-day reads (their keys fix how each is used).
  const partials = new Map<string, { plus: TxRow[]; minus: TxRow[] }>();
  for (const { p, head, tail, headMinus, tailMinus, days } of rollups) {
    const k = `${head} ${tail}`;
    let rows = partials.get(k);
    if (rows === undefined)
      partials.set(
        k,
        (rows = {
          plus: [...(headMinus ? [] : rowsOf(head)), ...(tailMinus ? [] : rowsOf(tail))],
          minus: [...(headMinus ? rowsOf(head) : []), ...(tailMinus ? rowsOf(tail) : [])],
        }),
      );
    out[p.key] =
      days === null
        ? computeAggregate(p, tx, rows.plus)
        : computeAggregateWith(p, tx, rows.plus, results[days] as RollupTotals, rows.minus);
  }
  return out;
}
