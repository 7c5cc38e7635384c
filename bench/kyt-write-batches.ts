// npm run bench -- kyt-write-batches: what the writes of an evaluated transaction cost PostgreSQL when each
// transaction commits on its own (as POST /v1/transactions does today) against several subjects' writes committed
// together as multi-row statements (the "set-based writes across requests" of issue 13, not built): the ceiling such
// a change could reach, measured before building it.
//
// The writes are those of the retail mix, where 97 % of transactions raise no alert: the subject's advisory lock, the
// transaction's row (with a 22-rule evaluation of about 4 kB of jsonb), the daily rollup's upsert and the usage row.
// `single`: one database transaction each, through withTransaction as the service does (the row with COMMIT, the
// rollup and usage combined into one deferred statement). `K together`: K transactions of K distinct subjects in one
// withTransaction, the K locks in one statement (in key order), then each written with the same calls as `single`,
// all sent with the one COMMIT. `K as multi-row statements`: the same K with one multi-row INSERT for the rows, one
// statement for the rollup upserts and usage rows, COMMIT. Both into a table holding BENCH_HISTORY rows already (its indexes at a
// realistic depth). Runs alternate; CPU per transaction of this process and of the bench's own backends, from /proc.
//
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_HISTORY (200,000), BENCH_TX (transactions
// per run, 20,000), BENCH_CONCURRENCY (transactions in flight, 50), BENCH_BATCHES (K values, "8,32"), BENCH_ROUNDS (2).
import { openDb, migrate, type Db, type Queryable } from '../src/platform/db.js';
import { systemContext } from '../src/platform/context.js';
import { newId } from '../src/platform/ids.js';
import { withTransaction } from '../src/platform/transaction.js';
import { recordUsage } from '../src/platform/usage.js';
import { lockSubjectsStatement, subjectLockKey, transactionRows, type NewTransaction } from '../src/modules/transactions/repository.js';
import { ownBackendCores, ownBackendTicks } from './lib/cpu.js';
import { freshSchema } from './lib/children.js';

const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const HISTORY = Number(process.env.BENCH_HISTORY ?? 200_000);
const TX = Number(process.env.BENCH_TX ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const BATCHES = (process.env.BENCH_BATCHES ?? '8,32').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SUBJECTS = 20_000;

/** An evaluation shaped as the service stores one: 22 rules, each with its outcome and the values it used. */
const evaluation = {
  rules: Array.from({ length: 22 }, (_, i) => ({
    rule_id: `rul_${String(i).padStart(26, '0')}`,
    key: `rule_${i}`,
    version: 1,
    outcome: 'no_hit',
    score: 0,
    values_used: { 'tx.amount': '186.12', 'tx.direction': 'out', [`agg.window_${i}`]: i * 3, 'subject.relationship_days': 400 },
  })),
  alerts: [],
};

let seq = 0;
function row(subject: string): NewTransaction {
  const n = ++seq;
  const amount = ((100 + ((n * 7919) % 300_000)) / 100).toFixed(2);
  return {
    id: newId('transaction'),
    reference: `wb_${process.pid}_${n}`,
    occurred_at: new Date(),
    amount,
    currency: 'EUR',
    direction: n % 10 < 7 ? 'out' : 'in',
    type: 'transfer',
    channel: null,
    subject_reference: subject,
    subject: {},
    counterparty_key: `cp_${subject}_${n % 5}`,
    account: null,
    wallet: null,
    device: null,
    ip: null,
    country: 'DE',
    balance_after: null,
    counterparty: { reference: `cp_${subject}_${n % 5}`, bank_country: 'DE' },
    crypto: null,
    metadata: {},
    source: 'api',
    label_suspicious: null,
    status: 'approved',
    score: '0',
    ruleset_version: 1,
    evaluation,
  };
}

const subjectOf = (i: number) => `cus_${i % SUBJECTS}`;

/** The subjects' advisory locks, in one statement as the service's write batches take them. */
const lockAll = (ctx: ReturnType<typeof systemContext>, rows: NewTransaction[]) =>
  lockSubjectsStatement(rows.map((r) => subjectLockKey(ctx, r.subject_reference)));

/** One transaction's writes in its own database transaction, as createTransaction sends them. */
const single = (db: Db, ctx: ReturnType<typeof systemContext>, r: NewTransaction) => together(db, ctx, [r]);

/**
 * Transactions of distinct subjects in one database transaction (one of them: `single`), each written with the calls
 * createTransaction makes (one INSERT each, the rollups and usage rows deferred into one combined statement), all sent
 * with the one COMMIT: for K, what running several requests' write steps inside one withTransaction would give
 * without any new SQL.
 */
async function together(db: Db, ctx: ReturnType<typeof systemContext>, rows: NewTransaction[]): Promise<void> {
  await withTransaction({ ...ctx, db }, async (tx) => {
    const locks = lockAll(ctx, rows);
    const [lock] = await tx.query<{ now: Date }>(locks.sql, locks.params);
    for (const r of rows) {
      await transactionRows.insert(tx, ctx, r, lock!.now);
      await transactionRows.addToRollup(tx, ctx, {
        subject: r.subject_reference,
        occurredAt: r.occurred_at,
        direction: r.direction,
        currency: r.currency,
        amount: r.amount,
      });
      await recordUsage(tx, ctx, 'transactions', 'evaluation', r.id);
    }
  });
}

/** K transactions of distinct subjects in one database transaction, as multi-row statements. */
async function batch(db: Db, ctx: ReturnType<typeof systemContext>, rows: NewTransaction[]): Promise<void> {
  const col = <T>(f: (r: NewTransaction) => T) => rows.map(f);
  await db.transaction(async (tx: Queryable) => {
    const locks = lockAll(ctx, rows);
    await tx.query(locks.sql, locks.params);
    await tx.query(
      `INSERT INTO transactions (id, account_id, environment, reference, occurred_at, amount, currency, direction, type, subject_reference,
         subject, counterparty_key, country, counterparty, metadata, source, status, score, ruleset_version, evaluation)
       SELECT u.id, $1, $2, u.reference, u.occurred_at, u.amount, u.currency, u.direction, u.type, u.subject_reference, '{}'::jsonb,
         u.counterparty_key, u.country, u.counterparty::jsonb, '{}'::jsonb, 'api', 'approved', 0, 1, u.evaluation::jsonb
       FROM unnest($3::text[], $4::text[], $5::timestamptz[], $6::numeric[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[],
         $12::text[], $13::text[], $14::text[])
         AS u(id, reference, occurred_at, amount, currency, direction, type, subject_reference, counterparty_key, country, counterparty, evaluation)`,
      [
        ctx.accountId,
        ctx.environment,
        col((r) => r.id),
        col((r) => r.reference),
        col((r) => r.occurred_at.toISOString()),
        col((r) => r.amount),
        col((r) => r.currency),
        col((r) => r.direction),
        col((r) => r.type),
        col((r) => r.subject_reference),
        col((r) => r.counterparty_key),
        col((r) => r.country),
        col((r) => JSON.stringify(r.counterparty)),
        col((r) => JSON.stringify(r.evaluation)),
      ],
    );
    await tx.query(
      `WITH r AS (
         INSERT INTO transaction_daily (account_id, environment, subject_reference, day, direction, currency, n, total, sum_sq, min_amount, max_amount)
         SELECT $1, $2, u.s, (u.at AT TIME ZONE 'UTC')::date, u.dir, u.cur, 1, u.a, u.a * u.a, u.a, u.a
         FROM unnest($3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::numeric[]) AS u(s, at, dir, cur, a)
         ON CONFLICT (account_id, environment, subject_reference, day, direction, currency)
         DO UPDATE SET n = transaction_daily.n + EXCLUDED.n, total = transaction_daily.total + EXCLUDED.total,
           sum_sq = transaction_daily.sum_sq + EXCLUDED.sum_sq, min_amount = LEAST(transaction_daily.min_amount, EXCLUDED.min_amount),
           max_amount = GREATEST(transaction_daily.max_amount, EXCLUDED.max_amount))
       INSERT INTO usage_records (id, account_id, environment, module, operation, resource_id, quantity, period)
       SELECT u.id, $1, $2, 'transactions', 'evaluation', u.rid, 1, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM')
       FROM unnest($8::text[], $9::text[]) AS u(id, rid)`,
      [
        ctx.accountId,
        ctx.environment,
        col((r) => r.subject_reference),
        col((r) => r.occurred_at.toISOString()),
        col((r) => r.direction),
        col((r) => r.currency),
        col((r) => r.amount),
        col(() => newId('usage')),
        col((r) => r.id),
      ],
    );
  });
}

let urlOf = '';
let appName = '';

const schema = await freshSchema(base);
urlOf = schema.url;
appName = schema.schema;
// As the service opens it by default (src/config.ts): 20 pooled connections, 100 prepared statements each.
const db = await openDb({ databaseUrl: schema.url, poolSize: 20, preparedPerConnection: 100 });
try {
  await migrate(db);
  const ctx = systemContext(db, 'acct_bench_write_batches', 'sandbox');
  // History: rows spread over 90 days, so the indexes are as deep as a warm deployment's.
  await db.query(
    `INSERT INTO transactions (id, account_id, environment, reference, occurred_at, amount, currency, direction, type, subject_reference,
       subject, counterparty_key, country, metadata, source)
     SELECT 'txn_hist_' || g, $1, $2, 'hist_' || g, now() - (g % 7776000) * interval '1 second', (g % 300000) / 100.0 + 1, 'EUR',
       CASE WHEN g % 2 = 0 THEN 'in' ELSE 'out' END, 'transfer', 'cus_' || (g % ${SUBJECTS}), '{}'::jsonb, 'cp_' || (g % 5000), 'DE', '{}'::jsonb, 'import'
     FROM generate_series(1, $3::int) AS g`,
    [ctx.accountId, ctx.environment, HISTORY],
  );
  await db.query('ANALYZE transactions');
  await db.query('CHECKPOINT').catch(() => undefined);

  let cursor = 0;
  const singleWork = async () => {
    if (cursor >= TX) return 0;
    const i = cursor++;
    await single(db, ctx, row(subjectOf(i)));
    return 1;
  };
  const batchWork = (k: number, write: typeof batch) => async () => {
    if (cursor >= TX) return 0;
    const start = cursor;
    cursor = Math.min(TX, cursor + k);
    const rows = [];
    for (let i = start; i < cursor; i++) rows.push(row(subjectOf(i)));
    await write(db, ctx, rows);
    return rows.length;
  };
  // Warm: connections open, statements prepared.
  for (let i = 0; i < 200; i++) await single(db, ctx, row(subjectOf(i)));
  await batch(db, ctx, [row('cus_warm_1'), row('cus_warm_2')]);
  await together(db, ctx, [row('cus_warm_3'), row('cus_warm_4')]);

  const lines: string[] = [];
  const runOne = async (name: string, work: () => Promise<number>, inFlight: number) => {
    cursor = 0;
    const line = await measureRun(name, work, inFlight);
    console.error(line);
    lines.push(line);
  };
  for (let r = 0; r < ROUNDS; r++) {
    await runOne('single (one database transaction each, as today)', singleWork, CONCURRENCY);
    for (const k of BATCHES) {
      const inFlight = Math.max(2, Math.round(CONCURRENCY / k));
      await runOne(`${k} subjects together (the same statements, one COMMIT)`, batchWork(k, together), inFlight);
      await runOne(`${k} subjects as multi-row statements`, batchWork(k, batch), inFlight);
    }
  }
  // Every run wrote what it says (a bench of writes that silently wrote nothing would flatter the batches).
  const [written] = await db.query<{ n: number; usage: number }>(
    "SELECT (SELECT count(*)::int FROM transactions WHERE source = 'api') AS n, (SELECT count(*)::int FROM usage_records) AS usage",
  );
  const expected = 200 + 4 + ROUNDS * TX * (1 + 2 * BATCHES.length);
  if (written!.n !== expected || written!.usage !== expected)
    throw new Error(`expected ${expected} transactions and usage rows, found ${written!.n} and ${written!.usage}`);
  console.log(
    `## KYT write batches (${new Date().toISOString().slice(0, 10)}, ${HISTORY} history rows, ${TX} transactions per run, ${CONCURRENCY} in flight)\n\n` +
      `| run | tx/s | client CPU per tx ms | own PostgreSQL CPU per tx ms | seconds |\n|---|---:|---:|---:|---:|\n${lines.join('\n')}\n`,
  );
} finally {
  await db.close();
  await schema.drop();
}

/** Runs `work` from `inFlight` loops until the run's transactions are written; CPU per transaction of both sides. */
async function measureRun(name: string, work: () => Promise<number>, inFlight: number): Promise<string> {
  const before = await ownBackendTicks(urlOf, appName);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let n = await work(); n > 0; n = await work()) done += n;
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const backends = ownBackendCores(before, await ownBackendTicks(urlOf, appName), seconds);
  const perTx = (cores: number) => ((1000 * cores * seconds) / done).toFixed(3);
  const client = (cpu.user + cpu.system) / 1e6 / seconds;
  return `| ${name} | ${Math.round(done / seconds)} | ${perTx(client)} | ${perTx(backends)} | ${seconds.toFixed(1)} |`;
}
