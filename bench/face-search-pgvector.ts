// 1:N face search on the embedded default (PGlite with pgvector's HNSW index): `npx tsx bench/face-search-pgvector.ts [N]`.
// N synthetic faces shaped like the real ones (the real faces' mean direction plus noise, as in
// bench/face-speed.ts) plus one real photo per deepface identity, the other real photos as probes.
// Reports the index build, search latency through faceEnrollments.searchVector (the service's query)
// before and after planner statistics exist, and recall against an exact scan of the same rows.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { openDb, migrate } from '../src/platform/db.js';
import { createFaceEngine } from '../src/engines/face/face-engine.js';
import { cosineSimilarity, normalizeEmbedding } from '../src/engines/face/index.js';
import { faceEnrollments } from '../src/modules/checks/face/repository.js';
import { deepfaceImage, deepfaceLabels, percentile, fmt, requireData, syntheticFaces } from './face-data.js';

requireData();
const N = Number(process.argv[2] ?? 100_000);
console.log(
  `# Face search on PGlite + pgvector HNSW, ${N.toLocaleString('en')} synthetic faces; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const labelsMap = deepfaceLabels();
const files = [...labelsMap.keys()];
const engine = createFaceEngine({ poolSize: 2 });
const real = await Promise.all(files.map(async (f) => (await engine.analyze(deepfaceImage(f))).faces[0]!.embedding));
await engine.close();
const labels = files.map((f) => labelsMap.get(f)!);
const synthetic = syntheticFaces(real);

const db = await openDb({ dataDir: 'memory://' });
await migrate(db);
if (!db.hasVector) throw new Error('this PGlite has no pgvector');
const t = { accountId: 'acct_bench', environment: 'production' as const };
const MODEL = 'bench@1';
const rows: { id: string; subject: string; v: Float32Array }[] = [];
for (let n = 0; n < N; n++) {
  const v = new Float32Array(real[0]!.length);
  synthetic.row(v);
  rows.push({ id: `fen_syn_${String(n).padStart(7, '0')}`, subject: `syn_${n}`, v });
}
const enrolled = new Set<string>();
const probes: { e: Float32Array; label: string }[] = [];
real.forEach((e, i) => {
  if (enrolled.has(labels[i]!)) probes.push({ e, label: labels[i]! });
  else {
    enrolled.add(labels[i]!);
    rows.push({ id: `fen_real_${i}`, subject: labels[i]!, v: e });
  }
});

// Bulk load as an operator's import would: rows first, then the HNSW index built once.
await db.query('DROP INDEX face_enrollments_hnsw');
let t0 = performance.now();
const vec = (v: Float32Array) => `[${Array.from(v, (x) => x.toFixed(6)).join(',')}]`;
for (let i = 0; i < rows.length; i += 1000) {
  const b = rows.slice(i, i + 1000);
  await db.query(
    `INSERT INTO face_enrollments (id, account_id, environment, subject_reference, model, embedding_vec)
     SELECT u.id, $1, $2, u.s, $3, u.v::vector FROM unnest($4::text[], $5::text[], $6::text[]) AS u(id, s, v)`,
    [t.accountId, t.environment, MODEL, b.map((r) => r.id), b.map((r) => r.subject), b.map((r) => vec(r.v))],
  );
}
const insertS = (performance.now() - t0) / 1000;
t0 = performance.now();
// The graph must fit in maintenance_work_mem (default 64 MB) or the build slows down by an order of magnitude.
await db.query(`SET maintenance_work_mem = '${Math.max(64, Math.ceil((rows.length * 4.6) / 1024) + 64)}MB'`);
await db.query('CREATE INDEX face_enrollments_hnsw ON face_enrollments USING hnsw (embedding_vec vector_cosine_ops)');
const buildS = (performance.now() - t0) / 1000;
console.log(`rows inserted in ${fmt(insertS, 1)} s; HNSW index built in ${fmt(buildS, 1)} s (${rows.length.toLocaleString('en')} rows)`);

// PGlite has no autovacuum daemon: until the db.analyze job (every 10 minutes) refreshes the statistics
// the planner believes the table is tiny and scans the tenant's rows exactly instead of using HNSW.
const stale: number[] = [];
for (const p of probes.slice(0, 10)) {
  const a = performance.now();
  await faceEnrollments.searchVector(db, t, MODEL, p.e, 10);
  stale.push(performance.now() - a);
}
stale.sort((x, y) => x - y);
console.log(
  `before statistics (plan: exact scan of the tenant's rows): p50 ${fmt(percentile(stale, 50), 1)} ms over ${stale.length} queries`,
);
t0 = performance.now();
await db.query('ANALYZE face_enrollments');
console.log(`ANALYZE face_enrollments (what the db.analyze job runs): ${fmt(performance.now() - t0, 0)} ms`);

// Exact top hits for recall, computed here over the same unit vectors.
const units = rows.map((r) => normalizeEmbedding(r.v));
const lat: number[] = [];
let hitsAbove = 0,
  foundAbove = 0,
  top1Equal = 0;
for (let round = 0; round < 5; round++) {
  for (const p of probes) {
    const a = performance.now();
    const hits = await faceEnrollments.searchVector(db, t, MODEL, p.e, 10);
    lat.push(performance.now() - a);
    if (round > 0) continue;
    const q = normalizeEmbedding(p.e);
    let best = -1,
      bestId = '';
    const above: string[] = [];
    units.forEach((u, i) => {
      const s = cosineSimilarity(q, u);
      if (s > best) {
        best = s;
        bestId = rows[i]!.id;
      }
      if (s >= 0.65) above.push(rows[i]!.id);
    });
    hitsAbove += above.length;
    foundAbove += above.filter((id) => hits.some((h) => h.enrollment_id === id)).length;
    if (hits[0]?.enrollment_id === bestId) top1Equal++;
  }
}
lat.sort((x, y) => x - y);
console.log(
  `search (k=10, ${lat.length} queries: 5 rounds over the probes): p50 ${fmt(percentile(lat, 50), 1)} ms, p99 ${fmt(percentile(lat, 99), 1)} ms`,
);
console.log(
  `recall: hits ≥ 0.65 of the exact scan found ${foundAbove}/${hitsAbove}; top-1 equal to exact for ${top1Equal}/${probes.length} probes`,
);
console.log(
  `load average at end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
await db.close();
