// KYT benchmark: POST /v1/transactions (aggregates + 20 active rules + store + rollup + alerts in one database
// transaction) against the two-INSERT baseline measured in the same run, on PGlite and PostgreSQL; then a
// backtest of the same rule set over the stored history (worker job).
// Usage: npm run bench -- kyt-transactions ; BENCH_SECONDS (default 10), BENCH_DBS=pglite,postgres,
// BENCH_HISTORY (imported history rows, default 50000), BENCH_SUBJECTS (ordinary subjects, default 1000), BENCH_HEAVY (heavy subjects sharing 10 % of the history,
// default 1), BENCH_LOAD=0 (import and backtest only: no load runs), BENCH_RATE (requests/s), BENCH_DATABASE_URL,
// BENCH_PIN=1 (servers on CPU 0, PostgreSQL on CPU 1: bench/lib/pin.ts), BENCH_PG_SCHED=batch (PostgreSQL under SCHED_BATCH,
// bench/lib/pin.ts), BENCH_TIMELINE=1 (with BENCH_RATE: p50/p99 per second).
import { mkdtempSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { freePort, firstKeys, runCli } from '../test/helpers/spawn-server.js';
import { insertBaseline, loadWithCpu, table, type LoadResult, warmupNote } from './lib/load.js';
import { freshSchema, startChild, stop } from './lib/children.js';
import { pinNote } from './lib/pin.js';
import {
  formatTableWrites,
  ownBackendCores,
  ownBackendTicks,
  tableWrites,
  waitForIndexes,
  walCounters,
  type TableWrites,
} from './lib/cpu.js';
import { historyLines, importHistory, publishRuleSet, type ApiCall } from './lib/kyt-setup.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const history = Number(process.env.BENCH_HISTORY ?? 50_000);
const pgBase = process.env.BENCH_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test';
const dbs = (process.env.BENCH_DBS ?? 'pglite,postgres').split(',');
/** BENCH_CPU_PROF=<dir>: a CPU profile of the API process during the load runs (node --cpu-prof). */
const cpuProf = process.env.BENCH_CPU_PROF || null;
/** BENCH_SKIP_BACKTEST=1: only the load runs (the derived indexes are still built and measured). */
const skipBacktest = process.env.BENCH_SKIP_BACKTEST === '1';
const heavyCount = Math.max(1, Number(process.env.BENCH_HEAVY ?? 1));
const withLoad = process.env.BENCH_LOAD !== '0';
/** BENCH_SKIP_UNINDEXED=1: no load runs before the derived indexes are built (the production state after a publish's sync). */
const skipUnindexed = process.env.BENCH_SKIP_UNINDEXED === '1';
const runUnindexed = withLoad && !skipUnindexed;
/**
 * BENCH_RATE=<n>: the POST runs at n requests per second in all, not as fast as they go, paced evenly and timed
 * from each request's due time (bench/lib/paced.ts): the latency at that load (the aim's p99 at half the target
 * rate). On a shared machine the CPU per transaction rises when throughput falls, so two versions compare at the
 * same rate.
 */
const rate = Number(process.env.BENCH_RATE ?? 0) || undefined;
/** BENCH_NODE_ARGS: node flags for the API process (space-separated), e.g. `--max-semi-space-size=32`. */
const serverNodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
/**
 * BENCH_BEFORE_DIR=<another checkout with node_modules>: after this version's runs on the derived indexes, this
 * version's API process, that version's and this version's again run the same two loads on the same database, each
 * without its worker (an A/B that shares one import; the worker runs in the server of the runs before).
 */
const beforeDir = process.env.BENCH_BEFORE_DIR || null;
/** A request body of a load run: the i-th request, its reference prefixed (unique per run). */
type BodyOf = (i: number, prefix: string, subject: string) => Record<string, unknown>;

/**
 * The mix every run used until 2026-11-29: amounts 100–9,099 EUR in whole euros, in and out alternating, 5,000 shared
 * counterparties. Under the starter typologies two requests in three come out `review` or worse: the expensive case.
 */
const wideBody: BodyOf = (i, prefix, subject) => ({
  reference: `${prefix}${i}`,
  occurred_at: new Date().toISOString(),
  amount: `${100 + (i % 9000)}.00`,
  currency: 'EUR',
  direction: i % 2 ? 'in' : 'out',
  subject: { reference: subject },
  counterparty: { reference: `cp_${i % 5000}`, bank_country: 'DE' },
});

/** A deterministic number in [0, 1) from the request number and a salt (mulberry32's mixing; the same in every run). */
function unit(i: number, salt: number): number {
  let x = (i * 0x9e3779b1 + salt * 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 15), x | 1);
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}

/**
 * A retail-shaped mix (added 2026-11-29, issue 13's "realistic alert rate" question): amounts 1.00–3,001.00 EUR with
 * cents, skewed small (u⁴: median about 190), 70 % outgoing, each subject paying five regular counterparties. The
 * bench prints each run's statuses: what share comes out `review` or worse is measured, not assumed.
 */
const retailBody: BodyOf = (i, prefix, subject) => ({
  reference: `${prefix}${i}`,
  occurred_at: new Date().toISOString(),
  amount: ((100 + Math.floor(unit(i, 1) ** 4 * 300_000)) / 100).toFixed(2),
  currency: 'EUR',
  direction: unit(i, 2) < 0.7 ? 'out' : 'in',
  subject: { reference: subject },
  counterparty: { reference: `cp_${subject}_${Math.floor(unit(i, 3) * 5)}`, bank_country: 'DE' },
});

const pairs: [string, (i: number) => string, BodyOf][] = [
  ['heavy mix (every 2nd on the heavy subject)', (i) => (i % 2 ? 'cus_heavy' : `cus_${i % SUBJECTS}`), wideBody],
  ['ordinary subjects', (i) => `cus_${i % SUBJECTS}`, wideBody],
  ['ordinary subjects, retail mix', (i) => `cus_${i % SUBJECTS}`, retailBody],
];
/**
 * BENCH_SUBJECTS (default 1,000): the ordinary subjects of the history and of the load. With 1,000, a run at 600 tx/s
 * gives each subject a transaction every 1.7 s, dozens inside the 24 and 48 hour windows within minutes: far denser
 * than any retail customer, so the fan-out and pass-through typologies fire on most of them. 20,000 subjects keep a
 * subject to about one transaction per half minute of load.
 */
const SUBJECTS = Number(process.env.BENCH_SUBJECTS ?? 1000);
const DAY = 86_400_000;

async function api(base: string, key: string, method: string, path: string, body?: unknown) {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** The API process under load (for the CPU split). */
let serverPid: number | undefined;

/** This run's own PostgreSQL backends (application_name = the schema), when on PostgreSQL. */
let ownBackends: { url: string; name: string } | null = null;

/**
 * A load run of POST /v1/transactions; on PostgreSQL its CPU line ends with the CPU per transaction of the API
 * process and of this run's own backends (other work on the same server is not counted there).
 */
async function loadTransactions(
  name: string,
  url: string,
  key: string,
  subjectOf: (n: number) => string,
  bodyOf: BodyOf = wideBody,
): Promise<LoadResult> {
  const prefix = `${process.pid}-${Date.now()}-`;
  const own = ownBackends;
  // Read after the warm-up, right before the measured run: the warm-up's CPU, WAL and rows are not the run's.
  type Counters = { ticks: Map<number, number>; wal: Awaited<ReturnType<typeof walCounters>>; rows: TableWrites; at: bigint };
  const read = async (o: { url: string; name: string }): Promise<Counters> => {
    const [ticks, wal, rows] = await Promise.all([ownBackendTicks(o.url, o.name), walCounters(o.url), tableWrites(o.url, o.name)]);
    return { ticks, wal, rows, at: process.hrtime.bigint() };
  };
  const start: { c?: Counters } = {};
  const r = await loadRun(name, url, key, subjectOf, bodyOf, prefix, async () => {
    if (own) start.c = await read(own);
  });
  const c0 = start.c;
  if (!own || !c0 || r.rps === 0) return r;
  const c1 = await read(own);
  const seconds = Number(c1.at - c0.at) / 1e9;
  const cores = ownBackendCores(c0.ticks, c1.ticks, seconds);
  const server = Number(/server ([0-9.]+)/.exec(r.cpu ?? '')?.[1] ?? NaN);
  const perTx = (c: number) => ((1000 * c) / r.rps).toFixed(2);
  // WAL per request (the whole server's, so only meaningful when nothing else writes): full-page images are the
  // first change of a page after a checkpoint, which on a large table's indexes is most index inserts. Until
  // 2026-11-29 the counters were read before the warm-up and divided by the measured run's requests only, so the
  // figures of 2026-11-28 and 2026-11-29 (50–65 records per transaction) held the warm-up's WAL too.
  const requests = r.rps * seconds;
  const wal = `; WAL per tx (server-wide): ${((c1.wal.bytes - c0.wal.bytes) / requests / 1024).toFixed(1)} kB, ${((c1.wal.records - c0.wal.records) / requests).toFixed(1)} records, ${((c1.wal.fpi - c0.wal.fpi) / requests).toFixed(2)} full-page images`;
  return {
    ...r,
    cpu: `${r.cpu}; own backends ${cores.toFixed(2)} cores; CPU per tx: API ${perTx(server)} ms, own PostgreSQL ${perTx(cores)} ms${wal}; rows written per tx: ${formatTableWrites(c0.rows, c1.rows, requests)}; statuses: ${await statuses(own.url, prefix)}`,
  };
}

/**
 * Before each A/B slot's load on PostgreSQL: a CHECKPOINT, so that every slot starts the same distance from one (the
 * next timed one is checkpoint_timeout away). Without it a timed checkpoint fell in the second slot in most A/Bs of
 * 2026-11-29 (1.5–2.7 full-page images per transaction there, about 0 elsewhere). It is not the whole slot effect: an
 * A/A run with it (the same code in all three slots) still gave the second slot 15 % less (docs/performance.md), so
 * compare versions by pairing runs of opposite order. Needs a superuser or pg_checkpoint; without, it says so.
 */
async function checkpoint(): Promise<void> {
  if (!ownBackends) return;
  const c = new pg.Client({ connectionString: ownBackends.url });
  await c.connect();
  try {
    await c.query('CHECKPOINT');
  } catch (err) {
    console.error(`no CHECKPOINT before the slot (${(err as Error).message}): slots may differ by where a timed checkpoint falls`);
  } finally {
    await c.end();
  }
}

/** The statuses of a run's stored transactions (warm-up included), as shares: how alert-heavy the mix was. */
async function statuses(url: string, prefix: string): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM transactions WHERE starts_with(reference, $1) GROUP BY status ORDER BY status',
      [prefix],
    );
    const all = rows.reduce((a, r) => a + r.n, 0);
    return rows.map((r) => `${r.status} ${((100 * r.n) / all).toFixed(1)} %`).join(', ');
  } finally {
    await c.end();
  }
}

async function loadRun(
  name: string,
  url: string,
  key: string,
  subjectOf: (n: number) => string,
  bodyOf: BodyOf,
  prefix: string,
  measuring?: () => Promise<void>,
): Promise<LoadResult> {
  return loadWithCpu(
    serverPid,
    name,
    {
      url,
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      seconds,
      rate,
      bodyOf: (i) => bodyOf(i, prefix, subjectOf(i)),
    },
    measuring,
  );
}

async function benchDb(kind: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'verity-bench-kyt-'));
  const schema = kind === 'postgres' ? await freshSchema(pgBase) : null;
  ownBackends = schema ? { url: schema.url, name: schema.schema } : null;
  const dbEnv: Record<string, string> = schema ? { DATABASE_URL: schema.url, DATA_DIR: join(dir, 'svc') } : { DATA_DIR: join(dir, 'svc') };
  const rows: LoadResult[] = [];
  const svcEnv = (port: number, worker: boolean) => ({
    ...dbEnv,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    MASTER_KEY: '22'.repeat(32),
    RATE_LIMIT_PER_MINUTE: '10000000',
    RUN_WORKER: worker ? 'true' : 'false',
  });
  try {
    const insert = withLoad
      ? await insertBaseline({ dataDir: join(dir, 'baseline'), databaseUrl: schema?.url, seconds })
      : ({ name: 'two-INSERT baseline (not run: BENCH_LOAD=0)', rps: 0, p50: 0, p99: 0, errors: 0, non2xx: 0 } satisfies LoadResult);
    if (withLoad) rows.push(insert);
    console.error(JSON.stringify(insert));

    const port = await freePort();
    const svc = await startChild(['src/server.ts'], svcEnv(port, false), /Verity is running[\s\S]*New key/, {
      nodeArgs: [...serverNodeArgs, ...(cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`] : [])],
    });
    serverPid = svc.proc.pid;
    const base = `http://127.0.0.1:${port}`;
    const keys = firstKeys(join(dir, 'svc'));
    const created = runCli(
      ['keys', 'create', '--account', keys.account, '--environment', 'sandbox', '--scopes', 'rules:publish', '--json'],
      dbEnv,
    );
    if (created.code !== 0) throw new Error(`keys create: ${created.stderr}`);
    const checker = JSON.parse(created.stdout.trim().split('\n').at(-1)!).key as string;
    const as =
      (key: string): ApiCall =>
      (method, path, body) =>
        api(base, key, method, path, body);
    const active = await publishRuleSet(as(keys.sandbox), as(checker));
    const t0 = Date.now();
    await importHistory(as(keys.sandbox), historyLines(history, { heavyCount, subjects: SUBJECTS }));
    const importS = (Date.now() - t0) / 1000;
    // No ANALYZE here: the import analyses the tables it filled (transactionRows.analyzeAfterBulkLoad).
    console.error(`imported ${history} rows in ${importS.toFixed(1)} s`);
    const skipped: LoadResult = {
      name: skipUnindexed ? 'not run (BENCH_SKIP_UNINDEXED=1)' : 'not run (BENCH_LOAD=0)',
      rps: 0,
      p50: 0,
      p99: 0,
      errors: 0,
      non2xx: 0,
    };
    /** A load run before the derived indexes are built, or `skipped` (BENCH_SKIP_UNINDEXED, BENCH_LOAD=0). */
    const unindexed = async (name: string, subject: (i: number) => string): Promise<LoadResult> => {
      const result = runUnindexed ? await loadTransactions(name, `${base}/v1/transactions`, keys.sandbox, subject) : skipped;
      if (runUnindexed) rows.push(result);
      console.error(JSON.stringify(result));
      return result;
    };
    const ordinary = await unindexed(`Verity: POST /v1/transactions (${active} active rules, ordinary subjects)`, pairs[1]![1]);
    const heavy = await unindexed('Verity: POST /v1/transactions (every 2nd request on the heavy subject)', pairs[0]![1]);
    await stop(svc.proc);

    // Backtest: the same rule set (version 1) over everything stored, run by the worker.
    let bt: string;
    let heavyIndexed: LoadResult | null = null;
    try {
      const port2 = await freePort();
      const svc2 = await startChild(['src/server.ts'], svcEnv(port2, true), /Verity is running/, {
        nodeArgs: [...serverNodeArgs, ...(cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`] : [])],
      });
      serverPid = svc2.proc.pid;
      try {
        const base2 = `http://127.0.0.1:${port2}`;
        // This server runs the worker: the derived-index sync queued at publish runs now (CONCURRENTLY).
        await new Promise((r) => setTimeout(r, 3000));
        // Until every build has finished (at 2,000,000 rows on a slow hour a fixed wait was not enough).
        if (ownBackends) {
          const built = await waitForIndexes(
            ownBackends.url,
            ownBackends.name,
            'txn\\_agg\\_%',
            1,
            900_000,
            'transactions.derived_indexes',
          );
          console.error(`derived indexes built after ${built.seconds.toFixed(0)} s more: ${built.names.join(', ')}`);
        } else await new Promise((r) => setTimeout(r, history / 100));
        if (withLoad)
          heavyIndexed = await loadTransactions(
            'Verity: POST /v1/transactions (every 2nd on the heavy subject; derived indexes built, worker running)',
            `${base2}/v1/transactions`,
            keys.sandbox,
            pairs[0]![1],
          );
        if (heavyIndexed) rows.push(heavyIndexed);
        console.error(JSON.stringify(heavyIndexed));
        // Ordinary subjects with the same indexes: at 2,000,000 rows an ordinary subject holds ~1,800 rows in 90 days.
        if (withLoad) {
          const ordinaryIndexed = await loadTransactions(
            `Verity: POST /v1/transactions (${active} active rules, ordinary subjects; derived indexes built, worker running)`,
            `${base2}/v1/transactions`,
            keys.sandbox,
            pairs[1]![1],
          );
          rows.push(ordinaryIndexed);
          console.error(JSON.stringify(ordinaryIndexed));
          const retail = await loadTransactions(
            `Verity: POST /v1/transactions (${active} active rules, ordinary subjects, retail mix; derived indexes built, worker running)`,
            `${base2}/v1/transactions`,
            keys.sandbox,
            pairs[2]![1],
            pairs[2]![2],
          );
          rows.push(retail);
          console.error(JSON.stringify(retail));
        }
        if (withLoad && beforeDir) {
          // A/B on the same history: this version's and the other version's API processes, each without its
          // worker, on the same database (this, before, this), each with the heavy mix and then the ordinary
          // subjects. The server above keeps running the worker for all three, so neither side's figures hold the
          // worker's share (an API with the worker in-process against one without it measured 10 % apart).
          const abRun = async (label: string, cwd?: string) => {
            const port = await freePort();
            const proc = await startChild(['src/server.ts'], svcEnv(port, false), /Verity is running/, { cwd });
            serverPid = proc.proc.pid;
            try {
              for (const [what, subject, body] of pairs) {
                await checkpoint();
                rows.push(
                  await loadTransactions(`${label}: ${what}`, `http://127.0.0.1:${port}/v1/transactions`, keys.sandbox, subject, body),
                );
              }
            } finally {
              await stop(proc.proc);
            }
          };
          await abRun('this version, API without its worker');
          await abRun(`before (${beforeDir}), API without its worker`, beforeDir);
          await abRun('this version again, API without its worker');
          serverPid = svc2.proc.pid;
        }
        if (skipBacktest) throw new Error('skipped (BENCH_SKIP_BACKTEST=1)');
        const posted = Date.now();
        const b = await api(base2, keys.sandbox, 'POST', '/v1/rules/backtest', {
          ruleset: 1,
          from: new Date(Date.now() - 100 * DAY).toISOString(),
          to: new Date(Date.now() + DAY).toISOString(),
        });
        let got = b;
        while (got.state === 'queued' || got.state === 'running') {
          await new Promise((r) => setTimeout(r, 500));
          got = await api(base2, keys.sandbox, 'GET', `/v1/rules/backtests/${b.id}`);
        }
        bt =
          got.state === 'succeeded'
            ? `${got.result.evaluated} transactions in ${(got.result.duration_ms / 1000).toFixed(1)} s (${Math.round(got.result.evaluated / (got.result.duration_ms / 1000))} tx/s; ` +
              `${((Date.now() - posted) / 1000).toFixed(1)} s from the POST to the poll that saw it done, polled every 0.5 s)`
            : `failed: ${got.error}`;
      } finally {
        await stop(svc2.proc);
      }
    } catch (e) {
      bt = `not measured: ${(e as Error).message}`;
    }
    console.error(bt);
    return (
      `### ${kind === 'postgres' ? 'PostgreSQL 15 (local server)' : 'PGlite (embedded)'}\n\n` +
      `History: ${history} imported transactions over 90 days, ${SUBJECTS} subjects plus ${heavyCount} heavy subject(s) holding 10 % (import: ${importS.toFixed(1)} s, ${Math.round(history / importS)} rows/s).\n\n` +
      (withLoad
        ? `${table(rows, { name: 'two-INSERT baseline', rps: insert.rps })}\n\n` +
          `POST /v1/transactions = ${((100 * ordinary.rps) / insert.rps).toFixed(0)} % of the two-INSERT baseline (p99 ${ordinary.p99} ms); with the heavy subject ${((100 * heavy.rps) / insert.rps).toFixed(0)} % (p99 ${heavy.p99} ms)` +
          (heavyIndexed
            ? `; with the heavy subject after the derived indexes were built ${((100 * heavyIndexed.rps) / insert.rps).toFixed(0)} % (p99 ${heavyIndexed.p99} ms).\n\n`
            : '.\n\n')
        : 'Load runs skipped (BENCH_LOAD=0).\n\n') +
      `Backtest of version 1 (${active} rules, every one evaluated) over the stored history: ${bt}.\n`
    );
  } finally {
    await schema?.drop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

const sections: string[] = [];
for (const kind of dbs) {
  console.error(`benchmarking KYT on ${kind} (${seconds}s per run ${warmupNote()}, 50 connections)…`);
  sections.push(await benchDb(kind));
}
const report = `## KYT transactions (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${seconds} s per run ${warmupNote()}, 50 connections, autocannon in the benchmark process, each server in its own process${pinNote()})\n\n${sections.join('\n')}`;
console.log(report);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/kyt-transactions.md', report);
