import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../../../platform/db.js';
import { newId } from '../../../platform/ids.js';
import { createTestDb } from '../../../../test/helpers/test-db.js';
import { cosineSimilarity, EMBEDDING_DIMENSIONS } from '../../../engines/face/index.js';
import { embeddingDimensions, embeddingModelKey, FaceIndexCache } from './face-index-cache.js';
import { embeddingFromBase64, embeddingToBase64, faceEnrollments } from './repository.js';

let db: Db;
let closeDb: () => Promise<void>;
// The in-process index serves databases without pgvector; on one that has it, the vector column is
// simply left empty here (keeping 1,500 HNSW inserts out of the test's time).
const vector = false;
before(async () => {
  ({ db, close: closeDb } = await createTestDb());
});
after(() => closeDb());

const MODEL = 'test-model@1';

/** Seeded unit-ish vectors: a shared mean direction plus noise, so unrelated faces score like real ones (~0.4–0.5). */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}
const rnd = seeded(7);
const mean = Float32Array.from({ length: EMBEDDING_DIMENSIONS }, () => rnd());
function face(noise = 1.2): Float32Array {
  return Float32Array.from(mean, (m) => m + noise * rnd());
}
function near(v: Float32Array, noise: number): Float32Array {
  return Float32Array.from(v, (x) => x + noise * rnd());
}

async function enrol(
  t: { accountId: string; environment: 'sandbox' | 'production' },
  subject: string,
  embedding: Float32Array,
  id = newId('faceEnrollment'),
): Promise<string> {
  await faceEnrollments.insert(db, t, vector, { id, subjectReference: subject, model: MODEL, embedding });
  return id;
}

test('searches run in the worker over exactly the live faces; enrolments and erasures are caught up incrementally', async () => {
  const t = { accountId: `acct_${newId('account').slice(5)}`, environment: 'production' as const };
  const other = { accountId: `acct_${newId('account').slice(5)}`, environment: 'production' as const };
  const cache = new FaceIndexCache(4);
  try {
    // 1,500 faces: more than a page of 1,000, so a full load spans several messages.
    const probe = face();
    await db.transaction(async (tx) => {
      for (let i = 0; i < 1500; i++)
        await faceEnrollments.insert(tx, t, vector, {
          id: newId('faceEnrollment'),
          subjectReference: `cus_${i}`,
          model: MODEL,
          embedding: i === 1234 ? near(probe, 0.15) : face(),
        });
    });
    await enrol(other, 'cus_other', near(probe, 0.05));

    const first = await cache.search(db, t, MODEL, probe, 5);
    assert.equal(first.size, 1500);
    assert.equal(first.hits[0]!.subjectId, 'cus_1234');
    assert.ok(
      first.hits.every((h) => h.subjectId !== 'cus_other'),
      "another tenant's face is never searched",
    );
    assert.deepEqual(cache.stats, { fullLoads: 1, catchUps: 0, pagesSent: 2 });
    // Scores are exact cosines.
    const stored = (await faceEnrollments.loadPage(db, t, MODEL, { afterId: '', limit: 2000 })).find((r) => r.id === first.hits[0]!.id)!;
    const storedEmbedding = new Float32Array(EMBEDDING_DIMENSIONS);
    embeddingFromBase64(stored.embedding, storedEmbedding);
    assert.ok(Math.abs(first.hits[0]!.similarity - cosineSimilarity(probe, storedEmbedding)) < 1e-5);

    // Unchanged: answered from the worker's index, nothing loaded.
    await cache.search(db, t, MODEL, probe, 5);
    assert.deepEqual(cache.stats, { fullLoads: 1, catchUps: 0, pagesSent: 2 });

    // A closer face enrolled, then many searches at once: one catch-up, all see it.
    const closer = await enrol(t, 'cus_twin', near(probe, 0.02));
    const many = await Promise.all(Array.from({ length: 6 }, () => cache.search(db, t, MODEL, probe, 5)));
    for (const r of many) {
      assert.equal(r.hits[0]!.id, closer);
      assert.equal(r.size, 1501);
    }
    assert.equal(cache.stats.catchUps, 1);
    assert.equal(cache.stats.fullLoads, 1);

    // Erased: gone from the next search, without a full reload.
    const erased = await db.transaction((tx) => faceEnrollments.erase(tx, t, vector, closer));
    assert.ok(erased);
    const after = await cache.search(db, t, MODEL, probe, 5);
    assert.equal(after.size, 1500);
    assert.ok(after.hits.every((h) => h.id !== closer));
    assert.equal(after.hits[0]!.subjectId, 'cus_1234');
    assert.deepEqual([cache.stats.fullLoads, cache.stats.catchUps], [1, 2]);

    // A face whose id was made a minute before the last sync but committed after it (another process,
    // a slow transaction) is picked up by the next catch-up, which re-reads a margin before the sync.
    const late = newId('faceEnrollment', Date.now() - 60_000);
    await enrol(t, 'cus_late', near(probe, 0.01), late);
    await enrol(t, 'cus_new', face());
    const withLate = await cache.search(db, t, MODEL, probe, 5);
    assert.equal(withLate.hits[0]!.id, late);
    assert.equal(withLate.size, 1502);

    // A fresh worker (process restart, crash) has no index: the next search loads it whole.
    await cache.close();
    const reloaded = await cache.search(db, t, MODEL, probe, 5);
    assert.equal(reloaded.size, 1502);
    assert.equal(reloaded.hits[0]!.id, late);
    assert.equal(cache.stats.fullLoads, 2);
  } finally {
    await cache.close();
  }
});

test('an empty tenant searches an empty index; the least recently used tenant is dropped beyond the limit and reloads', async () => {
  const cache = new FaceIndexCache(1);
  try {
    const a = { accountId: `acct_${newId('account').slice(5)}`, environment: 'sandbox' as const };
    const b = { accountId: `acct_${newId('account').slice(5)}`, environment: 'sandbox' as const };
    assert.deepEqual(await cache.search(db, a, MODEL, face(), 3), { hits: [], size: 0 });
    await enrol(b, 'cus_b', face());
    assert.equal((await cache.search(db, b, MODEL, face(), 3)).size, 1);
    // a was evicted when b was loaded (limit 1): searching a again loads it again.
    const before = cache.stats.fullLoads;
    assert.equal((await cache.search(db, a, MODEL, face(), 3)).size, 0);
    assert.equal(cache.stats.fullLoads, before + 1);
  } finally {
    await cache.close();
  }
});

test('embeddings are stored as float4 bytes in PostgreSQL binary order: what the migration computes from real[] is what the service writes, and reads back exactly', async () => {
  const t = { accountId: 'acc_bytes', environment: 'sandbox' as const };
  const e = face();
  e[1] = 3.4e38; // the float4 range
  const id = await enrol(t, 'cus_bytes', e);
  // Migration 0017's backfill of a real[] with the same values.
  const [row] = await db.query<{ same: boolean; bytes: number }>(
    `SELECT embedding_bytes = (SELECT string_agg(float4send(x), ''::bytea ORDER BY i) FROM unnest($2::real[]) WITH ORDINALITY AS u(x, i)) AS same,
            length(embedding_bytes) AS bytes FROM face_enrollments WHERE id = $1`,
    [id, Array.from(e)],
  );
  assert.deepEqual(row, { same: true, bytes: EMBEDDING_DIMENSIONS * 4 });
  const [page] = await faceEnrollments.loadPage(db, t, MODEL, { afterId: '', limit: 10 });
  const back = new Float32Array(EMBEDDING_DIMENSIONS);
  embeddingFromBase64(page!.embedding, back);
  assert.deepEqual(back, e);
  assert.equal(embeddingToBase64(back), page!.embedding.replace(/\n/g, '')); // PostgreSQL wraps base64 at 76 characters
  // Values a text round trip would change survive the bytes: the sign of zero, a float4 denormal.
  const special = Float32Array.from(e);
  special[0] = -0;
  special[2] = 1e-40;
  const again = new Float32Array(EMBEDDING_DIMENSIONS);
  embeddingFromBase64(embeddingToBase64(special), again);
  assert.deepEqual(again, special);
  assert.ok(Object.is(again[0], -0));
  assert.throws(
    () => embeddingFromBase64(embeddingToBase64(back).slice(0, 40), back),
    new RegExp(`a stored embedding has 30 bytes, expected ${EMBEDDING_DIMENSIONS * 4}`),
  );
});

test('warm preloads the most recently enrolled tenants, as many as the worker keeps; their first search loads nothing', async () => {
  const tenant = () => ({ accountId: `acct_${newId('account').slice(5)}`, environment: 'production' as const });
  const [older, recent1, recent2] = [tenant(), tenant(), tenant()];
  await enrol(older, 'cus_o', face());
  for (let i = 0; i < 3; i++) await enrol(recent1, `cus_r1_${i}`, face());
  const probe = face();
  await enrol(recent2, 'cus_r2', probe);
  const cache = new FaceIndexCache(2);
  try {
    assert.deepEqual(await cache.warm(db), { indexes: 2, faces: 4 });
    assert.deepEqual(cache.stats, { fullLoads: 2, catchUps: 0, pagesSent: 2 });
    const found = await cache.search(db, recent2, MODEL, probe, 1);
    assert.equal(found.hits[0]?.subjectId, 'cus_r2');
    assert.equal((await cache.search(db, recent1, MODEL, face(), 1)).size, 3);
    assert.equal(cache.stats.fullLoads, 2, 'the preloaded tenants were searched without loading');
    assert.equal((await cache.search(db, older, MODEL, face(), 1)).size, 1);
    assert.equal(cache.stats.fullLoads, 3, 'a tenant beyond the limit loads on its first search');
  } finally {
    await cache.close();
  }
  const closed = new FaceIndexCache(2);
  await closed.close();
  assert.deepEqual(await closed.warm(db), { indexes: 0, faces: 0 }, 'a closed cache preloads nothing');
});

test('enrolments of the pre-#19 faceres model (1024 values) and of the face-api model (128) are searched apart', async () => {
  const t = { accountId: `acct_${newId('account').slice(5)}`, environment: 'production' as const };
  const oldKey = embeddingModelKey([
    { name: '@vladmandic/human', version: '3.3.6' },
    { name: 'human/models/faceres.json', version: '3.3.6' },
  ]);
  const newKey = embeddingModelKey([
    { name: 'human/models/faceres.json', version: '3.3.6' },
    { name: '@vladmandic/face-api', version: '1.7.15' },
    { name: 'face-api/model/face_recognition_model+human-mesh-5pt-align-v1', version: '1.7.15' },
  ]);
  assert.equal(oldKey, 'human/models/faceres.json@3.3.6');
  assert.equal(newKey, 'face-api/model/face_recognition_model+human-mesh-5pt-align-v1@1.7.15');
  assert.equal(embeddingDimensions(oldKey), 1024);
  assert.equal(embeddingDimensions(newKey), EMBEDDING_DIMENSIONS);
  const oldFace = Float32Array.from({ length: 1024 }, () => rnd());
  const newFace = face();
  await faceEnrollments.insert(db, t, vector, {
    id: newId('faceEnrollment'),
    subjectReference: 'cus_old',
    model: oldKey,
    embedding: oldFace,
  });
  await faceEnrollments.insert(db, t, vector, {
    id: newId('faceEnrollment'),
    subjectReference: 'cus_new',
    model: newKey,
    embedding: newFace,
  });
  const cache = new FaceIndexCache(4);
  try {
    const current = await cache.search(db, t, newKey, newFace, 5);
    assert.deepEqual(
      current.hits.map((h) => h.subjectId),
      ['cus_new'],
    );
    // The old model's faces still load at their own length and stay apart.
    const legacy = await cache.search(db, t, oldKey, oldFace, 5);
    assert.deepEqual(
      legacy.hits.map((h) => h.subjectId),
      ['cus_old'],
    );
    // Warm-up preloads every (tenant, model) with live enrolments, each at its own length (other tests' tenants too).
    const warmed = await cache.warm(db);
    assert.ok(warmed.indexes >= 2 && warmed.faces >= 2);
  } finally {
    await cache.close();
  }
});
