// KYT derived indexes: the raw-history read of an aggregate grouped by wallet over 7 days (no fixed index
// serves that grouping) for a heavy wallet and an ordinary one, on PostgreSQL, before and after the derived
// index txn_agg_wallet is built by syncDerivedIndexes (the job publishing queues). The history is written with generate_series (BENCH_HISTORY rows, default
// 2,000,000; one heavy subject holds 10 %). Times are medians of the repository's own history() call, so
// the figure is the aggregate read as the service runs it. Usage: npm run bench -- kyt-derived-indexes
import { cpus, loadavg } from 'node:os';
import { openDb, migrate } from '../src/platform/db.js';
import { transactionRows } from '../src/modules/transactions/repository.js';
import { syncDerivedIndexes } from '../src/modules/transactions/derived-indexes.js';
import { starterRuleSet } from '../src/engines/rules/index.js';
import { freshSchema } from './lib/children.js';

const rows = Number(process.env.BENCH_HISTORY ?? 2_000_000);
const pgBase = process.env.BENCH_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test';
const DAY = 86_400_000;
const T = { accountId: 'acc_bench', environment: 'sandbox' as const };

const schema = await freshSchema(pgBase);
const db = await openDb({ databaseUrl: schema.url, poolSize: 4 });
try {
  await migrate(db);
  const t0 = Date.now();
  // 5,000 ordinary subjects, one heavy subject with every 10th row; 20,000 counterparties; 360 days.
  await db.query(
    `INSERT INTO transactions (id, account_id, environment, reference, occurred_at, amount, currency, direction, type, subject_reference,
       subject, counterparty_key, wallet, source)
     SELECT 'txn_b' || g, $1, $2, 'ref_' || g, now() - (g % 360) * interval '1 day' - (g % 86400) * interval '1 second',
       (10 + g % 5000)::numeric, 'EUR', CASE WHEN g % 2 = 0 THEN 'in' ELSE 'out' END, 'transfer',
       CASE WHEN g % 10 = 0 THEN 'cus_heavy' ELSE 'cus_' || (g % 5000) END, '{}'::jsonb, 'cp_' || (g % 20000),
       CASE WHEN g % 10 = 0 THEN 'w_heavy' ELSE 'w_' || (g % 20000) END, 'import'
     FROM generate_series(1, $3::int) g`,
    [T.accountId, T.environment, rows],
  );
  await db.query('ANALYZE transactions');
  const loadS = (Date.now() - t0) / 1000;
  // A published rule set that reads the grouping: the starter library plus a wallet fan-in rule, all active.
  const rs = starterRuleSet();
  rs.aggregates.push({ key: 'wallet_senders_7d', fn: 'count_distinct', field: 'subject', window: '7d', group_by: 'wallet' });
  rs.rules = [
    ...rs.rules.map((r) => ({ ...r, status: 'active' as const })),
    { ...rs.rules[0]!, id: 'rul_wallet', key: 'wallet_fan_in', expression: 'agg.wallet_senders_7d > 5', status: 'active' },
  ];
  await db.query(
    `INSERT INTO rule_set_versions (account_id, environment, version, document, authors, published_by) VALUES ($1, $2, 1, $3::jsonb, '{a}', 'b')`,
    [T.accountId, T.environment, JSON.stringify(rs)],
  );

  const now = Date.now();
  const median = async (wallet: string, n = 15) => {
    const ms: number[] = [];
    let got = 0;
    for (let i = 0; i < n; i++) {
      const s = performance.now();
      got = (await transactionRows.history(db, T, { wallet }, now - 7 * DAY, now)).length;
      ms.push(performance.now() - s);
    }
    ms.sort((a, b) => a - b);
    return { ms: ms[Math.floor(n / 2)]!, rows: got };
  };
  const before = { heavy: await median('w_heavy'), ordinary: await median('w_17') };
  const s0 = Date.now();
  const sync = await syncDerivedIndexes(db);
  const buildS = (Date.now() - s0) / 1000;
  const after = { heavy: await median('w_heavy'), ordinary: await median('w_17') };
  const f = (x: { ms: number; rows: number }) => `${x.ms.toFixed(2)} ms (${x.rows} rows)`;
  console.log(
    `## KYT derived indexes (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})\n\n` +
      `PostgreSQL, ${rows} transactions written in ${loadS.toFixed(1)} s (heavy wallet: ${rows / 10} rows). ` +
      `Aggregate read grouped by wallet over 7 days, median of 15:\n\n` +
      `| | heavy wallet | ordinary wallet | heavy / ordinary |\n|---|---|---|---|\n` +
      `| fixed indexes only | ${f(before.heavy)} | ${f(before.ordinary)} | ${(before.heavy.ms / before.ordinary.ms).toFixed(1)}× |\n` +
      `| + derived ${sync.created.join(', ')} (built CONCURRENTLY in ${buildS.toFixed(1)} s) | ${f(after.heavy)} | ${f(after.ordinary)} | ${(after.heavy.ms / after.ordinary.ms).toFixed(1)}× |\n`,
  );
} finally {
  await db.close();
  await schema.drop();
}
