import { Environment } from '@marcbachmann/cel-js';
import type { AggregateDecl } from './aggregates.js';
import { isAmountFunction } from './aggregates.js';
import type { AggregateValue } from './aggregate-plan.js';
import { decimalToNumber, parseDecimal } from './decimal.js';

/**
 * The typed rule context. `money` fields arrive as decimal strings, are exposed to CEL as doubles for
 * comparisons only (sums happen in aggregates, exactly) and are reported as the original strings.
 * Every field has a default so an expression never meets a missing key: '' for unknown strings,
 * 0 for numbers, false for flags (rules should guard with e.g. `counterparty.country != ""`).
 */
type FieldType = 'string' | 'int' | 'double' | 'bool' | 'money' | 'list<string>' | 'map<string, string>' | { type: string };

export const CONTEXT_TYPES: Record<string, Record<string, FieldType>> = {
  Tx: {
    id: 'string',
    reference: 'string',
    occurred_at: 'int',
    hour: 'int',
    weekday: 'int',
    amount: 'money',
    amount_decimal: 'string',
    currency: 'string',
    direction: 'string',
    type: 'string',
    channel: 'string',
    country: 'string',
    account: 'string',
    device: 'string',
    ip: 'string',
    wallet: 'string',
    chain: 'string',
    balance_before: 'money',
    balance_after: 'money',
    balance_known: 'bool',
    metadata: 'map<string, string>',
  },
  Business: {
    registered: 'bool',
    legal_form: 'string',
    incorporation_country: 'string',
    industry: 'string',
    age_days: 'int',
  },
  Subject: {
    type: 'string',
    reference: 'string',
    kyc_decision: 'string',
    risk_band: 'string',
    country: 'string',
    relationship_days: 'int',
    pep: 'bool',
    business: { type: 'Business' },
  },
  Screening: {
    status: 'string',
    score: 'double',
    lists: 'list<string>',
    entity_ids: 'list<string>',
    datasets: 'list<string>',
    blocked: 'bool',
    matches: 'list<string>',
  },
  Counterparty: {
    reference: 'string',
    name: 'string',
    account: 'string',
    country: 'string',
    bank_country: 'string',
    wallet: 'string',
    internal: 'bool',
    screening: { type: 'Screening' },
  },
  Wallet: {
    screened: 'bool',
    address: 'string',
    chain: 'string',
    risk: 'string',
    score: 'double',
    sanctioned: 'bool',
    categories: 'list<string>',
  },
  Lists: {
    subject_allowed: 'bool',
    subject_blocked: 'bool',
    counterparty_allowed: 'bool',
    counterparty_blocked: 'bool',
    wallet_blocked: 'bool',
    ip_blocked: 'bool',
    names: 'list<string>',
  },
};

// Field lists resolved once: contexts are built per transaction on the hot path.
const FIELDS: Record<string, [string, FieldType][]> = Object.fromEntries(
  Object.entries(CONTEXT_TYPES).map(([k, v]) => [k, Object.entries(v)]),
);

/** Root variables and their types; `agg` is added per rule set. */
export const CONTEXT_VARIABLES = {
  tx: 'Tx',
  subject: 'Subject',
  counterparty: 'Counterparty',
  wallet: 'Wallet',
  lists: 'Lists',
} as const;
export type RootVariable = keyof typeof CONTEXT_VARIABLES | 'agg';

type Plain = Record<string, unknown>;
/** What the module hands in: any field may be missing; money as decimal strings; occurred_at ISO or ms. */
export interface RuleContextInput {
  tx: Plain & { amount: string; currency: string; occurred_at: string | number };
  subject?: Plain;
  counterparty?: Plain;
  wallet?: Plain;
  lists?: Plain;
  agg?: Record<string, AggregateValue>;
}

function celType(t: FieldType): string {
  return typeof t === 'object' ? t.type : t === 'money' ? 'double' : t;
}

export function aggregateCelType(d: AggregateDecl): 'int' | 'double' {
  return isAmountFunction(d.fn) ? 'double' : 'int';
}

/** Environment + one record class per type, so evaluation skips cel-js's per-call map conversion. */
export interface RuleEnvironment {
  env: Environment;
  classes: Record<string, new (o: Plain) => object>;
  aggregates: readonly AggregateDecl[];
  /** The root variables expressions may read (compile() collects paths under these). */
  roots: ReadonlySet<string>;
}

export function buildEnvironment(aggregates: readonly AggregateDecl[]): RuleEnvironment {
  const env = new Environment({ limits: { maxAstNodes: 2000, maxDepth: 64 } });
  const classes: Record<string, new (o: Plain) => object> = {};
  const record = (name: string) =>
    ({
      [name]: class {
        constructor(o: Plain) {
          Object.assign(this, o);
        }
      },
    })[name]!;
  const register = (name: string, fields: Record<string, string>) => {
    classes[name] = record(name);
    env.registerType(name, { ctor: classes[name], fields });
  };
  for (const name of ['Business', 'Screening', 'Tx', 'Subject', 'Counterparty', 'Wallet', 'Lists']) {
    const fields = Object.fromEntries(Object.entries(CONTEXT_TYPES[name]!).map(([k, t]) => [k, celType(t)]));
    register(name, fields);
  }
  register('Aggregates', Object.fromEntries(aggregates.map((a) => [a.key, aggregateCelType(a)])));
  for (const [v, t] of Object.entries(CONTEXT_VARIABLES)) env.registerVariable(v, t);
  env.registerVariable('agg', 'Aggregates');
  return { env, classes, aggregates, roots: new Set([...Object.keys(CONTEXT_VARIABLES), 'agg']) };
}

function defaultFor(t: FieldType): unknown {
  if (typeof t === 'object') return {};
  return t === 'string'
    ? ''
    : t === 'bool'
      ? false
      : t === 'int'
        ? 0
        : t === 'money'
          ? '0'
          : t === 'double'
            ? 0
            : t === 'list<string>'
              ? []
              : {};
}

/** The tx with its derived fields (seconds, hour, weekday…); throws on a bad time or amount. */
function derivedTx(t: RuleContextInput['tx']): Plain {
  const ms = typeof t.occurred_at === 'number' ? t.occurred_at : Date.parse(t.occurred_at);
  if (!Number.isFinite(ms)) throw new Error('tx.occurred_at is not a valid time');
  parseDecimal(t.amount);
  const d = new Date(ms);
  // Object.assign, not `{ ...t, occurred_at, … }`: one hidden class for every call (eslint.config.js, "spread first").
  return Object.assign({}, t, {
    occurred_at: Math.floor(ms / 1000),
    hour: d.getUTCHours(),
    weekday: d.getUTCDay(),
    amount_decimal: t.amount,
    balance_known: t.balance_before !== undefined || t.balance_after !== undefined,
  });
}

/** `input` with its aggregates replaced, the fields written out (not `{ ...input, agg }`: eslint.config.js, "spread first"). */
export function withAggregates(input: RuleContextInput, agg: RuleContextInput['agg']): RuleContextInput {
  return { tx: input.tx, subject: input.subject, counterparty: input.counterparty, wallet: input.wallet, lists: input.lists, agg };
}

/** Fills defaults and derived tx fields; the result is what values_used reports from. */
export function normalizeContext(input: RuleContextInput, aggregates: readonly AggregateDecl[]): Record<RootVariable, Plain> {
  const tx = derivedTx(input.tx);
  const fill = (type: string, o: Plain | undefined): Plain => {
    const out: Plain = {};
    for (const [k, t] of FIELDS[type]!) {
      const v = o?.[k];
      out[k] = typeof t === 'object' ? fill(t.type, v as Plain | undefined) : v === undefined || v === null ? defaultFor(t) : v;
    }
    return out;
  };
  const agg: Plain = {};
  for (const a of aggregates) agg[a.key] = input.agg?.[a.key] ?? null;
  return {
    tx: fill('Tx', tx),
    subject: fill('Subject', input.subject),
    counterparty: fill('Counterparty', input.counterparty),
    wallet: fill('Wallet', input.wallet),
    lists: fill('Lists', input.lists),
    agg,
  };
}

/** Converts a normalized context to CEL values (BigInt ints, doubles for money) in record classes. */
export function toCelContext(re: RuleEnvironment, n: Record<RootVariable, Plain>): Record<string, object> {
  const conv = (type: string, o: Plain): object => {
    const out: Plain = {};
    for (const [k, t] of FIELDS[type]!) {
      const v = o[k];
      if (typeof t === 'object') out[k] = conv(t.type, v as Plain);
      else if (t === 'int') out[k] = typeof v === 'bigint' ? v : BigInt(Math.trunc(Number(v)));
      else if (t === 'money') out[k] = decimalToNumber(v as string);
      else if (t === 'double') out[k] = Number(v);
      else out[k] = v;
    }
    return new re.classes[type]!(out);
  };
  const agg: Plain = {};
  for (const a of re.aggregates) {
    const v = n.agg[a.key] as AggregateValue;
    // An empty window has no avg/min/max/stddev: exposed as 0 (guard with a count aggregate), reported as null.
    agg[a.key] = aggregateCelType(a) === 'int' ? BigInt(v ?? 0) : v === null ? 0 : decimalToNumber(String(v));
  }
  return {
    tx: conv('Tx', n.tx),
    subject: conv('Subject', n.subject),
    counterparty: conv('Counterparty', n.counterparty),
    wallet: conv('Wallet', n.wallet),
    lists: conv('Lists', n.lists),
    agg: new re.classes.Aggregates!(agg),
  };
}

/**
 * toCelContext(normalizeContext(input)) in one pass, for callers that do not report values_used (replays):
 * no intermediate normalized objects, and a root the input leaves out (a replay has no wallet or lists) is one
 * shared all-defaults record per environment (CEL never writes to its context). Same values: tested against
 * the two-step path.
 */
export function celContextOf(re: RuleEnvironment, input: RuleContextInput): Record<string, object> {
  const tx = derivedTx(input.tx);
  const agg: Plain = {};
  for (const a of re.aggregates) {
    const v = input.agg?.[a.key] ?? null;
    agg[a.key] = aggregateCelType(a) === 'int' ? BigInt(v ?? 0) : v === null ? 0 : decimalToNumber(String(v));
  }
  return {
    tx: celRecord(re, 'Tx', tx),
    subject: celRecord(re, 'Subject', input.subject),
    counterparty: celRecord(re, 'Counterparty', input.counterparty),
    wallet: celRecord(re, 'Wallet', input.wallet),
    lists: celRecord(re, 'Lists', input.lists),
    agg: new re.classes.Aggregates!(agg),
  };
}

const defaultRecords = new WeakMap<RuleEnvironment, Map<string, object>>();

function celRecord(re: RuleEnvironment, type: string, o: Plain | undefined): object {
  if (o === undefined) {
    let m = defaultRecords.get(re);
    if (!m) defaultRecords.set(re, (m = new Map()));
    let r = m.get(type);
    if (!r) m.set(type, (r = buildRecord(re, type, undefined)));
    return r;
  }
  return buildRecord(re, type, o);
}

function buildRecord(re: RuleEnvironment, type: string, o: Plain | undefined): object {
  // Fields set on the record itself, in the order toCelContext's Object.assign gives them (one object, not two).
  const out = new re.classes[type]!({}) as Plain;
  for (const [k, t] of FIELDS[type]!) {
    const raw = o?.[k];
    if (typeof t === 'object') {
      out[k] = celRecord(re, t.type, raw === undefined || raw === null ? undefined : (raw as Plain));
      continue;
    }
    const v = raw === undefined || raw === null ? defaultFor(t) : raw;
    if (t === 'int') out[k] = typeof v === 'bigint' ? v : BigInt(Math.trunc(Number(v)));
    else if (t === 'money') out[k] = decimalToNumber(v as string);
    else if (t === 'double') out[k] = Number(v);
    else out[k] = v;
  }
  return out;
}
