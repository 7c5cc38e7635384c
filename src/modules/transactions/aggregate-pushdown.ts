import type { CompiledRuleSet, TxRow } from '../../engines/rules/index.js';
import type { RowCondition } from './repository.js';

type Plan = CompiledRuleSet['aggregates'][number];
const TEXT_COLUMNS = new Set(['type', 'channel', 'country', 'currency']);
const AMOUNT_OPS = new Set(['eq', 'gt', 'gte', 'lt', 'lte']);
const AMOUNT_FUNCTIONS = new Set(['sum', 'avg', 'min', 'max', 'stddev']);

type Filter = NonNullable<Plan['decl']['filters']>[number];
const isAmountEquality = (f: Filter) => f.field === 'amount' && f.op === 'eq' && !Array.isArray(f.value);

/**
 * Whether an aggregate filters on `amount == <one value>` (a literal or a transaction field, typically the fan-in's and
 * PaySim's `amount == tx.amount`): its raw read is then the group's rows of that amount, one range of an index on
 * (…, group, amount, occurred_at), which derived-indexes.ts builds for it.
 */
export const filtersAmountEquality = (p: Plan): boolean => (p.decl.filters ?? []).some(isAmountEquality);

/**
 * The amount an aggregate's rows must equal (its first amount equality whose value the transaction gives), with where
 * the value comes from (`tx:amount`, or the literal): aggregates of one group with the same source share one read
 * that carries `amount = value` as a top-level condition, so that both the custom and the generic plan of the
 * statement see an equality on the index's amount column (inside the OR of the aggregates' conditions the generic
 * plan walked the subject's whole window: 19,921 rows filtered for 79, 25 ms, at 20,000 rows in 90 days). The
 * source, not the value, keys the read: the statement's text must not depend on values.
 */
export function amountEquality(p: Plan, tx: TxRow): { source: string; value: string } | null {
  for (const f of p.decl.filters ?? []) {
    if (!isAmountEquality(f)) continue;
    const v = f.value as string | { tx: string };
    const value = typeof v === 'string' ? v : (tx as unknown as Record<string, string | undefined>)[v.tx];
    if (value !== undefined && value !== '') return { source: typeof v === 'string' ? `=${v}` : `tx:${v.tx}`, value };
  }
  return null;
}

/**
 * Conditions of an aggregate that its raw-row read can carry into SQL, so that a heavy subject's window is not
 * shipped whole to be filtered here (the fan-in's `amount == tx.amount` over 90 days read ~20,000 rows of which
 * it used a handful): direction, an amount function's currency, equality of type/channel/country/currency with a
 * literal or the transaction, and amount comparisons (numeric, exact). Every filter is still checked row by row
 * by computeAggregate, so a condition left out only costs rows, and each one kept must hold for every row the
 * filters accept: the SQL comparison is the engine's (text equality; numeric order, "5.0" = "5.00").
 * Sorted, so aggregates with the same conditions share one read.
 */
export function rowConditions(p: Plan, tx: TxRow): RowCondition[] {
  const out: RowCondition[] = [];
  const d = p.decl;
  if (d.direction === 'in' || d.direction === 'out') out.push({ column: 'direction', op: 'eq', value: d.direction });
  if (AMOUNT_FUNCTIONS.has(d.fn)) out.push({ column: 'currency', op: 'eq', value: d.currency ?? tx.currency });
  for (const f of d.filters ?? []) {
    const values =
      typeof f.value === 'string'
        ? [f.value]
        : Array.isArray(f.value)
          ? f.op === 'between'
            ? f.value
            : []
          : [(tx as unknown as Record<string, string | undefined>)[f.value.tx]];
    if (values.some((v) => v === undefined || v === '')) continue;
    if (TEXT_COLUMNS.has(f.field) && f.op === 'eq' && values.length === 1)
      out.push({ column: f.field as 'type', op: 'eq', value: values[0]! });
    else if (f.field === 'amount' && AMOUNT_OPS.has(f.op) && values.length === 1)
      out.push({ column: 'amount', op: f.op as 'eq', value: values[0]! });
    else if (f.field === 'amount' && f.op === 'between' && values.length === 2) {
      out.push({ column: 'amount', op: 'gte', value: values[0]! });
      out.push({ column: 'amount', op: 'lte', value: values[1]! });
    }
  }
  // By column and operator only (a stable sort), never deduplicated by value: the statement's text must not
  // depend on the values (a repeated condition is harmless).
  const key = (c: RowCondition) => `${c.column} ${c.op}`;
  return out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
