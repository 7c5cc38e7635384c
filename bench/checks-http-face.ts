// Latency of the face check endpoints through the whole HTTP stack (auth, validation, base64 decode,
// engine, sealing, one transaction with usage/audit/outbox) next to the engine call alone, so the
// HTTP overhead is visible. Calls alternate (engine, HTTP, engine, …) so both see the same load.
// Usage: npx tsx bench/checks-http-face.ts [iterations=20]   (TEST_DATABASE_URL for PostgreSQL)
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createTestApp } from '../test/helpers/test-app.js';
import { sharedDataDir } from '../test/fixtures/documents/shared-data.js';
import { FACE_ENGINE } from '../src/modules/checks/face/engine.js';
import { percentile, lagProbe } from './lib/stats.js';

const N = Number(process.argv[2] ?? 20);
const data = sharedDataDir();
if (!data) throw new Error('../shared/data is needed for this bench');
const dir = `${data}/faces/deepface_subset/images/`;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.jpg'))
  .sort();
const img = (f: string) => readFileSync(dir + f);
const selfie = img('img5.jpg');
const other = img('img6.jpg');
const live = readFileSync(`${data}/faces/antispoof_minivision/image_T1.jpg`);

const t = await createTestApp();
const o = await t.tenant({ rateLimitPerMinute: 1_000_000 });
const engine = t.resources.get(FACE_ENGINE);
await engine.info(); // models loaded before timing

// Enrol every labelled photo as its own subject: the search runs over 50 real faces.
for (const f of files) {
  const r = await t.call('POST', '/v1/checks/face-search/enrollments', {
    key: o.sandboxKey,
    body: { image: img(f).toString('base64'), subject_reference: `sub_${f}` },
  });
  if (r.statusCode !== 201) console.error(`enrol ${f}: ${r.statusCode}`);
}

interface Case {
  name: string;
  engine: () => Promise<unknown>;
  url: string;
  body: Record<string, unknown>;
}
const b64 = (b: Buffer) => b.toString('base64');
const cases: Case[] = [
  { name: 'liveness (1 frame)', engine: () => engine.liveness([live]), url: '/v1/checks/liveness', body: { image: b64(live) } },
  {
    name: 'face-match (two photos)',
    engine: () => engine.match(selfie, other),
    url: '/v1/checks/face-match',
    body: { selfie: b64(selfie), reference: b64(other), reference_type: 'selfie' },
  },
  {
    name: 'age-estimation',
    engine: () => engine.estimateAge(selfie, { minimumAge: 18 }),
    url: '/v1/checks/age-estimation',
    body: { image: b64(selfie), minimum_age: 18 },
  },
  {
    name: `face-search (${files.length} enrolled, k=10)`,
    engine: () => engine.embed(other),
    url: '/v1/checks/face-search',
    body: { image: b64(other) },
  },
];

const pct = percentile;
const fmt = (x: number) => x.toFixed(0);

console.log(
  `db=${t.db.kind}${t.db.hasVector ? '+pgvector' : ''} iterations=${N} load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log('| endpoint | engine p50 / p99 ms | HTTP p50 / p99 ms | overhead p50 ms | event-loop delay max ms |');
console.log('|---|---|---|---|---|');
for (const c of cases) {
  const eng: number[] = [];
  const http: number[] = [];
  let lagMax = 0;
  for (let i = 0; i < N + 2; i++) {
    let s = performance.now();
    await c.engine();
    const e = performance.now() - s;
    s = performance.now();
    // The stall is measured during the HTTP call only (the engine-alone call may run on this thread).
    const probe = i >= 2 ? lagProbe() : null;
    const res = await t.call('POST', c.url, { key: o.sandboxKey, body: c.body });
    const h = performance.now() - s;
    if (probe) lagMax = Math.max(lagMax, probe());
    if (res.statusCode !== 200) throw new Error(`${c.url}: ${res.statusCode} ${res.body}`);
    if (i >= 2) {
      eng.push(e);
      http.push(h);
    } // two warm-up rounds
  }
  console.log(
    `| ${c.name} | ${fmt(pct(eng, 50))} / ${fmt(pct(eng, 99))} | ${fmt(pct(http, 50))} / ${fmt(pct(http, 99))} | ${fmt(pct(http, 50) - pct(eng, 50))} | ${fmt(lagMax)} |`,
  );
}
console.log(
  `load average after: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
await t.close();
