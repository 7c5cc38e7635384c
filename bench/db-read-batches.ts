// npm run bench -- db-read-batches: what a batch of short reads outside a transaction costs on PostgreSQL, sent on a
// pool connection (one checkout and one message each) against a pipelined connection (`queryBatch(…, { short: true })`:
// the batches made in one turn of the event loop leave in one socket write). The reads are five primary-key and
// small range reads, as the rule context's of POST /v1/transactions. CPU per batch on both sides: this process
// (the client) and the bench's own backends (application_name), read from /proc. Runs alternate, pool first.
//
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_BATCHES (20,000 per run),
// BENCH_CONCURRENCY (50 in flight), BENCH_ROUNDS (2 pairs).
import { openDb, queryBatch, type Db } from '../src/platform/db.js';
import { ownBackendCores, ownBackendTicks } from './lib/cpu.js';

const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BATCHES = Number(process.env.BENCH_BATCHES ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const NAME = 'bench_db_read_batches';
const withName = (u: string) => `${u}${u.includes('?') ? '&' : '?'}application_name=${NAME}`;

const statements = (i: number) => {
  const k = 1 + (i % 9_000);
  return [
    { sql: 'SELECT a, b FROM bench_read_batches WHERE id = $1', params: [k] },
    { sql: 'SELECT a FROM bench_read_batches WHERE id = $1 AND b = $2', params: [k + 1, k + 1] },
    { sql: 'SELECT count(*) AS n FROM bench_read_batches WHERE id BETWEEN $1 AND $2', params: [k, k + 3] },
    { sql: 'SELECT b FROM bench_read_batches WHERE id = $1', params: [k + 2] },
    { sql: 'SELECT min(b) AS m FROM bench_read_batches WHERE id = $1', params: [k + 3] },
  ];
};

async function run(db: Db, short: boolean): Promise<Record<string, unknown>> {
  const opts = short ? { short: true } : undefined;
  for (let i = 0; i < 500; i++) await queryBatch(db, statements(i), opts); // warm: texts prepared, connections open
  const pgBefore = await ownBackendTicks(url, NAME);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < BATCHES) await queryBatch(db, statements(next++), opts);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const pgCores = ownBackendCores(pgBefore, await ownBackendTicks(url, NAME), seconds);
  return {
    way: short ? 'pipelined connection (short: true)' : 'pool connection',
    batches_per_s: Math.round(BATCHES / seconds),
    client_us_per_batch: Math.round((cpu.user + cpu.system) / BATCHES),
    postgres_us_per_batch: Math.round((pgCores * seconds * 1e6) / BATCHES),
  };
}

const db = await openDb({ databaseUrl: withName(url), poolSize: 20, preparedPerConnection: 100, pipelineConnections: 8 });
try {
  await db.query('CREATE TABLE IF NOT EXISTS bench_read_batches (id int PRIMARY KEY, a text NOT NULL, b int NOT NULL)');
  await db.query("INSERT INTO bench_read_batches SELECT g, 'v' || g, g FROM generate_series(1, 10000) g ON CONFLICT DO NOTHING");
  console.log(`read batches of 5 statements, ${BATCHES} per run, ${CONCURRENCY} in flight (pool 20, 8 pipelined connections)`);
  for (let r = 0; r < ROUNDS; r++) {
    console.log(JSON.stringify(await run(db, false)));
    console.log(JSON.stringify(await run(db, true)));
  }
} finally {
  await db.query('DROP TABLE IF EXISTS bench_read_batches');
  await db.close();
}
