// Aggregates are declared next to the rules, never hidden inside expressions, so a rule set says exactly
// which history queries it needs (and the module can build indexes or rollups for them).

export const AGGREGATE_FUNCTIONS = ['count', 'sum', 'avg', 'min', 'max', 'count_distinct', 'stddev'] as const;
export type AggregateFunction = (typeof AGGREGATE_FUNCTIONS)[number];
export const GROUP_DIMENSIONS = ['subject', 'counterparty', 'account', 'wallet', 'device', 'ip'] as const;
export type GroupDimension = (typeof GROUP_DIMENSIONS)[number];
/** Key fields of a history row (count_distinct targets, equality filters, tx references). */
export const KEY_FIELDS = [
  'subject',
  'counterparty',
  'account',
  'wallet',
  'device',
  'ip',
  'type',
  'channel',
  'country',
  'currency',
] as const;
export type KeyField = (typeof KEY_FIELDS)[number];
export const DECIMAL_FIELDS = ['amount', 'counterparty_balance_after'] as const;
export type DecimalField = (typeof DECIMAL_FIELDS)[number];
export type FilterField = KeyField | DecimalField;
export const FILTER_OPS = ['eq', 'ne', 'in', 'not_in', 'gt', 'gte', 'lt', 'lte', 'between', 'multiple_of'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

/** A value taken from the transaction being evaluated (Marble-style payload reference). */
export interface TxRef {
  tx: KeyField | DecimalField;
}
export type FilterValue = string | string[] | TxRef;

export interface AggregateFilter {
  field: FilterField;
  op: FilterOp;
  value: FilterValue;
}

export interface AggregateDecl {
  /** Becomes `agg.<key>` in expressions. */
  key: string;
  description?: string;
  fn: AggregateFunction;
  /** Required except for count (which counts rows): amount-like for sum/avg/min/max/stddev, a key field for count_distinct. */
  field?: FilterField;
  /** "<n>m", "<n>h" or "<n>d", from 1 minute to 365 days. */
  window: string;
  group_by: GroupDimension | GroupDimension[];
  direction?: 'in' | 'out' | 'any';
  /** Amount functions only use rows in this currency; default: the evaluated transaction's currency. */
  currency?: string;
  filters?: AggregateFilter[];
}

/** One row of history, as seen from its subject (an internal transfer is two rows with the same id). */
export interface TxRow {
  id: string;
  /** Milliseconds since the epoch. */
  occurred_at: number;
  amount: string;
  currency: string;
  direction: 'in' | 'out';
  subject: string;
  type?: string;
  channel?: string;
  country?: string;
  counterparty?: string;
  account?: string;
  wallet?: string;
  device?: string;
  ip?: string;
  counterparty_balance_after?: string;
}

export interface ValidationError {
  field: string;
  code: string;
  message: string;
  position?: { offset: number; end: number; line: number; column: number };
}

export const MINUTE_MS = 60_000;
export const MAX_WINDOW_MS = 365 * 24 * 60 * MINUTE_MS;

export function parseWindow(w: string): number | null {
  const m = /^([1-9][0-9]{0,6})([mhd])$/.exec(w);
  if (!m) return null;
  const n = Number(m[1]);
  return n * (m[2] === 'm' ? MINUTE_MS : m[2] === 'h' ? 60 * MINUTE_MS : 1440 * MINUTE_MS);
}

export function groupDimensions(d: AggregateDecl): GroupDimension[] {
  return Array.isArray(d.group_by) ? d.group_by : [d.group_by];
}

export function isAmountFunction(fn: AggregateFunction): boolean {
  return fn === 'sum' || fn === 'avg' || fn === 'min' || fn === 'max' || fn === 'stddev';
}

const has = <T extends string>(list: readonly T[], v: unknown): v is T => list.includes(v as T);
const isRef = (v: unknown): v is TxRef => typeof v === 'object' && v !== null && !Array.isArray(v) && 'tx' in v;
const KEY_RE = /^[a-z][a-z0-9_]{0,62}$/;

export function validateAggregate(d: AggregateDecl, at: string): ValidationError[] {
  const errs: ValidationError[] = [];
  const err = (field: string, code: string, message: string) => errs.push({ field: `${at}.${field}`, code, message });
  if (!KEY_RE.test(String(d.key))) err('key', 'invalid_key', 'key must match ^[a-z][a-z0-9_]{0,62}$');
  if (!has(AGGREGATE_FUNCTIONS, d.fn)) err('fn', 'invalid_function', `fn must be one of ${AGGREGATE_FUNCTIONS.join(', ')}`);
  else if (d.fn === 'count') {
    if (d.field !== undefined) err('field', 'field_not_allowed', 'count counts rows and takes no field');
  } else if (d.fn === 'count_distinct') {
    if (!has(KEY_FIELDS, d.field)) err('field', 'invalid_field', `count_distinct needs one of ${KEY_FIELDS.join(', ')}`);
  } else if (!has(DECIMAL_FIELDS, d.field)) {
    err('field', 'invalid_field', `${d.fn} needs one of ${DECIMAL_FIELDS.join(', ')}`);
  }
  const w = typeof d.window === 'string' ? parseWindow(d.window) : null;
  if (w === null) err('window', 'invalid_window', 'window must look like 15m, 24h or 30d');
  else if (w > MAX_WINDOW_MS) err('window', 'window_too_long', 'window must be at most 365 days');
  const dims = Array.isArray(d.group_by) ? d.group_by : [d.group_by];
  if (dims.length === 0 || dims.length > 3 || !dims.every((g) => has(GROUP_DIMENSIONS, g)) || new Set(dims).size !== dims.length) {
    err('group_by', 'invalid_group_by', `group_by must be 1 to 3 distinct of ${GROUP_DIMENSIONS.join(', ')}`);
  }
  if (d.direction !== undefined && !['in', 'out', 'any'].includes(d.direction))
    err('direction', 'invalid_direction', 'direction must be in, out or any');
  if (d.currency !== undefined && !/^[A-Z]{3}$/.test(d.currency)) err('currency', 'invalid_currency', 'currency must be a 3-letter code');
  (d.filters ?? []).forEach((f, i) => validateFilter(f, `filters[${i}]`, err));
  return errs;
}

function validateFilter(f: AggregateFilter, at: string, err: (field: string, code: string, message: string) => void): void {
  const decimal = has(DECIMAL_FIELDS, f.field);
  if (!decimal && !has(KEY_FIELDS, f.field)) return err(`${at}.field`, 'invalid_field', `unknown filter field '${String(f.field)}'`);
  if (!has(FILTER_OPS, f.op)) return err(`${at}.op`, 'invalid_op', `op must be one of ${FILTER_OPS.join(', ')}`);
  const ordered = ['gt', 'gte', 'lt', 'lte', 'between', 'multiple_of'].includes(f.op);
  if (ordered && !decimal) return err(`${at}.op`, 'invalid_op', `${f.op} needs a decimal field (${DECIMAL_FIELDS.join(', ')})`);
  const okScalar = (v: unknown) =>
    (typeof v === 'string' && (!decimal || isPlainDecimal(v))) || (isRef(v) && (has(KEY_FIELDS, v.tx) || has(DECIMAL_FIELDS, v.tx)));
  const v = f.value;
  if (f.op === 'in' || f.op === 'not_in') {
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'string'))
      err(`${at}.value`, 'invalid_value', `${f.op} needs a non-empty list of strings`);
  } else if (f.op === 'between') {
    if (!Array.isArray(v) || v.length !== 2 || !v.every(isPlainDecimal))
      err(`${at}.value`, 'invalid_value', 'between needs [low, high] decimal strings');
  } else if (f.op === 'multiple_of') {
    if (typeof v !== 'string' || !isPlainDecimal(v) || /^0(\.0*)?$/.test(v))
      err(`${at}.value`, 'invalid_value', 'multiple_of needs a positive decimal string');
  } else if (!okScalar(v)) {
    err(
      `${at}.value`,
      'invalid_value',
      decimal ? 'value must be a decimal string or {tx: field}' : 'value must be a string or {tx: field}',
    );
  }
}

function isPlainDecimal(v: unknown): boolean {
  return typeof v === 'string' && /^-?(0|[1-9][0-9]*)(\.[0-9]{1,18})?$/.test(v) && v.replace(/[-.]/g, '').length <= 30;
}
