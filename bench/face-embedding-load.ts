// How long reading enrolled face embeddings takes, per storage format, on both databases
// (npm run bench -- face-embedding-load; PostgreSQL when TEST_DATABASE_URL is set, else embedded PGlite).
// A process's first face search of a tenant reads all of its embeddings (face-index-cache.ts): the
// baseline is the old `real[]` column, measured in the same run on the same rows as the bytes column
// (migration 0017) read as the service reads it (base64) and as raw bytea.
import { loadavg } from 'node:os';
import { openDb } from '../src/platform/db.js';
import { EMBEDDING_DIMENSIONS } from '../src/engines/face/index.js';
import { embeddingFromBase64, embeddingToBase64 } from '../src/modules/checks/face/repository.js';

const N = Number(process.env.FACES ?? 10_000);
const url = process.env.TEST_DATABASE_URL;
const db = await openDb(url ? { databaseUrl: url, poolSize: 2 } : { dataDir: 'memory://' });
console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (2 cores shared); ${url ? 'PostgreSQL' : 'PGlite'}, ${N.toLocaleString('en')} faces`,
);
const table = `bench_face_load_${process.pid}`;
await db.query(`CREATE TABLE ${table} (id text PRIMARY KEY, e real[], b bytea)`);
try {
  // Seeded values in an embedding's range; the content does not change the cost of reading it.
  let seed = 11;
  const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
  const faces = Array.from({ length: N }, () => Float32Array.from({ length: EMBEDDING_DIMENSIONS }, () => rnd() * 0.08));
  for (let i = 0; i < N; i += 250) {
    const ids: string[] = [];
    const texts: string[] = [];
    for (let j = i; j < Math.min(N, i + 250); j++) {
      ids.push(`f${String(j).padStart(7, '0')}`);
      texts.push(embeddingToBase64(faces[j]!));
    }
    await db.query(`INSERT INTO ${table} (id, b) SELECT id, decode(t, 'base64') FROM unnest($1::text[], $2::text[]) AS u(id, t)`, [
      ids,
      texts,
    ]);
  }
  // The old column, with the same values.
  for (let i = 0; i < N; i += 250) {
    const ids = Array.from({ length: Math.min(250, N - i) }, (_, k) => `f${String(i + k).padStart(7, '0')}`);
    const arrays = ids.map((_, k) => `{${Array.from(faces[i + k]!).join(',')}}`);
    await db.query(`UPDATE ${table} t SET e = u.e::real[] FROM unnest($1::text[], $2::text[]) AS u(id, e) WHERE t.id = u.id`, [
      ids,
      arrays,
    ]);
  }
  await db.query(`ANALYZE ${table}`);

  const into = new Float32Array(EMBEDDING_DIMENSIONS);
  const variants: Record<string, { sql: string; decode: (v: unknown) => void }> = {
    'real[] (before 0017)': {
      sql: `SELECT id, e AS v FROM ${table} WHERE id > $1 ORDER BY id LIMIT 1000`,
      decode: (v) => into.set(v as number[]),
    },
    'bytea, raw': {
      sql: `SELECT id, b AS v FROM ${table} WHERE id > $1 ORDER BY id LIMIT 1000`,
      decode: (v) => {
        const b = v as Uint8Array;
        const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
        for (let i = 0; i < into.length; i++) into[i] = dv.getFloat32(i * 4);
      },
    },
    'bytea as base64 (the service)': {
      sql: `SELECT id, encode(b, 'base64') AS v FROM ${table} WHERE id > $1 ORDER BY id LIMIT 1000`,
      decode: (v) => embeddingFromBase64(v as string, into),
    },
  };
  const results: Record<string, number[]> = {};
  for (let round = 0; round < 2; round++) {
    for (const [name, { sql, decode }] of Object.entries(variants)) {
      const t0 = performance.now();
      let after = '';
      let n = 0;
      for (;;) {
        const rows = await db.query<{ id: string; v: unknown }>(sql, [after]);
        if (!rows.length) break;
        for (const r of rows) decode(r.v);
        n += rows.length;
        after = rows[rows.length - 1]!.id;
      }
      if (n !== N) throw new Error(`${name} read ${n} rows`);
      (results[name] ??= []).push(performance.now() - t0);
    }
  }
  const base = Math.min(...results['real[] (before 0017)']!);
  console.log('| format | read + decode all faces, ms (2 rounds) | µs per face (best) | vs real[] |\n|---|---|---|---|');
  for (const [name, ms] of Object.entries(results)) {
    const best = Math.min(...ms);
    console.log(
      `| ${name} | ${ms.map((x) => x.toFixed(0)).join(', ')} | ${((best * 1000) / N).toFixed(0)} | ${(base / best).toFixed(1)}× |`,
    );
  }
} finally {
  await db.query(`DROP TABLE ${table}`);
  await db.close();
}
console.log(
  `load average at end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
