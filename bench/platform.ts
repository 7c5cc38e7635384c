// Platform benchmark: the real service's authenticated, idempotent, audited POST and an authenticated
// GET, against two baselines measured in the same run on the same machine and database.
// Usage: npm run bench [-- platform] ; BENCH_DATABASE_URL (default postgres://127.0.0.1:5432/test),
// BENCH_SECONDS (default 10), BENCH_DBS=pglite,postgres; BENCH_BEFORE_DIR=<another checkout with node_modules>
// also measures that version's POST in the same run (an A/B on a shared machine); BENCH_CPU_PROF=<dir> writes
// a CPU profile of the API process (node --cpu-prof); BENCH_POST_ONLY=1 skips the GET run (a POST-only profile);
// BENCH_SVC_NODE_ARGS / BENCH_BEFORE_NODE_ARGS add Node options to this / the before version's API process.
import { mkdtempSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDb } from '../src/platform/db.js';
import { maintainTables } from '../src/platform/analyze.js';
import { freePort } from '../test/helpers/spawn-server.js';
import { aimLine, insertBaseline, load, loadWithCpu, table, type LoadResult, warmupNote } from './lib/load.js';
import { freshSchema, startChild, stop } from './lib/children.js';
import { firstKeys } from '../test/helpers/spawn-server.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const pgBase = process.env.BENCH_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test';
const dbs = (process.env.BENCH_DBS ?? 'pglite,postgres').split(',');
const beforeDir = process.env.BENCH_BEFORE_DIR || null;
const cpuProf = process.env.BENCH_CPU_PROF || null;
const postOnly = process.env.BENCH_POST_ONLY === '1';
/** Node options for this version's API process only (BENCH_SVC_NODE_ARGS, space-separated): an A/B of a runtime flag with BENCH_BEFORE_DIR. */
const svcNodeArgs = (process.env.BENCH_SVC_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** The same for the BENCH_BEFORE_DIR version's process (BENCH_BEFORE_NODE_ARGS): the flag in either slot. */
const beforeNodeArgs = (process.env.BENCH_BEFORE_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** The aim for the POST (issue 17): ≥ 60 % of the two-INSERT baseline, p99 < 50 ms. */
const AIM = { ratio: 60, p99: 50 };

/**
 * Refreshes planner statistics after the POST run, as autovacuum (PostgreSQL) or the worker's db.analyze job (the
 * embedded database, every minute) would, so that the GET measures the steady state. The API process runs without
 * the worker here, so on the embedded database nothing would: its list was planned as never analysed (a sort of
 * every entry instead of the page index: ~200 GETs/s against ~900). On the embedded database the database is
 * opened here (the caller stops its server first) and given the job's own `maintainTables`: the
 * modification counts it reads do not survive the server's stop, so this also measures that it sees the growth
 * from the tables' sizes.
 */
async function analyze(url: string | null, dataDir: string): Promise<void> {
  if (url) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query('ANALYZE');
    await c.end();
    return;
  }
  const db = await openDb({ dataDir });
  try {
    const { analysed } = await maintainTables(db);
    if (!analysed.some((t) => t.endsWith('.list_entries'))) throw new Error(`list_entries not analysed (${analysed.join(', ')})`);
  } finally {
    await db.close();
  }
}

async function benchDb(kind: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'verity-bench-'));
  const schema = kind === 'postgres' ? await freshSchema(pgBase) : null;
  // DATA_DIR also receives the first keys (the output is not a terminal), with PostgreSQL too.
  const dbEnv: Record<string, string> = schema ? { DATABASE_URL: schema.url, DATA_DIR: join(dir, 'svc') } : { DATA_DIR: join(dir, 'svc') };
  const rows: LoadResult[] = [];
  const loadBefore = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  try {
    const jsonPort = await freePort();
    const json = await startChild(['bench/lib/baseline-server.ts'], { BASELINE_MODE: 'json', PORT: String(jsonPort) }, /listening/);
    rows.push(await load('baseline: bare Fastify JSON GET', { url: `http://127.0.0.1:${jsonPort}/json`, seconds }));
    await stop(json.proc);

    const insert = await insertBaseline({ dataDir: join(dir, 'baseline'), databaseUrl: schema?.url, seconds });
    rows.push(insert);

    const svcEnv = (port: number) => ({
      PORT: String(port),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      MASTER_KEY: '22'.repeat(32),
      RATE_LIMIT_PER_MINUTE: '10000000',
      RUN_WORKER: process.env.BENCH_RUN_WORKER ?? 'false',
    });
    const postBody = { kind: 'email', value: 'bench@example.org', reason: 'benchmark' };
    const posts: { what: string; run: LoadResult }[] = [];

    if (beforeDir) {
      // The other version on its own fresh database, measured between the baseline and this version.
      const bSchema = kind === 'postgres' ? await freshSchema(pgBase) : null;
      const bData = join(dir, 'before');
      const bPort = await freePort();
      const before = await startChild(
        ['src/server.ts'],
        { ...(bSchema ? { DATABASE_URL: bSchema.url } : {}), DATA_DIR: bData, ...svcEnv(bPort) },
        /Verity is running[\s\S]*New key/,
        { cwd: beforeDir, nodeArgs: beforeNodeArgs },
      );
      try {
        const run = await loadWithCpu(before.proc.pid, `before (${beforeDir}): POST /v1/lists/blocklist/entries`, {
          url: `http://127.0.0.1:${bPort}/v1/lists/blocklist/entries`,
          method: 'POST',
          headers: { authorization: `Bearer ${firstKeys(bData).sandbox}` },
          freshIdempotencyKey: true,
          body: postBody,
          seconds,
        });
        rows.push(run);
        posts.push({ what: 'Before: POST', run });
      } finally {
        await stop(before.proc);
        await bSchema?.drop().catch(() => undefined);
      }
    }

    const port = await freePort();
    // The API process alone, as in a scaled deployment where workers run as their own processes: the
    // in-process worker would otherwise seal this run's audit rows on the same event loop mid-measurement.
    // The first start waits for the first keys; a restart (analyze) prints none.
    const startSvc = (ready = /Verity is running[\s\S]*New key/) =>
      startChild(['src/server.ts'], { ...dbEnv, ...svcEnv(port) }, ready, {
        nodeArgs: [...svcNodeArgs, ...(cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`] : [])],
      });
    let svc = await startSvc();
    const key = firstKeys(join(dir, 'svc')).sandbox;
    const auth = { authorization: `Bearer ${key}` };
    const post = await loadWithCpu(svc.proc.pid, 'Verity: POST /v1/lists/blocklist/entries (auth, idempotent, audited)', {
      url: `http://127.0.0.1:${port}/v1/lists/blocklist/entries`,
      method: 'POST',
      headers: auth,
      freshIdempotencyKey: true,
      body: postBody,
      seconds,
    });
    rows.push(post);
    posts.push({ what: 'Authenticated idempotent audited POST', run: post });
    // The POST run just added thousands of rows; refresh planner statistics as autovacuum (PostgreSQL)
    // or the db.analyze job (embedded) would within minutes, so the GET measures the steady state.
    if (!postOnly) {
      // The embedded database belongs to its server: stopped while the bench analyses it, started again after.
      if (!schema) await stop(svc.proc);
      await analyze(schema?.url ?? null, join(dir, 'svc'));
      if (!schema) svc = await startSvc(/Verity is running/);
      rows.push(
        await loadWithCpu(svc.proc.pid, 'Verity: GET /v1/lists/blocklist/entries?limit=10 (auth)', {
          url: `http://127.0.0.1:${port}/v1/lists/blocklist/entries?limit=10`,
          headers: auth,
          seconds,
        }),
      );
    }
    await stop(svc.proc);
    return [
      `### ${kind === 'postgres' ? 'PostgreSQL 15 (local server)' : 'PGlite (embedded)'}`,
      '',
      `Load average before the run: ${loadBefore}; after: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}.`,
      '',
      table(rows, { name: 'two-INSERT baseline', rps: insert.rps }),
      '',
      ...posts.map((p) => aimLine(p.what, p.run, insert, AIM)),
      '',
    ].join('\n');
  } finally {
    await schema?.drop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

const sections: string[] = [];
for (const kind of dbs) {
  console.error(`benchmarking on ${kind} (${seconds}s per run ${warmupNote()}, 50 connections)…`);
  sections.push(await benchDb(kind));
  // Each database's section as soon as it is measured (a long run stopped half-way keeps what it has).
  console.error(sections[sections.length - 1]);
}
const report = `## Platform (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${seconds} s per run ${warmupNote()}, 50 connections, autocannon in the benchmark process, each server in its own process)\n\n${sections.join('\n')}`;
console.log(report);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/platform.md', report);
