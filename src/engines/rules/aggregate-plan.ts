import {
  type AggregateDecl,
  type AggregateFilter,
  type AggregateFunction,
  type FilterField,
  type GroupDimension,
  type TxRow,
  DECIMAL_FIELDS,
  groupDimensions,
  isAmountFunction,
  parseWindow,
} from './aggregates.js';
import { fromScaledUnits, divideRounded, parseDecimal, toScaledUnits } from './decimal.js';

/** Amounts are summed as BigInt at this fixed scale (the decimal parser allows at most 18 fraction digits). */
export const SCALE = 18;
export const ONE = 10n ** BigInt(SCALE);

export type AggregateValue = number | string | null;

type RowPredicate = (row: TxRow, tx: TxRow) => boolean;

/** A field compared with the evaluated transaction, as index keys (decimals by value; undefined: no value). */
export interface WindowKey {
  rowKey: (row: TxRow) => string | undefined;
  txKey: (tx: TxRow) => string | undefined;
}

/** A validated declaration turned into closures: which rows belong and what to accumulate. */
export interface AggregatePlan {
  decl: AggregateDecl;
  key: string;
  fn: AggregateFunction;
  windowMs: number;
  dims: GroupDimension[];
  /** Does not depend on the evaluated transaction: can be applied once, when a row enters a window. */
  staticMatch: (row: TxRow) => boolean;
  /** Depends on the evaluated transaction (tx references, default currency); null when there is none. */
  dynamicMatch: RowPredicate | null;
  /**
   * dynamicMatch without what the group key already decides (the default currency of an amount function
   * is part of the key): what a window of one group must still check row by row, or null.
   */
  windowMatch: RowPredicate | null;
  /**
   * The first `eq` filter on the evaluated transaction as a lookup key: a row can only match a transaction
   * whose `txKey` equals its `rowKey` (decimals by value: "5.0" and "5.00" share a key; undefined never
   * matches). Sliding windows index their rows by it, so `amount == tx.amount` reads the rows of one amount,
   * not the group's whole window. windowMatch still decides; null when there is no such filter.
   */
  windowKey: WindowKey | null;
  /**
   * windowKey is the only filter that depends on the evaluated transaction: every row of the transaction's key
   * matches (a count is the key's row count, nothing to check row by row).
   */
  keyDecides: boolean;
  /**
   * The `ne` filter on the evaluated transaction as a lookup key, when it is the only filter that depends on
   * the transaction (fan-out's `counterparty != tx.counterparty`): the rows that match are the window's
   * rows minus those whose key equals the transaction's or is missing. Sliding windows index their rows by
   * it and subtract those two buckets from their running totals (count, sum, avg, stddev, count_distinct)
   * instead of scanning the window; min and max still scan. null when there is no such filter.
   */
  windowExclude: WindowKey | null;
  /** The group key of a row or transaction, or null when a dimension is missing (no history then). */
  groupKey: (r: TxRow) => string | null;
  /** Plans with the same shape give every row the same group key (computed once per row for all of them). */
  groupShape: string;
  field: FilterField | undefined;
  /** Reads `field` of a row (undefined for count). */
  fieldValue: FieldGetter | undefined;
}

/**
 * Parsed amounts, by their text: a window's rows are compared with every transaction evaluated while they
 * are in it (filters on the evaluated transaction), so the same strings are parsed again and again. Bounded:
 * cleared when full (a pure function's memo, no state that could differ between calls).
 */
const parsedUnits = new Map<string, bigint>();
const PARSED_UNITS_MAX = 50_000;

export function units(amount: string): bigint {
  let x = parsedUnits.get(amount);
  if (x === undefined) {
    x = toScaledUnits(parseDecimal(amount), SCALE);
    if (parsedUnits.size >= PARSED_UNITS_MAX) parsedUnits.clear();
    parsedUnits.set(amount, x);
  }
  return x;
}

const isDecimalField = (f: string) => (DECIMAL_FIELDS as readonly string[]).includes(f);

export type FieldGetter = (row: TxRow) => string | undefined;

/**
 * A field read as a fixed property access. `row[field]` with a variable key is a keyed load that V8 cannot
 * cache across the row shapes a replay sees (it was 14 % of a backtest's CPU, called per row and filter).
 */
function getter(field: FilterField): FieldGetter {
  switch (field) {
    case 'amount':
      return (r) => r.amount;
    case 'counterparty_balance_after':
      return (r) => r.counterparty_balance_after;
    case 'subject':
      return (r) => r.subject;
    case 'counterparty':
      return (r) => r.counterparty;
    case 'account':
      return (r) => r.account;
    case 'wallet':
      return (r) => r.wallet;
    case 'device':
      return (r) => r.device;
    case 'ip':
      return (r) => r.ip;
    case 'type':
      return (r) => r.type;
    case 'channel':
      return (r) => r.channel;
    case 'country':
      return (r) => r.country;
    case 'currency':
      return (r) => r.currency;
  }
}

/** `ps` all hold (a loop, not `every` with a callback: called per row and aggregate). */
function allOf(ps: RowPredicate[]): RowPredicate {
  if (ps.length === 1) return ps[0]!;
  return (row, tx) => {
    for (let i = 0; i < ps.length; i++) if (!ps[i]!(row, tx)) return false;
    return true;
  };
}

function filterPredicate(f: AggregateFilter): { pred: RowPredicate; dynamic: boolean } {
  const decimal = isDecimalField(f.field);
  const rowValue = getter(f.field);
  const v = f.value;
  if (typeof v === 'object' && !Array.isArray(v)) {
    const txValue = getter(v.tx);
    const cmp = makeCompare(f.op, decimal);
    return {
      dynamic: true,
      pred: (row, tx) => {
        const a = rowValue(row);
        const b = txValue(tx);
        return a !== undefined && b !== undefined && cmp(a, b);
      },
    };
  }
  if (f.op === 'in' || f.op === 'not_in') {
    const set = new Set(v as string[]);
    const want = f.op === 'in';
    return {
      dynamic: false,
      pred: (row) => {
        const a = rowValue(row);
        return a !== undefined && set.has(a) === want;
      },
    };
  }
  if (f.op === 'between') {
    const [lo, hi] = (v as string[]).map(units) as [bigint, bigint];
    return {
      dynamic: false,
      pred: (row) => {
        const a = rowValue(row);
        if (a === undefined) return false;
        const x = units(a);
        return x >= lo && x <= hi;
      },
    };
  }
  if (f.op === 'multiple_of') {
    const m = units(v as string);
    return {
      dynamic: false,
      pred: (row) => {
        const a = rowValue(row);
        return a !== undefined && units(a) % m === 0n;
      },
    };
  }
  const cmp = makeCompare(f.op, decimal);
  const lit = v as string;
  return {
    dynamic: false,
    pred: (row) => {
      const a = rowValue(row);
      return a !== undefined && cmp(a, lit);
    },
  };
}

function makeCompare(op: AggregateFilter['op'], decimal: boolean): (a: string, b: string) => boolean {
  if (!decimal) {
    if (op === 'eq') return (a, b) => a === b;
    if (op === 'ne') return (a, b) => a !== b;
    throw new Error(`op ${op} is not defined on key fields`);
  }
  const c = (a: string, b: string) => {
    const x = units(a);
    const y = units(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
  switch (op) {
    case 'eq':
      return (a, b) => c(a, b) === 0;
    case 'ne':
      return (a, b) => c(a, b) !== 0;
    case 'gt':
      return (a, b) => c(a, b) > 0;
    case 'gte':
      return (a, b) => c(a, b) >= 0;
    case 'lt':
      return (a, b) => c(a, b) < 0;
    case 'lte':
      return (a, b) => c(a, b) <= 0;
    default:
      throw new Error(`op ${op} takes no transaction reference`);
  }
}

/** Assumes a declaration that passed validateAggregate. */
export function planAggregate(decl: AggregateDecl): AggregatePlan {
  const windowMs = parseWindow(decl.window);
  if (windowMs === null) throw new Error(`aggregate ${decl.key}: invalid window`);
  const dims = groupDimensions(decl);
  const statics: RowPredicate[] = [];
  const dynamics: RowPredicate[] = [];
  const dir = decl.direction ?? 'any';
  if (dir !== 'any') statics.push((row) => row.direction === dir);
  // Summing across currencies means nothing; conversion, if wanted, is the caller's job. Without a named
  // currency the transaction's own counts, and it joins the group key: a sliding window then holds one
  // currency's rows and needs no per-row check (the check stays in dynamicMatch for plain scans).
  const currencyInKey = isAmountFunction(decl.fn) && !decl.currency;
  const windowDynamics: RowPredicate[] = [];
  if (isAmountFunction(decl.fn)) {
    if (decl.currency) {
      const cur = decl.currency;
      statics.push((row) => row.currency === cur);
    } else dynamics.push((row, tx) => row.currency === tx.currency);
  }
  for (const f of decl.filters ?? []) {
    const p = filterPredicate(f);
    (p.dynamic ? dynamics : statics).push(p.pred);
    if (p.dynamic) windowDynamics.push(p.pred);
  }
  const isRef = (f: AggregateFilter) => typeof f.value === 'object' && !Array.isArray(f.value);
  const keyOf = (f: AggregateFilter): WindowKey => {
    const field = f.field;
    const rowValue = getter(field);
    const txValue = getter((f.value as { tx: FilterField }).tx);
    const norm = isDecimalField(field)
      ? (v: string | undefined) => (v === undefined ? undefined : units(v).toString())
      : (v: string | undefined) => v;
    return { rowKey: (row) => norm(rowValue(row)), txKey: (tx) => norm(txValue(tx)) };
  };
  const eqRef = (decl.filters ?? []).find((f) => f.op === 'eq' && isRef(f));
  const windowKey: AggregatePlan['windowKey'] = eqRef ? keyOf(eqRef) : null;
  const refs = (decl.filters ?? []).filter(isRef);
  const windowExclude: AggregatePlan['windowExclude'] = !eqRef && refs.length === 1 && refs[0]!.op === 'ne' ? keyOf(refs[0]!) : null;
  const staticAll = statics.length ? allOf(statics) : null;
  const staticMatch = staticAll ? (row: TxRow) => staticAll(row, row) : () => true;
  const all = (ps: RowPredicate[]): RowPredicate | null => (ps.length ? allOf(ps) : null);
  const dimValues = dims.map(getter);
  const groupKey = (r: TxRow): string | null => {
    let k = '';
    for (let i = 0; i < dimValues.length; i++) {
      const v = dimValues[i]!(r);
      if (v === undefined || v === '') return null;
      k += (i ? '\u0000' : '') + v;
    }
    return currencyInKey ? `${k}\u0001${r.currency}` : k;
  };
  return {
    decl,
    key: decl.key,
    fn: decl.fn,
    windowMs,
    dims,
    staticMatch,
    dynamicMatch: all(dynamics),
    windowMatch: all(windowDynamics),
    windowKey,
    keyDecides: windowKey !== null && windowDynamics.length === 1,
    windowExclude,
    groupKey,
    groupShape: `${dims.join(',')}${currencyInKey ? '+currency' : ''}`,
    field: decl.field,
    fieldValue: decl.fn === 'count' || decl.field === undefined ? undefined : getter(decl.field),
  };
}

/** Accumulates the matching rows of one evaluation; shared by the reference scan and the window replay. */
export class Accumulator {
  n = 0;
  sum = 0n;
  sumSq = 0n;
  min: bigint | null = null;
  max: bigint | null = null;
  readonly distinct = new Set<string>();

  constructor(readonly plan: AggregatePlan) {}

  add(row: TxRow): void {
    const { fn, fieldValue } = this.plan;
    if (fn === 'count') {
      this.n++;
      return;
    }
    const v = fieldValue?.(row);
    if (v === undefined) return;
    if (fn === 'count_distinct') {
      this.distinct.add(v);
      return;
    }
    this.addUnits(units(v));
  }

  /** A row whose amount was already parsed (`x`, undefined when the field is absent). */
  addEntry(row: TxRow, x: bigint | undefined): void {
    const { fn } = this.plan;
    if (fn === 'count' || fn === 'count_distinct') this.add(row);
    else if (x !== undefined) this.addUnits(x);
  }

  /** A row as a window keeps it: its parsed amount and its distinct value (undefined when absent). */
  addParsed(x: bigint | undefined, d: string | undefined): void {
    const { fn } = this.plan;
    if (fn === 'count') this.n++;
    else if (fn === 'count_distinct') {
      if (d !== undefined) this.distinct.add(d);
    } else if (x !== undefined) this.addUnits(x);
  }

  private addUnits(x: bigint): void {
    const { fn } = this.plan;
    this.n++;
    this.sum += x;
    if (fn === 'stddev') this.sumSq += x * x;
    if (this.min === null || x < this.min) this.min = x;
    if (this.max === null || x > this.max) this.max = x;
  }

  value(): AggregateValue {
    return finish(this.plan.fn, this.n, this.sum, this.sumSq, this.min, this.max, this.distinct.size);
  }
}

export function finish(
  fn: AggregateFunction,
  n: number,
  sum: bigint,
  sumSq: bigint,
  min: bigint | null,
  max: bigint | null,
  distinct: number,
): AggregateValue {
  switch (fn) {
    case 'count':
      return n;
    case 'count_distinct':
      return distinct;
    case 'sum':
      return fromScaledUnits(sum, SCALE);
    case 'min':
      return min === null ? null : fromScaledUnits(min, SCALE);
    case 'max':
      return max === null ? null : fromScaledUnits(max, SCALE);
    case 'avg':
      return n === 0 ? null : divideRounded(sum, SCALE, BigInt(n), SCALE);
    case 'stddev': {
      if (n === 0) return null;
      // Population variance, exact: (nΣx² − (Σx)²) / n², at scale 2·SCALE; then a floor integer square root.
      const bn = BigInt(n);
      const variance = (bn * sumSq - sum * sum) / (bn * bn);
      return fromScaledUnits(isqrt(variance), SCALE);
    }
  }
}

/**
 * ⌊√v⌋ exactly. Integer Newton iteration decreases monotonically to the floor root when it starts at or
 * above it, so the start is the float estimate raised past its rounding error (a double is within a relative
 * 2⁻⁵² of the root; values beyond a double's range start from a power of two above the root). A start below
 * the root (as the float estimate alone can be) would need one BigInt step per unit of error: up to
 * thousands on the 40-digit variances of sums at scale, measured as a quarter of the API's CPU under load.
 */
export function isqrt(v: bigint): bigint {
  if (v < 0n) throw new RangeError('negative');
  if (v < 2n) return v;
  const f = Math.sqrt(Number(v));
  let x: bigint;
  if (Number.isFinite(f)) {
    const est = BigInt(Math.ceil(f));
    x = est + (est >> 40n) + 2n;
  } else x = 1n << BigInt(Math.ceil(v.toString(2).length / 2) + 1);
  for (;;) {
    const y = (x + v / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
