// Screening endpoint latency through the whole HTTP stack (auth, validation, list entries, screening,
// the check's transaction with usage, audit and event): `npx tsx bench/screening-http.ts [N] [SUBJECTS]`.
// Embedded PGlite in memory, app.inject (no socket), sequential requests, then 8 at a time; then the
// latency of other requests while a list update is absorbed (index rebuild + re-screen of SUBJECTS).
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDb, migrate } from '../src/platform/db.js';
import { MemoryRateLimiter } from '../src/platform/rate-limit.js';
import { createAccount } from '../src/platform/accounts.js';
import { createApiKey } from '../src/platform/api-keys.js';
import { importListFile } from '../src/modules/checks/screening/list-sync.js';
import { SCREENING_INDEX } from '../src/modules/checks/screening/index-cache.js';
import { createResources } from '../src/platform/resources.js';
import { monitoringJobHandlers } from '../src/modules/monitoring/jobs.js';
import { JobRunner } from '../src/platform/jobs.js';
import { Sealer } from '../src/platform/crypto.js';
import { dataDir, seeded, syntheticName, percentile } from './screening-data.js';

const N = Number(process.argv[2] ?? 400);
const config = loadConfig({ NODE_ENV: 'test', MASTER_KEY: '22'.repeat(32), LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '10000000' });
const db = await openDb({ dataDir: 'memory://' });
await migrate(db);
const resources = createResources(config, db);
const app = await buildApp({ config, db, rateLimiter: new MemoryRateLimiter(), keyCacheTtlMs: 60_000, resources });
await app.ready();
const account = await createAccount(db, { name: 'bench' });
const sandboxKey = (await createApiKey(db, { accountId: account.id, environment: 'sandbox' })).key;
const productionKey = (await createApiKey(db, { accountId: account.id, environment: 'production' })).key;
console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (2 cores shared); ${N} requests per run`,
);

function queries(names: string[], n: number): Record<string, unknown>[] {
  const rnd = seeded(7);
  const out: Record<string, unknown>[] = [];
  while (out.length < n) {
    const name = names[Math.floor(rnd() * names.length)]!;
    const k = out.length % 4;
    if (k === 0) out.push({ name, subject_reference: `cus_${out.length}` });
    else if (k === 1) out.push({ name: name.replace(/,/g, ' ').split(/\s+/).reverse().join(' '), date_of_birth: '1970-01-01' });
    else if (k === 2) {
      const p = Math.floor(name.length / 2);
      out.push({ name: name.slice(0, p) + (name[p] === 'a' ? 'e' : 'a') + name.slice(p + 1) });
    } else out.push({ name: syntheticName(rnd), country: 'GB' });
  }
  return out;
}

async function run(label: string, key: string, bodies: Record<string, unknown>[], parallel: number): Promise<string> {
  const one = async (body: Record<string, unknown>) => {
    const t0 = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/v1/checks/screening',
      headers: { authorization: `Bearer ${key}` },
      payload: body,
    });
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    const c = res.json();
    return {
      ms: performance.now() - t0,
      status: c.status as string,
      screen: c.timings.screen as number,
      entries: c.timings.list_entries as number,
    };
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
  return `| ${label} | ${parallel} | ${bodies.length} | ${percentile(lat, 0.5).toFixed(1)} | ${percentile(lat, 0.99).toFixed(1)} | ${(bodies.length / secs).toFixed(0)} | ${percentile(screen, 0.5).toFixed(1)} / ${percentile(screen, 0.99).toFixed(1)} | ${percentile(entries, 0.5).toFixed(1)} | ${Object.entries(
    statuses,
  )
    .map(([s, n]) => `${s} ${n}`)
    .join(', ')} |`;
}

const rows = [
  '| lists | concurrency | requests | p50 ms | p99 ms | req/s | engine p50 / p99 ms | list entries p50 ms | decisions |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---|',
];
const sandboxNames = [
  'Sandbox Sanctioned Person',
  'Sandbox Politically Exposed',
  'Sandbox Voyager',
  'Sandbox Adverse Media',
  'Sandbox Sanctioned Trading LLC',
];
await resources.get(SCREENING_INDEX).get();
rows.push(await run('sandbox (5 entities)', sandboxKey, queries(sandboxNames, N), 1));
rows.push(await run('sandbox (5 entities)', sandboxKey, queries(sandboxNames, N), 8));

const dir = dataDir();
const t0 = performance.now();
for (const [path, format] of [
  [`${dir}/sanctions/ofac_sdn_csv_2024_snapshots/sdn_2024-05-03.csv`, 'ofac_csv'],
  [`${dir}/sanctions/un_consolidated/UN_consolidated.xml`, 'un_xml'],
] as const) {
  const r = await importListFile(db, { path, format }, resources);
  if (!r.ok) throw new Error(r.error);
}
const imported = performance.now();
await resources.get(SCREENING_INDEX).get();
const built = performance.now();
// Read from the database rather than the cache: the indexes live in the screening worker (and the
// same lines run against the earlier main-thread cache for the before/after comparison).
const active = await db.query<{ id: string; entity_count: number }>(
  "SELECT id, entity_count FROM list_snapshots WHERE state = 'active' AND source <> 'sandbox' ORDER BY source",
);
const entities = active.reduce((n, s) => n + s.entity_count, 0);
console.log(
  `import (parse + store + activate) OFAC SDN 2024-05-03 + UN: ${((imported - t0) / 1000).toFixed(1)} s; index build: ${((built - imported) / 1000).toFixed(1)} s; ${entities} entities`,
);
const listed: string[] = [];
for (const s of active) {
  const rows = await db.query<{ n: string }>(
    "SELECT entity->'names'->0->>'full' AS n FROM list_snapshot_entities WHERE snapshot_id = $1 ORDER BY entity_id LIMIT 2000",
    [s.id],
  );
  listed.push(...rows.map((r) => r.n));
}
rows.push(await run(`OFAC SDN + UN (${entities} entities)`, productionKey, queries(listed, N), 1));
rows.push(await run(`OFAC SDN + UN (${entities} entities)`, productionKey, queries(listed, N), 8));
console.log(rows.join('\n'));

// Other requests while a list update is absorbed. The measured window starts once the new OFAC
// snapshot is stored and active (parsing and storing it are outside: they run wherever the import
// runs) and covers what follows in this process: the OFAC index rebuild and the screening.rescreen
// job (diff, delta index, matching of every enrolled subject). Probe: GET /v1/monitoring/alerts, which
// touches no list, one due every 10 ms. Compare with the same probe while idle.
const SUBJECTS = Number(process.argv[3] ?? 2000);
const rescreenJobs = () => new JobRunner({ db, handlers: monitoringJobHandlers(resources, () => new Sealer(config.masterKey)) }).drain();
await rescreenJobs(); // the first imports' re-screens (no subjects yet), outside any window
console.log(`enrolling ${SUBJECTS} monitored subjects …`);
for (const [i, body] of queries(listed, SUBJECTS).entries()) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/monitoring/subjects',
    headers: { authorization: `Bearer ${productionKey}` },
    payload: { ...body, subject_reference: `mon_${i}` },
  });
  if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
}
async function probe(label: string, during: () => Promise<unknown>): Promise<string> {
  // One probe request due every 10 ms, latency counted from when it was due (not from when a stalled
  // loop got round to sending it), so a stall shows up in the latencies instead of hiding between them.
  const lat: number[] = [];
  const sent: Promise<void>[] = [];
  let ended = Infinity;
  const t0 = performance.now();
  const work = during().finally(() => {
    ended = performance.now();
  });
  // Every probe due before the work ended is sent, also those a stalled loop could only send late.
  for (let i = 0; t0 + i * 10 <= ended; i++) {
    const due = t0 + i * 10;
    const wait = due - performance.now();
    // Always yield: app.inject against the embedded database can complete without returning to the event loop.
    await new Promise((r) => (wait > 0 ? setTimeout(r, wait) : setImmediate(r)));
    sent.push(
      app
        .inject({ method: 'GET', url: '/v1/monitoring/alerts?limit=5', headers: { authorization: `Bearer ${productionKey}` } })
        .then((res) => {
          if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
          lat.push(performance.now() - due);
        }),
    );
  }
  await work;
  await Promise.all(sent);
  const secs = (ended - t0) / 1000;
  lat.sort((a, b) => a - b);
  return `| ${label} | ${secs.toFixed(1)} | ${lat.length} | ${percentile(lat, 0.5).toFixed(1)} | ${percentile(lat, 0.99).toFixed(1)} | ${lat[lat.length - 1]!.toFixed(0)} |`;
}
const probes = ['| window | s | probe requests | p50 ms | p99 ms | max ms |', '|---|---:|---:|---:|---:|---:|'];
console.log('probing …');
probes.push(await probe('idle (5 s)', () => new Promise((r) => setTimeout(r, 5000))));
const update = await importListFile(
  db,
  { path: `${dir}/sanctions/ofac_sdn_csv_2024_snapshots/sdn_2024-04-25.csv`, format: 'ofac_csv' },
  resources,
);
if (!update.ok || update.unchanged) throw new Error('the OFAC 2024-04-25 snapshot did not activate');
probes.push(
  await probe(`OFAC update: index rebuild + re-screen of ${SUBJECTS} subjects`, () =>
    Promise.all([resources.get(SCREENING_INDEX).get(), rescreenJobs()]),
  ),
);
console.log(probes.join('\n'));
console.log(
  `load average at end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await app.close();
await resources.close();
await db.close();
