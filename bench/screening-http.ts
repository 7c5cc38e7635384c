// Screening endpoint latency through the whole HTTP stack (auth, validation, list entries, screening,
// the check's transaction with usage, audit and event): `npx tsx bench/screening-http.ts [N]`.
// Embedded PGlite in memory, app.inject (no socket), sequential requests, then 8 at a time.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDb, migrate } from '../src/platform/db.js';
import { MemoryRateLimiter } from '../src/platform/rate-limit.js';
import { createAccount } from '../src/platform/accounts.js';
import { createApiKey } from '../src/platform/api-keys.js';
import { importListFile } from '../src/modules/screening/list-sync.js';
import { indexCacheFor } from '../src/modules/screening/index-cache.js';
import { dataDir, seeded, syntheticName, percentile } from './screening-data.js';

const N = Number(process.argv[2] ?? 400);
const config = loadConfig({ NODE_ENV: 'test', MASTER_KEY: '22'.repeat(32), LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '10000000' });
const db = await openDb({ dataDir: 'memory://' });
await migrate(db);
const app = await buildApp({ config, db, rateLimiter: new MemoryRateLimiter(), keyCacheTtlMs: 60_000 });
await app.ready();
const account = await createAccount(db, { name: 'bench' });
const sandboxKey = (await createApiKey(db, { accountId: account.id, environment: 'sandbox' })).key;
const productionKey = (await createApiKey(db, { accountId: account.id, environment: 'production' })).key;
console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (2 cores shared); ${N} requests per run`);

function queries(names: string[], n: number): Record<string, unknown>[] {
  const rnd = seeded(7);
  const out: Record<string, unknown>[] = [];
  while (out.length < n) {
    const name = names[Math.floor(rnd() * names.length)]!;
    const k = out.length % 4;
    if (k === 0) out.push({ name, subject_reference: `cus_${out.length}` });
    else if (k === 1) out.push({ name: name.replace(/,/g, ' ').split(/\s+/).reverse().join(' '), date_of_birth: '1970-01-01' });
    else if (k === 2) { const p = Math.floor(name.length / 2); out.push({ name: name.slice(0, p) + (name[p] === 'a' ? 'e' : 'a') + name.slice(p + 1) }); }
    else out.push({ name: syntheticName(rnd), country: 'GB' });
  }
  return out;
}

async function run(label: string, key: string, bodies: Record<string, unknown>[], parallel: number): Promise<string> {
  const one = async (body: Record<string, unknown>) => {
    const t0 = performance.now();
    const res = await app.inject({ method: 'POST', url: '/v1/checks/screening', headers: { authorization: `Bearer ${key}` }, payload: body });
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    const c = res.json();
    return { ms: performance.now() - t0, status: c.status as string, screen: c.timings.screen as number, entries: c.timings.list_entries as number };
  };
  for (const b of bodies.slice(0, 30)) await one(b); // warm-up
  const lat: number[] = [];
  const screen: number[] = [];
  const entries: number[] = [];
  const statuses: Record<string, number> = {};
  const t0 = performance.now();
  for (let i = 0; i < bodies.length; i += parallel) {
    for (const r of await Promise.all(bodies.slice(i, i + parallel).map(one))) {
      lat.push(r.ms);
      screen.push(r.screen);
      entries.push(r.entries);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    }
  }
  const secs = (performance.now() - t0) / 1000;
  for (const a of [lat, screen, entries]) a.sort((x, y) => x - y);
  return `| ${label} | ${parallel} | ${bodies.length} | ${percentile(lat, 0.5).toFixed(1)} | ${percentile(lat, 0.99).toFixed(1)} | ${(bodies.length / secs).toFixed(0)} | ${percentile(screen, 0.5).toFixed(1)} / ${percentile(screen, 0.99).toFixed(1)} | ${percentile(entries, 0.5).toFixed(1)} | ${Object.entries(statuses).map(([s, n]) => `${s} ${n}`).join(', ')} |`;
}

const rows = ['| lists | concurrency | requests | p50 ms | p99 ms | req/s | engine p50 / p99 ms | list entries p50 ms | decisions |', '|---|---:|---:|---:|---:|---:|---:|---:|---|'];
const sandboxNames = ['Sandbox Sanctioned Person', 'Sandbox Politically Exposed', 'Sandbox Voyager', 'Sandbox Adverse Media', 'Sandbox Sanctioned Trading LLC'];
await indexCacheFor(db).get();
rows.push(await run('sandbox (5 entities)', sandboxKey, queries(sandboxNames, N), 1));
rows.push(await run('sandbox (5 entities)', sandboxKey, queries(sandboxNames, N), 8));

const dir = dataDir();
const t0 = performance.now();
for (const [path, format] of [[`${dir}/sanctions/ofac_sdn_csv_2024_snapshots/sdn_2024-05-03.csv`, 'ofac_csv'], [`${dir}/sanctions/un_consolidated/UN_consolidated.xml`, 'un_xml']] as const) {
  const r = await importListFile(db, { path, format });
  if (!r.ok) throw new Error(r.error);
}
const imported = performance.now();
const indexes = await indexCacheFor(db).get();
const built = performance.now();
const entities = indexes.filter((s) => s.snapshot.source !== 'sandbox').reduce((n, s) => n + s.index.entityCount, 0);
console.log(`import (parse + store + activate) OFAC SDN 2024-05-03 + UN: ${((imported - t0) / 1000).toFixed(1)} s; index build: ${((built - imported) / 1000).toFixed(1)} s; ${entities} entities`);
const listed = indexes.filter((s) => s.snapshot.source !== 'sandbox').flatMap((s) => s.index.entities().slice(0, 2000).map((e) => e.names[0]!.full));
rows.push(await run(`OFAC SDN + UN (${entities} entities)`, productionKey, queries(listed, N), 1));
rows.push(await run(`OFAC SDN + UN (${entities} entities)`, productionKey, queries(listed, N), 8));
console.log(rows.join('\n'));
console.log(`load average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
await app.close();
await db.close();
