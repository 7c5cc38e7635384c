import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { BoundedMap } from '../../platform/bounded-map.js';
import { paginate } from '../../platform/pagination.js';
import { statementOrDefer, writeOrDefer } from '../../platform/transaction.js';
import type { RuleSet as EngineRuleSet, PresummedTotals, TxRow } from '../../engines/rules/index.js';
import type { TransactionsQuery } from './schemas.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

export interface TransactionRow {
  id: string;
  reference: string;
  occurred_at: Date;
  amount: string;
  currency: string;
  direction: 'in' | 'out';
  type: string;
  channel: string | null;
  subject_reference: string;
  subject: { type?: string; country?: string };
  counterparty_key: string | null;
  account: string | null;
  wallet: string | null;
  device: string | null;
  ip: string | null;
  country: string | null;
  balance_after: string | null;
  counterparty: Record<string, string> | null;
  crypto: Record<string, string> | null;
  metadata: Record<string, string>;
  source: 'api' | 'import';
  label_suspicious: boolean | null;
  status: string | null;
  score: string | null;
  ruleset_version: number | null;
  evaluation: { rules: unknown[]; alerts: unknown[] } | null;
  created_at: Date;
}

export interface BacktestRow {
  id: string;
  state: 'queued' | 'running' | 'succeeded' | 'failed';
  ruleset: EngineRuleSet;
  ruleset_label: string;
  params: { from: string; to: string; direction: 'in' | 'out' | 'any' };
  result: Record<string, unknown> | null;
  error: string | null;
  created_by: string;
  created_at: Date;
  finished_at: Date | null;
  account_id: string;
  environment: string;
}

export type NewTransaction = Omit<TransactionRow, 'created_at'>;

/** Every column, numerics as text (exact: never through a JS number). */
const TX_COLUMNS = `id, reference, occurred_at, amount::text AS amount, currency, direction, type, channel, subject_reference, subject,
  counterparty_key, account, wallet, device, ip, country, balance_after::text AS balance_after, counterparty, crypto, metadata, source,
  label_suspicious, status, score::text AS score, ruleset_version, evaluation, created_at`;

/** The text of a subject's advisory lock (its hash with SUBJECT_LOCK_SEED): lockSubject, and the write batches' locks taken ahead. */
export function subjectLockKey(t: Tenant, subject: string): string {
  return JSON.stringify(['txn', t.accountId, t.environment, subject]);
}

/** hashtextextended's seed for subjects' advisory locks (other modules' locks use other seeds). */
const SUBJECT_LOCK_SEED = 13;

/**
 * Takes the advisory locks of these subject lock keys (subjectLockKey) in one statement, in the order of their hashes,
 * the order every process follows: a write batch's members' locks, taken before any of them runs. Returns now().
 */
export function lockSubjectsStatement(keys: readonly string[]): { sql: string; params: unknown[] } {
  return {
    sql: `SELECT count(pg_advisory_xact_lock(h)) AS n, now() AS now
            FROM (SELECT hashtextextended(k, ${SUBJECT_LOCK_SEED}) AS h FROM unnest($1::text[]) AS k ORDER BY 1) AS l`,
    params: [keys],
  };
}

/** Whether `err` is the unique violation of a transaction reference stored meanwhile (insert). */
export function isReferenceTaken(err: unknown): boolean {
  const e = err as { code?: unknown; constraint?: unknown };
  return e?.code === '23505' && e.constraint === 'transactions_reference';
}

const ASCII = /^[\x00-\x7f]*$/;

/** jsonb's key order: shorter keys first (in UTF-8 bytes), then bytewise (as PostgreSQL stores and returns an object's keys). */
function jsonbKeyOrder(a: string, b: string): number {
  if (ASCII.test(a) && ASCII.test(b)) return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length !== y.length ? x.length - y.length : Buffer.compare(x, y);
}

/**
 * An object's keys into jsonb's order, in place, from the first out of order (`from`). Few keys: an insertion sort,
 * which allocates nothing (Array.prototype.sort allocates its work arrays, and on the POST's path it sorted every rule
 * outcome's keys: about a tenth of the API's allocations under load, docs/performance.md "a slow machine").
 */
function sortKeys(keys: string[], from: number): void {
  if (keys.length > 16) {
    keys.sort(jsonbKeyOrder);
    return;
  }
  for (let i = from; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && jsonbKeyOrder(keys[j]!, k) > 0; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = k;
  }
}

/**
 * A value as a jsonb column reads back: JSON's rules (undefined and functions dropped from objects, null in
 * arrays, non-finite numbers null, toJSON applied) and jsonb's key order, without a round trip through text.
 * On the request path (the POST's answer): keys are sorted only when they are out of order.
 */
export function asJsonb(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = typeof v[i] === 'function' ? null : asJsonb(v[i]);
    return out;
  }
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return asJsonb((v as { toJSON: () => unknown }).toJSON());
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  for (let i = 1; i < keys.length; i++)
    if (jsonbKeyOrder(keys[i - 1]!, keys[i]!) > 0) {
      sortKeys(keys, i);
      break;
    }
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const x = o[k];
    if (x === undefined || typeof x === 'function') continue;
    if (k === '__proto__') Object.defineProperty(out, k, { value: asJsonb(x), enumerable: true, writable: true, configurable: true });
    else out[k] = asJsonb(x);
  }
  return out;
}

/** A group dimension of an aggregate and the column that holds it. */
export const DIM_COLUMN: Record<string, string> = {
  subject: 'subject_reference',
  counterparty: 'counterparty_key',
  account: 'account',
  wallet: 'wallet',
  device: 'device',
  ip: 'ip',
};

const HISTORY_COLUMNS = `id, (extract(epoch from occurred_at) * 1000)::float8 AS ms, amount::text AS amount, currency, direction,
  subject_reference, type, channel, country, counterparty_key, account, wallet, device, ip, balance_after::text AS balance_after`;

interface HistoryRow {
  id: string;
  ms: number;
  amount: string;
  currency: string;
  direction: 'in' | 'out';
  subject_reference: string;
  type: string | null;
  channel: string | null;
  country: string | null;
  counterparty_key: string | null;
  account: string | null;
  wallet: string | null;
  device: string | null;
  ip: string | null;
  balance_after: string | null;
}

function toTxRow(r: HistoryRow): TxRow {
  const row: TxRow = {
    id: r.id,
    occurred_at: Math.round(r.ms),
    amount: r.amount,
    currency: r.currency,
    direction: r.direction,
    subject: r.subject_reference,
  };
  if (r.type) row.type = r.type;
  if (r.channel) row.channel = r.channel;
  if (r.country) row.country = r.country;
  if (r.counterparty_key) row.counterparty = r.counterparty_key;
  if (r.account) row.account = r.account;
  if (r.wallet) row.wallet = r.wallet;
  if (r.device) row.device = r.device;
  if (r.ip) row.ip = r.ip;
  if (r.balance_after) row.counterparty_balance_after = r.balance_after;
  return row;
}

/** A rollup upsert's conflict branch: the new rows (EXCLUDED) added to the day's totals. */
const ROLLUP_ADD = `n = transaction_daily.n + EXCLUDED.n, total = transaction_daily.total + EXCLUDED.total,
         sum_sq = transaction_daily.sum_sq + EXCLUDED.sum_sq, min_amount = LEAST(transaction_daily.min_amount, EXCLUDED.min_amount),
         max_amount = GREATEST(transaction_daily.max_amount, EXCLUDED.max_amount)`;

/** A rollup read's totals over its whole days (numerics as text; min and max null when there is no row): what the engine combines. */
export type RollupTotals = PresummedTotals;

/**
 * A condition a raw-row read carries into SQL (aggregate-pushdown.ts): a whitelisted column compared with a
 * value sent as a parameter; amounts compare as numerics.
 */
export interface RowCondition {
  column: 'direction' | 'type' | 'channel' | 'country' | 'currency' | 'amount';
  op: 'eq' | 'gt' | 'gte' | 'lt' | 'lte';
  value: string;
}
/** Rows after `fromMs` that pass every condition of `where`: what one aggregate of a raw-row read can use. */
export interface RowFilter {
  fromMs: number;
  where: readonly RowCondition[];
}
const CONDITION_OPS = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const CONDITION_COLUMNS = {
  direction: 'direction',
  type: 'type',
  channel: 'channel',
  country: 'country',
  currency: 'currency',
  amount: 'amount',
} as const;

/** One read an aggregate needs: raw rows of a group in (fromMs, toMs], or rollup totals over whole days. */
export type AggregateRead =
  | {
      kind: 'history';
      dims: Record<string, string>;
      /** Only rows of this amount (numeric equality): aggregates filtered on an amount equality (aggregate-pushdown.ts). */
      amount?: string;
      /** Rows in (fromMs, toMs]; [fromMs and toMs) where the flags say so (a rollup's partial days). */
      fromMs: number;
      toMs: number;
      fromInclusive?: boolean;
      toExclusive?: boolean;
      /** Only rows that pass at least one of these (each from its own window start); all rows when absent. */
      any?: readonly RowFilter[];
    }
  | { kind: 'rollup'; subject: string; fromDay: string; toDay: string; direction: 'in' | 'out' | 'any'; currency: string | null };

/** The fields of a history row (TxRow) besides id, time and amount that a raw aggregate read can return. */
export const ROW_FIELDS = [
  'currency',
  'direction',
  'subject',
  'type',
  'channel',
  'country',
  'counterparty',
  'account',
  'wallet',
  'device',
  'ip',
  'counterparty_balance_after',
] as const;
export type RowField = (typeof ROW_FIELDS)[number];
/** A row field's column in a raw read (numerics as exact text) and the name it comes back under. */
const ROW_FIELD_SQL: Record<RowField, string> = {
  currency: 'currency',
  direction: 'direction',
  subject: 'subject_reference',
  type: 'type',
  channel: 'channel',
  country: 'country',
  counterparty: 'counterparty_key',
  account: 'account',
  wallet: 'wallet',
  device: 'device',
  ip: 'ip',
  counterparty_balance_after: 'balance_after::text AS balance_after',
};
const ROW_FIELD_NAME: Record<RowField, string> = Object.assign({}, ROW_FIELD_SQL, { counterparty_balance_after: 'balance_after' });

/** What a read's part of readMany's text depends on: never a value. */
function readShape(r: AggregateRead): string {
  if (r.kind === 'rollup') return `r${r.direction === 'any' ? '' : 'd'}${r.currency === null ? '' : 'c'}`;
  const bounds = `${r.fromInclusive ? '[' : ''}${r.toExclusive ? ')' : ''}`;
  const any = r.any?.length
    ? `(${r.any.map((f) => `${f.fromMs >= r.fromMs ? '' : '<'}${f.where.map((c) => `${c.column} ${c.op}`).join(',')}`).join('|')})`
    : '';
  return `h${Object.keys(r.dims).join(',')}${r.amount === undefined ? '' : 'a'}${bounds}${any}`;
}
/** readMany's statement texts by shape (a rule set version has a handful; bounded all the same). */
const READ_TEXTS = new BoundedMap<string, string>(500, 'use');

export const transactionRows = {
  /**
   * The id of the transaction stored under a reference, or null: POST's repeat checks (before and inside its
   * transaction) ask only this, since a repeat is rare and every POST sends both; the whole row is read when found.
   */
  async idByReference(db: Queryable, t: Tenant, reference: string): Promise<string | null> {
    const rows = await db.query<{ id: string }>(
      'SELECT id FROM transactions WHERE account_id = $1 AND environment = $2 AND reference = $3',
      [t.accountId, t.environment, reference],
    );
    return rows[0]?.id ?? null;
  },
  async get(db: Queryable, t: Tenant, id: string): Promise<TransactionRow | null> {
    const rows = await db.query<TransactionRow>(
      `SELECT ${TX_COLUMNS} FROM transactions WHERE account_id = $1 AND environment = $2 AND id = $3`,
      [t.accountId, t.environment, id],
    );
    return rows[0] ?? null;
  },

  /** When the subject's first stored transaction happened (null when none): the rule context's relationship age. */
  async firstSeen(db: Queryable, t: Tenant, subject: string): Promise<Date | null> {
    const rows = await db.query<{ first: Date | null }>(
      'SELECT min(occurred_at) AS first FROM transactions WHERE account_id = $1 AND environment = $2 AND subject_reference = $3',
      [t.accountId, t.environment, subject],
    );
    return rows[0]?.first ?? null;
  },

  /**
   * Serialises the evaluations of one subject (its aggregates are read, then its row written). Returns the
   * transaction's `now()`, i.e. the `created_at` its rows get by default (the lock is its first statement).
   */
  async lockSubject(tx: Queryable, t: Tenant, subject: string): Promise<Date> {
    // For the rest of this transaction (set_config's `true`: SET LOCAL), the statements after it are planned
    // generically and never in parallel. Measured at 2,000,000 rows without the derived indexes
    // (docs/performance.md, "KYT: custom plans at 2,000,000 rows"): the aggregate read's custom plan (each pooled
    // connection's first five executions of a prepared statement, and every execution of a text one) expected no
    // rows today, went to a Gather of parallel workers and took 9 ms to plan and 144 ms to run, against 4 ms for
    // the generic plan; 50 connections spent a whole 10-second run in those first executions (6 tx/s).
    const rows = await tx.query<{ now: Date }>(
      `SELECT pg_advisory_xact_lock(hashtextextended($1, ${SUBJECT_LOCK_SEED})), now() AS now,
         set_config('plan_cache_mode', 'force_generic_plan', true), set_config('max_parallel_workers_per_gather', '0', true)`,
      [subjectLockKey(t, subject)],
    );
    return rows[0]!.now;
  },

  /**
   * History rows sharing the given dimension values, in (fromMs, toMs] (and, when given, excluding
   * [gapFrom, gapTo): the whole days a rollup covers).
   */
  async history(
    db: Queryable,
    t: Tenant,
    dims: Record<string, string>,
    fromMs: number,
    toMs: number,
    gap?: { from: number; to: number },
  ): Promise<TxRow[]> {
    const params: unknown[] = [t.accountId, t.environment, new Date(fromMs).toISOString(), new Date(toMs).toISOString()];
    const where = ['account_id = $1', 'environment = $2', 'occurred_at > $3::timestamptz', 'occurred_at <= $4::timestamptz'];
    for (const [dim, value] of Object.entries(dims)) {
      params.push(value);
      where.push(`${DIM_COLUMN[dim]} = $${params.length}`);
    }
    if (gap) {
      params.push(new Date(gap.from).toISOString(), new Date(gap.to).toISOString());
      where.push(`NOT (occurred_at >= $${params.length - 1}::timestamptz AND occurred_at < $${params.length}::timestamptz)`);
    }
    const rows = await db.query<HistoryRow>(`SELECT ${HISTORY_COLUMNS} FROM transactions WHERE ${where.join(' AND ')}`, params);
    return rows.map(toTxRow);
  },

  /**
   * Several history and rollup reads as one statement (UNION ALL, each branch tagged with its index and
   * using its own index as before): the aggregates of one transaction cost one round trip, not one per read.
   * Raw rows carry the id, time and amount and only the `fields` asked for (what the aggregates look at: their
   * direction, currency, filters, counted field); a read's group dimensions are set from the read itself (every row
   * has them: they are its conditions). A rollup read's totals come back as one text column. Each column's
   * description is parsed for every execution and each value of every row, so fewer columns are less work on both
   * sides; the statement's text is the same object for every read of the same shape (its hash is computed once
   * where it is looked up).
   */
  async readMany(
    db: Queryable,
    t: Tenant,
    reads: readonly AggregateRead[],
    fields: readonly RowField[] = ROW_FIELDS,
  ): Promise<(TxRow[] | RollupTotals)[]> {
    if (reads.length === 0) return [];
    const params: unknown[] = [t.accountId, t.environment];
    const p = (v: unknown) => (params.push(v), `$${params.length}`);
    const cols = fields.map((f) => ROW_FIELD_SQL[f]);
    const rawColumns = `id, (extract(epoch from occurred_at) * 1000)::float8 AS ms, amount::text AS amount${cols.map((c) => `, ${c}`).join('')}`;
    const nulls = `NULL::text AS id, NULL::float8 AS ms, NULL::text AS amount${fields.map((f) => `, NULL::text AS ${ROW_FIELD_NAME[f]}`).join('')}`;
    const branches = reads.map((r, q) => {
      if (r.kind === 'rollup')
        return `SELECT ${q} AS q, ${nulls}, sum(n)::text || ' ' || sum(total)::text || ' ' || sum(sum_sq)::text || ' ' ||
          coalesce(min(min_amount)::text, '-') || ' ' || coalesce(max(max_amount)::text, '-') AS totals FROM transaction_daily
          WHERE account_id = $1 AND environment = $2 AND subject_reference = ${p(r.subject)} AND day >= ${p(r.fromDay)}::date
            AND day < ${p(r.toDay)}::date${r.direction === 'any' ? '' : ` AND direction = ${p(r.direction)}`}${
              r.currency === null ? '' : ` AND currency = ${p(r.currency)}`
            }`;
      const iso = (ms: number) => `${p(new Date(ms).toISOString())}::timestamptz`;
      // The read's own conditions, their parameters shared by its branches.
      const upper = `occurred_at ${r.toExclusive ? '<' : '<='} ${iso(r.toMs)}`;
      const dims = Object.entries(r.dims).map(([dim, value]) => `${DIM_COLUMN[dim]} = ${p(value)}`);
      // Top-level, never inside an OR: an index condition of txn_agg_<dims>_amount in the generic plan too.
      const amount = r.amount === undefined ? [] : [`amount = ${p(r.amount)}::numeric`];
      let lowerText: string | undefined;
      const readLower = () => (lowerText ??= `occurred_at ${r.fromInclusive ? '>=' : '>'} ${iso(r.fromMs)}`);
      const common = (lower: string | null) => [
        'account_id = $1',
        'environment = $2',
        ...(lower === null ? [] : [lower]),
        upper,
        ...dims,
        ...amount,
      ];
      const select = (where: string[]) =>
        `SELECT ${q} AS q, ${rawColumns}, NULL::text AS totals FROM transactions WHERE ${where.join(' AND ')}`;
      if (!r.any?.length) return select(common(readLower()));
      // One branch per filter, each with its own window and conditions at the top level (rows in several come back
      // once per branch and are counted once below): inside one OR, the generic plan of a prepared statement cannot
      // use any arm's conditions as index bounds and walked the group's longest window whole (at 2,000,000 rows, a
      // heavy subject's 30 days: 21,000 buffers, 92 ms, for 61 rows). A filter's own lower bound implies the read's
      // when its window starts no earlier (always so for the windows aggregates.ts builds).
      return r.any
        .map((f) => {
          const own = f.fromMs >= r.fromMs;
          const where = common(own ? null : readLower());
          where.splice(2, 0, `occurred_at > ${iso(f.fromMs)}`);
          for (const c of f.where) {
            if (r.amount !== undefined && c.column === 'amount' && c.op === 'eq' && c.value === r.amount) continue;
            where.push(`${CONDITION_COLUMNS[c.column]} ${CONDITION_OPS[c.op]} ${p(c.value)}${c.column === 'amount' ? '::numeric' : ''}`);
          }
          // A lower amount bound alone is closed by a bound every amount meets: the generic plan estimates a one-sided
          // range of a parameter at a third of the rows and walked the window on the time index instead (round
          // amounts, `amount >= 5000` over 30 days: 21,000 buffers, 77 ms, for 60 rows of a heavy subject), a
          // two-sided one at 0.5 %, a range of txn_agg_<dims>_amount (0.2 ms). Not an upper bound alone: amounts below
          // a threshold are most rows (most payments are small), and so closed the 24-hour `amount < 10000` read walked
          // the heavy subject's every amount (38 ms) instead of its last day on the time index.
          const amountOps = f.where.filter((c) => c.column === 'amount').map((c) => c.op);
          if (amountOps.some((o) => o === 'gt' || o === 'gte') && !amountOps.some((o) => o === 'lt' || o === 'lte' || o === 'eq'))
            where.push("amount < 'Infinity'::numeric");
          return select(where);
        })
        .join('\nUNION ALL\n');
    });
    const built = branches.join('\nUNION ALL\n');
    // The text depends on the reads' shape only (never on a value): one string per shape, so that the prepared
    // statements' lookup hashes it once, not at every transaction.
    const shape = `${fields.join(',')}|${reads.map(readShape).join(';')}`;
    let sql = READ_TEXTS.get(shape);
    if (sql === undefined) READ_TEXTS.set(shape, (sql = built));
    type Row = { q: number; id: string | null; ms: number | null; amount: string | null; totals: string | null } & Record<
      string,
      string | null
    >;
    const rows = await db.query<Row>(sql, params);
    const none: RollupTotals = { n: 0, total: '0', sumSq: '0', min: null, max: null };
    const out: (TxRow[] | RollupTotals)[] = reads.map((r) => (r.kind === 'rollup' ? none : []));
    const names = fields.map((f) => ROW_FIELD_NAME[f]);
    // A read of several filters' branches gets a row once however many of its filters it passes.
    const seen = reads.map((r) => (r.kind === 'history' && (r.any?.length ?? 0) > 1 ? new Set<string>() : null));
    for (const row of rows) {
      const q = Number(row.q);
      const read = reads[q]!;
      if (read.kind === 'rollup') {
        if (row.totals === null) continue;
        const [n, total, sumSq, lo, hi] = row.totals.split(' ') as [string, string, string, string, string];
        out[q] = { n: Number(n), total, sumSq, min: lo === '-' ? null : lo, max: hi === '-' ? null : hi };
        continue;
      }
      const once = seen[q];
      if (once) {
        if (once.has(row.id!)) continue;
        once.add(row.id!);
      }
      const tx = { id: row.id!, occurred_at: Math.round(row.ms!), amount: row.amount! } as TxRow;
      const o = tx as unknown as Record<string, string>;
      for (let i = 0; i < fields.length; i++) {
        const v = row[names[i]!];
        if (v !== null && v !== undefined && v !== '') o[fields[i]!] = v;
      }
      for (const dim in read.dims) o[dim] = read.dims[dim]!;
      (out[q] as TxRow[]).push(tx);
    }
    return out;
  },

  /**
   * Inserts a transaction created at `createdAt` (the transaction's now(): lockSubject), sent with COMMIT where
   * the transaction defers statements (nothing reads it before): a concurrent insert of the same reference fails
   * the whole transaction with a unique violation of `transactions_reference` (isReferenceTaken). Returns the row
   * as it reads back, without reading it: jsonb objects in jsonb's key order; numerics as given, since a decimal
   * without leading zeros, sign or exponent (the Money pattern; a score is a JS number's text) reads back as written.
   */
  async insert(tx: Queryable, t: Tenant, r: NewTransaction, createdAt: Date): Promise<TransactionRow> {
    await statementOrDefer(
      tx,
      `INSERT INTO transactions (id, account_id, environment, reference, occurred_at, amount, currency, direction, type, channel,
         subject_reference, subject, counterparty_key, account, wallet, device, ip, country, balance_after, counterparty, crypto, metadata,
         source, label_suspicious, status, score, ruleset_version, evaluation, created_at)
       VALUES ($1, $2, $3, $4, $5::timestamptz, $6::numeric, $7, $8, $9, $10, $11, $12::jsonb, $13, $14, $15, $16, $17, $18, $19::numeric,
         $20::jsonb, $21::jsonb, $22::jsonb, $23, $24, $25, $26, $27, $28::jsonb, $29::timestamptz)`,
      [
        r.id,
        t.accountId,
        t.environment,
        r.reference,
        r.occurred_at.toISOString(),
        r.amount,
        r.currency,
        r.direction,
        r.type,
        r.channel,
        r.subject_reference,
        JSON.stringify(r.subject),
        r.counterparty_key,
        r.account,
        r.wallet,
        r.device,
        r.ip,
        r.country,
        r.balance_after,
        r.counterparty ? JSON.stringify(r.counterparty) : null,
        r.crypto ? JSON.stringify(r.crypto) : null,
        JSON.stringify(r.metadata),
        r.source,
        r.label_suspicious,
        r.status,
        r.score,
        r.ruleset_version,
        r.evaluation ? JSON.stringify(r.evaluation) : null,
        createdAt.toISOString(),
      ],
    );
    const row: TransactionRow = Object.assign({}, r, {
      subject: asJsonb(r.subject) as TransactionRow['subject'],
      counterparty: asJsonb(r.counterparty) as TransactionRow['counterparty'],
      crypto: asJsonb(r.crypto) as TransactionRow['crypto'],
      metadata: asJsonb(r.metadata) as TransactionRow['metadata'],
      evaluation: asJsonb(r.evaluation) as TransactionRow['evaluation'],
      created_at: createdAt,
    });
    return row;
  },

  /** Adds a transaction to its subject's daily rollup (same database transaction as the insert). */
  async addToRollup(
    tx: Queryable,
    t: Tenant,
    r: { subject: string; occurredAt: Date; direction: string; currency: string; amount: string },
  ) {
    // Nothing reads the rollup inside the evaluating transaction after this: it goes with the deferred writes.
    await writeOrDefer(
      tx,
      `INSERT INTO transaction_daily (account_id, environment, subject_reference, day, direction, currency, n, total, sum_sq, min_amount, max_amount)
       VALUES ($1, $2, $3, ($4::timestamptz AT TIME ZONE 'UTC')::date, $5, $6, 1, $7::numeric, $7::numeric * $7::numeric, $7::numeric, $7::numeric)
       ON CONFLICT (account_id, environment, subject_reference, day, direction, currency)
       DO UPDATE SET ${ROLLUP_ADD}`,
      [t.accountId, t.environment, r.subject, r.occurredAt.toISOString(), r.direction, r.currency, r.amount],
    );
  },

  /**
   * Imports history in one statement (arrays unnested): rows whose reference exists are skipped. Returns
   * what was inserted, for the rollup.
   */
  async insertMany(
    tx: Queryable,
    t: Tenant,
    rows: NewTransaction[],
  ): Promise<{ subject_reference: string; day: string; direction: string; currency: string; amount: string }[]> {
    const col = <K extends keyof NewTransaction>(k: K, f: (v: NewTransaction[K]) => unknown = (v) => v) => rows.map((r) => f(r[k]));
    const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
    return tx.query(
      `INSERT INTO transactions (id, account_id, environment, reference, occurred_at, amount, currency, direction, type, channel,
         subject_reference, subject, counterparty_key, account, wallet, device, ip, country, balance_after, counterparty, crypto, metadata,
         source, label_suspicious)
       SELECT u.id, $1, $2, u.reference, u.occurred_at, u.amount, u.currency, u.direction, u.type, u.channel, u.subject_reference,
         u.subject::jsonb, u.counterparty_key, u.account, u.wallet, u.device, u.ip, u.country, u.balance_after, u.counterparty::jsonb,
         u.crypto::jsonb, u.metadata::jsonb, 'import', u.label
       FROM unnest($3::text[], $4::text[], $5::timestamptz[], $6::numeric[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[],
         $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::numeric[], $20::text[], $21::text[],
         $22::text[], $23::boolean[])
         AS u(id, reference, occurred_at, amount, currency, direction, type, channel, subject_reference, subject, counterparty_key, account,
              wallet, device, ip, country, balance_after, counterparty, crypto, metadata, label)
       ON CONFLICT (account_id, environment, reference) DO NOTHING
       RETURNING subject_reference, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, direction, currency, amount::text AS amount`,
      [
        t.accountId,
        t.environment,
        col('id'),
        col('reference'),
        col('occurred_at', (d) => d.toISOString()),
        col('amount'),
        col('currency'),
        col('direction'),
        col('type'),
        col('channel'),
        col('subject_reference'),
        col('subject', json),
        col('counterparty_key'),
        col('account'),
        col('wallet'),
        col('device'),
        col('ip'),
        col('country'),
        col('balance_after'),
        col('counterparty', json),
        col('crypto', json),
        col('metadata', json),
        col('label_suspicious'),
      ],
    );
  },

  /**
   * Adds imported rows to the daily rollup, summed per (subject, day, direction, currency) by the database
   * (exact numeric sums and sums of squares). Returns how many rollup rows it wrote.
   */
  async addManyToRollup(
    tx: Queryable,
    t: Tenant,
    rows: readonly { subject_reference: string; day: string; direction: string; currency: string; amount: string }[],
  ): Promise<number> {
    if (rows.length === 0) return 0;
    const written = await tx.query(
      `INSERT INTO transaction_daily (account_id, environment, subject_reference, day, direction, currency, n, total, sum_sq, min_amount, max_amount)
       SELECT $1, $2, u.s, u.d, u.dir, u.cur, count(*), sum(u.a), sum(u.a * u.a), min(u.a), max(u.a)
       FROM unnest($3::text[], $4::date[], $5::text[], $6::text[], $7::numeric[]) AS u(s, d, dir, cur, a)
       GROUP BY u.s, u.d, u.dir, u.cur
       ON CONFLICT (account_id, environment, subject_reference, day, direction, currency)
       DO UPDATE SET ${ROLLUP_ADD}
       RETURNING 1`,
      [
        t.accountId,
        t.environment,
        rows.map((r) => r.subject_reference),
        rows.map((r) => r.day),
        rows.map((r) => r.direction),
        rows.map((r) => r.currency),
        rows.map((r) => r.amount),
      ],
    );
    return written.length;
  },

  /** History in (occurred_at, id) order from a keyset position, for replays (backtests). */
  async historyPage(
    db: Queryable,
    t: Tenant,
    q: { fromMs: number; toMs: number; after: { ms: number; id: string } | null; limit: number },
  ): Promise<(TxRow & { label: boolean | null; reference: string })[]> {
    const params: unknown[] = [t.accountId, t.environment, new Date(q.fromMs).toISOString(), new Date(q.toMs).toISOString(), q.limit];
    let keyset = '';
    if (q.after) {
      params.push(new Date(q.after.ms).toISOString(), q.after.id);
      keyset = ' AND (occurred_at, id) > ($6::timestamptz, $7)';
    }
    const rows = await db.query<HistoryRow & { label_suspicious: boolean | null; reference: string }>(
      `SELECT ${HISTORY_COLUMNS}, label_suspicious, reference FROM transactions
       WHERE account_id = $1 AND environment = $2 AND occurred_at >= $3::timestamptz AND occurred_at < $4::timestamptz${keyset}
       ORDER BY occurred_at, id LIMIT $5`,
      params,
    );
    return rows.map((r) => Object.assign(toTxRow(r), { label: r.label_suspicious, reference: r.reference }));
  },

  async page(db: Queryable, t: Tenant, q: TransactionsQuery) {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, v: unknown) => {
      params.push(v);
      where.push(sql.replace('?', `$${params.length + 2}`));
    };
    if (q.subject_reference) add('subject_reference = ?', q.subject_reference);
    if (q.status) add('status = ?', q.status);
    if (q.direction) add('direction = ?', q.direction);
    if (q.source) add('source = ?', q.source);
    if (q.occurred_gte) add('occurred_at >= ?::timestamptz', q.occurred_gte);
    if (q.occurred_lt) add('occurred_at < ?::timestamptz', q.occurred_lt);
    return paginate<TransactionRow & Record<string, unknown>>(db, t, {
      from: 'transactions',
      columns: TX_COLUMNS,
      where,
      params,
      limit: q.limit,
      cursor: q.cursor,
      name: 'transactions',
    });
  },
};

/** Backtests (table rule_backtests). */
export const backtestRows = {
  async insert(
    tx: Queryable,
    t: Tenant,
    b: Pick<BacktestRow, 'id' | 'ruleset' | 'ruleset_label' | 'params' | 'created_by'>,
  ): Promise<BacktestRow> {
    const rows = await tx.query<BacktestRow>(
      `INSERT INTO rule_backtests (id, account_id, environment, ruleset, ruleset_label, params, created_by)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7) RETURNING *`,
      [b.id, t.accountId, t.environment, JSON.stringify(b.ruleset), b.ruleset_label, JSON.stringify(b.params), b.created_by],
    );
    return rows[0]!;
  },
  async get(db: Queryable, t: Tenant, id: string): Promise<BacktestRow | null> {
    const rows = await db.query<BacktestRow>('SELECT * FROM rule_backtests WHERE account_id = $1 AND environment = $2 AND id = $3', [
      t.accountId,
      t.environment,
      id,
    ]);
    return rows[0] ?? null;
  },
  /** Any tenant (the job carries the id only). */
  async byId(db: Queryable, id: string): Promise<BacktestRow | null> {
    const rows = await db.query<BacktestRow>('SELECT * FROM rule_backtests WHERE id = $1', [id]);
    return rows[0] ?? null;
  },
  async setState(
    db: Queryable,
    id: string,
    state: BacktestRow['state'],
    result: unknown = null,
    error: string | null = null,
  ): Promise<void> {
    await db.query(
      `UPDATE rule_backtests SET state = $2, result = coalesce($3::jsonb, result), error = $4,
         finished_at = CASE WHEN $2 IN ('succeeded', 'failed') THEN now() ELSE finished_at END WHERE id = $1`,
      [id, state, result === null ? null : JSON.stringify(result), error],
    );
  },
};

/** The derived history indexes (txn_agg_*) on transactions in the current schema (derived-indexes.ts). */
export const derivedIndexRows = {
  async list(db: Queryable): Promise<{ name: string; valid: boolean }[]> {
    return db.query<{ name: string; valid: boolean }>(
      `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i
         JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class tbl ON tbl.oid = i.indrelid
         JOIN pg_namespace n ON n.oid = tbl.relnamespace
        WHERE tbl.relname = 'transactions' AND n.nspname = current_schema() AND c.relname LIKE 'txn\\_agg\\_%'
        ORDER BY c.relname`,
    );
  },
  /** Drops one (CONCURRENTLY on PostgreSQL: no lock against writers; never inside a transaction). */
  async drop(db: Queryable, name: string, concurrently: boolean): Promise<void> {
    if (!/^txn_agg_[a-z_]+$/.test(name)) throw new Error(`not a derived index name: ${name}`);
    await db.query(`DROP INDEX ${concurrently ? 'CONCURRENTLY ' : ''}IF EXISTS ${name}`);
  },
};
