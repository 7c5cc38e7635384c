// Face match on real photos (issue #19 item 5): the face-api pipeline (default) against the pre-#19 faceres
// pipeline, measured in one run on ../shared/data/real/faces (MANIFEST section 9: 4,137 images of 2,171
// identities, 3,001 genuine + 3,001 impostor pairs).
//
// Identities are split in two halves by a hash of their name. Thresholds are set on the calibration half
// (its genuine pairs and every cross-identity pair of its images), TAR/FAR are reported on the other half
// with 95 % Wilson intervals. A third section simulates the KYC case the set has no real pairs for
// (a document portrait against a selfie). Last, match latency of both pipelines, one worker each.
//
// Run: npm run bench -- face-real-quality   (FACE_REAL_EVERY=N takes every N-th listed pair, for a quick look)
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { createFaceEngine, type FaceEngine } from '../src/engines/face/face-engine.js';
import { cosineSimilarity, FACE_MATCH_THRESHOLD, FACE_REVIEW_THRESHOLD } from '../src/engines/face/similarity.js';
import type { FaceEmbedder } from '../src/engines/face/types.js';
import { half, rateWithInterval } from './lib/stats.js';

const REAL = fileURLToPath(new URL('../../shared/data/real/', import.meta.url));
if (!existsSync(`${REAL}faces/pairs.csv`)) {
  console.log(`face-real-quality: SKIPPED, shared data not found at ${REAL}faces (the bench needs ../shared/data/real).`);
  process.exit(0);
}
const every = Math.max(1, Number(process.env.FACE_REAL_EVERY ?? 1));

interface Pair {
  a: string;
  b: string;
  same: boolean;
  idA: string;
  idB: string;
}
const rows = readFileSync(`${REAL}faces/pairs.csv`, 'utf8').trim().split(/\r?\n/).slice(1);
const pairs: Pair[] = rows
  .map((l) => l.split(','))
  .map(([a, b, same, idA, idB]) => ({ a: a!, b: b!, same: same === '1', idA: idA!, idB: idB! }))
  .filter((_, i) => i % every === 0);
const identityOf = new Map<string, string>();
for (const p of pairs) {
  identityOf.set(p.a, p.idA);
  identityOf.set(p.b, p.idB);
}

const f3 = (x: number): string => x.toFixed(3);
const rate = rateWithInterval;

async function embedAll(engine: FaceEngine, files: string[]): Promise<{ emb: Map<string, Float32Array>; ms: number[] }> {
  const emb = new Map<string, Float32Array>();
  const ms: number[] = [];
  let next = 0;
  const work = async (): Promise<void> => {
    while (next < files.length) {
      const file = files[next++]!;
      const a = await engine.analyze(readFileSync(`${REAL}${file}`));
      ms.push(a.timings.totalMs);
      const face = a.faces[0];
      if (face) emb.set(file, face.embedding);
    }
  };
  await Promise.all([work(), work()]);
  return { emb, ms };
}

interface Scored {
  s: number;
  same: boolean;
}

function thresholdAtFar(impostors: number[], far: number): number {
  const sorted = [...impostors].sort((x, y) => y - x);
  // The lowest threshold with at most `far` of impostors at or above it.
  const allowed = Math.floor(far * sorted.length);
  return (sorted[allowed] ?? -1) + 1e-6;
}

function auc(set: Scored[]): number {
  const pos = set.filter((p) => p.same).map((p) => p.s);
  const neg = set
    .filter((p) => !p.same)
    .map((p) => p.s)
    .sort((x, y) => x - y);
  let wins = 0;
  for (const p of pos) {
    let lo = 0;
    let hi = neg.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (neg[mid]! < p) lo = mid + 1;
      else hi = mid;
    }
    wins += lo;
  }
  return wins / (pos.length * neg.length);
}

/** Every cross-identity pair of the images of one half (the listed impostor pairs are a subset). */
function allImpostors(emb: Map<string, Float32Array>, side: 0 | 1): number[] {
  const files = [...emb.keys()].filter((f) => half(identityOf.get(f)!) === side).sort();
  const out: number[] = [];
  for (let i = 0; i < files.length; i++)
    for (let j = i + 1; j < files.length; j++)
      if (identityOf.get(files[i]!) !== identityOf.get(files[j]!)) out.push(cosineSimilarity(emb.get(files[i]!)!, emb.get(files[j]!)!));
  return out;
}

const files = [...identityOf.keys()].sort();
const results: Record<FaceEmbedder, { t1: number; t01: number; emb: Map<string, Float32Array> }> = {} as never;
console.log(
  `\n# Face match on real photos: ${files.length} images, ${pairs.length} listed pairs (every ${every}), ` +
    `identities split by hash: calibration ${new Set([...identityOf.values()].filter((i) => half(i) === 0)).size}, test ${new Set([...identityOf.values()].filter((i) => half(i) === 1)).size}`,
);
// Both pipelines embed at once, one worker each (two cores).
const embedded = await Promise.all(
  (['face-api', 'faceres'] as const).map(async (embedder) => {
    const engine = createFaceEngine({ poolSize: 1, embedder });
    const started = performance.now();
    const out = await embedAll(engine, files);
    await engine.close();
    return { embedder, started, ...out };
  }),
);
for (const { embedder, started, emb, ms } of embedded) {
  const perImage = ms.sort((x, y) => x - y)[Math.floor(ms.length / 2)]!;
  const listed = (side: 0 | 1): Scored[] =>
    pairs.flatMap((p) => {
      if (half(p.idA) !== side || half(p.idB) !== side) return [];
      const ea = emb.get(p.a);
      const eb = emb.get(p.b);
      // A pair without a face in one image is a failure to match: genuine → rejected, impostor → not accepted.
      return [{ s: ea && eb ? cosineSimilarity(ea, eb) : -1, same: p.same }];
    });
  const calImpostors = allImpostors(emb, 0);
  const testImpostors = allImpostors(emb, 1);
  const t1 = thresholdAtFar(calImpostors, 0.01);
  const t01 = thresholdAtFar(calImpostors, 0.001);
  const testListed = listed(1);
  const genuine = testListed.filter((p) => p.same);
  const impostorsListed = testListed.filter((p) => !p.same);
  console.log(
    `\n## ${embedder}: faces found in ${emb.size}/${files.length} images (${f3(1 - emb.size / files.length)} missed), ` +
      `analyze p50 ${perImage.toFixed(0)} ms per image, ${((performance.now() - started) / 1000).toFixed(0)} s in all`,
  );
  console.log(`calibration half: ${calImpostors.length} cross-identity pairs → threshold ${f3(t1)} for FAR 1 %, ${f3(t01)} for FAR 0.1 %`);
  console.log(
    `test half: ROC AUC ${auc(testListed).toFixed(4)} on ${genuine.length} genuine + ${impostorsListed.length} listed impostor pairs`,
  );
  for (const [name, t] of [
    ['FAR 1 %', t1],
    ['FAR 0.1 %', t01],
  ] as const) {
    const tar = genuine.filter((p) => p.s >= t).length;
    const far = testImpostors.filter((s) => s >= t).length;
    const farListed = impostorsListed.filter((p) => p.s >= t).length;
    console.log(
      `  at ${name} (t ${f3(t)}): TAR ${rate(tar, genuine.length)}; FAR on test cross-identity pairs ${rate(far, testImpostors.length)}, on listed impostors ${rate(farListed, impostorsListed.length)}`,
    );
  }
  if (embedder === 'face-api') {
    const tar = genuine.filter((p) => p.s >= FACE_MATCH_THRESHOLD).length;
    const review = genuine.filter((p) => p.s >= FACE_REVIEW_THRESHOLD && p.s < FACE_MATCH_THRESHOLD).length;
    const far = testImpostors.filter((s) => s >= FACE_MATCH_THRESHOLD).length;
    const farReview = testImpostors.filter((s) => s >= FACE_REVIEW_THRESHOLD).length;
    console.log(
      `  shipped defaults (match ${FACE_MATCH_THRESHOLD}, review ${FACE_REVIEW_THRESHOLD}) on the test half: passed ${rate(tar, genuine.length)}, ` +
        `needs_review ${rate(review, genuine.length)}; impostors passed ${rate(far, testImpostors.length)}, reaching review ${rate(farReview, testImpostors.length)}`,
    );
  }
  results[embedder] = { t1, t01, emb };
}

// ---- Document portrait against a selfie, simulated: the shared data has no real same-person pairs of that
// kind. The second image of each test pair is turned into a printed-card portrait photographed by a phone:
// shrunk to 100 px wide (≈ 35 mm at 72 dpi of a card photo), colour halved, JPEG quality 45, placed on a
// light 640 × 400 card with printed text lines, then the whole card re-encoded.
async function asDocumentPortrait(file: string): Promise<Buffer> {
  const portrait = await sharp(readFileSync(`${REAL}${file}`))
    .resize({ width: 100 })
    .modulate({ saturation: 0.5 })
    .jpeg({ quality: 45 })
    .toBuffer();
  const lines = Array.from(
    { length: 6 },
    (_, i) => `<rect x="170" y="${90 + i * 40}" width="${360 - i * 30}" height="14" fill="#556"/>`,
  ).join('');
  const card = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><rect width="640" height="400" rx="24" fill="#e9eef2"/><rect y="0" width="640" height="50" fill="#3a6ea5"/>${lines}</svg>`,
  );
  return sharp(card)
    .composite([{ input: portrait, left: 40, top: 90 }])
    .jpeg({ quality: 70 })
    .toBuffer();
}

const docEvery = Math.max(1, Number(process.env.FACE_REAL_DOC_EVERY ?? 4));
const docPairs = pairs.filter((p, i) => half(p.idA) === 1 && half(p.idB) === 1 && i % docEvery === 0);
console.log(
  `\n## Simulated document portrait vs photo: ${docPairs.filter((p) => p.same).length} genuine + ${docPairs.filter((p) => !p.same).length} impostor pairs of the test half (every ${docEvery}-th), thresholds from the calibration half`,
);
for (const embedder of ['face-api', 'faceres'] as const) {
  const engine = createFaceEngine({ poolSize: 2, embedder });
  const { t1, t01, emb } = results[embedder];
  const scored: Scored[] = [];
  let noFace = 0;
  await Promise.all(
    docPairs.map(async (p) => {
      const selfie = emb.get(p.a);
      const doc = (await engine.analyze(await asDocumentPortrait(p.b))).faces[0];
      if (!doc) noFace++;
      scored.push({ s: selfie && doc ? cosineSimilarity(selfie, doc.embedding) : -1, same: p.same });
    }),
  );
  await engine.close();
  const gen = scored.filter((p) => p.same);
  const imp = scored.filter((p) => !p.same);
  console.log(
    `  ${embedder}: portrait face found ${docPairs.length - noFace}/${docPairs.length}; AUC ${auc(scored).toFixed(4)}; ` +
      `TAR at the FAR 1 % threshold ${rate(gen.filter((p) => p.s >= t1).length, gen.length)}, at FAR 0.1 % ${rate(gen.filter((p) => p.s >= t01).length, gen.length)}; ` +
      `impostors accepted at FAR 1 % threshold ${rate(imp.filter((p) => p.s >= t1).length, imp.length)}`,
  );
}

// ---- Latency of a 1:1 match (selfie + reference, both decoded and analysed), one worker per pipeline, in turn.
console.log('\n## Match latency, one worker, 40 listed pairs, pipelines in turn (machine shared with other jobs)');
const latencyPairs = pairs.filter((_, i) => i % Math.max(1, Math.floor(pairs.length / 40)) === 0).slice(0, 40);
const p50: Record<string, number> = {};
for (const embedder of ['faceres', 'face-api'] as const) {
  const engine = createFaceEngine({ poolSize: 1, embedder });
  await engine.info();
  const ms: number[] = [];
  for (const p of latencyPairs) {
    const r = await engine.match(readFileSync(`${REAL}${p.a}`), readFileSync(`${REAL}${p.b}`));
    ms.push(r.timings.totalMs);
  }
  await engine.close();
  ms.sort((x, y) => x - y);
  p50[embedder] = ms[Math.floor(ms.length / 2)]!;
  console.log(`  ${embedder}: p50 ${p50[embedder]!.toFixed(0)} ms, p90 ${ms[Math.floor(ms.length * 0.9)]!.toFixed(0)} ms`);
}
console.log(`  ratio face-api / faceres p50: ${(p50['face-api']! / p50.faceres!).toFixed(2)}`);
