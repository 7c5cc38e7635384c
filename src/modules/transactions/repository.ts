import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { paginate } from '../../platform/pagination.js';
import type { TxRow } from '../../engines/rules/index.js';
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

export type NewTransaction = Omit<TransactionRow, 'created_at'>;

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

export const transactionRows = {
  async byReference(db: Queryable, t: Tenant, reference: string): Promise<TransactionRow | null> {
    const rows = await db.query<TransactionRow>(
      'SELECT * FROM transactions WHERE account_id = $1 AND environment = $2 AND reference = $3',
      [t.accountId, t.environment, reference],
    );
    return rows[0] ?? null;
  },
  async get(db: Queryable, t: Tenant, id: string): Promise<TransactionRow | null> {
    const rows = await db.query<TransactionRow>('SELECT * FROM transactions WHERE account_id = $1 AND environment = $2 AND id = $3', [
      t.accountId,
      t.environment,
      id,
    ]);
    return rows[0] ?? null;
  },

  /** Serialises the evaluations of one subject (its aggregates are read, then its row written). */
  async lockSubject(tx: Queryable, t: Tenant, subject: string): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 13))', [
      JSON.stringify(['txn', t.accountId, t.environment, subject]),
    ]);
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

  /** Rollup totals of a subject over whole days [fromDay, toDay) (YYYY-MM-DD), one direction or both, one currency or all. */
  async rollup(
    db: Queryable,
    t: Tenant,
    q: { subject: string; fromDay: string; toDay: string; direction: 'in' | 'out' | 'any'; currency: string | null },
  ): Promise<{ n: number; total: string }> {
    const rows = await db.query<{ n: string | null; total: string | null }>(
      `SELECT sum(n)::text AS n, sum(total)::text AS total FROM transaction_daily
       WHERE account_id = $1 AND environment = $2 AND subject_reference = $3 AND day >= $4::date AND day < $5::date
         AND ($6::text = 'any' OR direction = $6) AND ($7::text IS NULL OR currency = $7)`,
      [t.accountId, t.environment, q.subject, q.fromDay, q.toDay, q.direction, q.currency],
    );
    return { n: Number(rows[0]?.n ?? 0), total: rows[0]?.total ?? '0' };
  },

  /** Inserts a transaction; null when its reference exists already (a concurrent repeat). */
  async insert(tx: Queryable, t: Tenant, r: NewTransaction): Promise<TransactionRow | null> {
    const rows = await tx.query<TransactionRow>(
      `INSERT INTO transactions (id, account_id, environment, reference, occurred_at, amount, currency, direction, type, channel,
         subject_reference, subject, counterparty_key, account, wallet, device, ip, country, balance_after, counterparty, crypto, metadata,
         source, label_suspicious, status, score, ruleset_version, evaluation)
       VALUES ($1, $2, $3, $4, $5::timestamptz, $6::numeric, $7, $8, $9, $10, $11, $12::jsonb, $13, $14, $15, $16, $17, $18, $19::numeric,
         $20::jsonb, $21::jsonb, $22::jsonb, $23, $24, $25, $26, $27, $28::jsonb)
       ON CONFLICT (account_id, environment, reference) DO NOTHING RETURNING *`,
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
      ],
    );
    return rows[0] ?? null;
  },

  /** Adds a transaction to its subject's daily rollup (same database transaction as the insert). */
  async addToRollup(
    tx: Queryable,
    t: Tenant,
    r: { subject: string; occurredAt: Date; direction: string; currency: string; amount: string },
  ) {
    await tx.query(
      `INSERT INTO transaction_daily (account_id, environment, subject_reference, day, direction, currency, n, total)
       VALUES ($1, $2, $3, ($4::timestamptz AT TIME ZONE 'UTC')::date, $5, $6, 1, $7::numeric)
       ON CONFLICT (account_id, environment, subject_reference, day, direction, currency)
       DO UPDATE SET n = transaction_daily.n + 1, total = transaction_daily.total + EXCLUDED.total`,
      [t.accountId, t.environment, r.subject, r.occurredAt.toISOString(), r.direction, r.currency, r.amount],
    );
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
      where,
      params,
      limit: q.limit,
      cursor: q.cursor,
      name: 'transactions',
    });
  },
};
