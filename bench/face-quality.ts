// Face quality on labelled data: match ROC and TAR@FAR, liveness APCER/BPCER, age (no ground truth).
// Run: npx tsx bench/face-quality.ts   Data: ../shared/data/faces (see data/MANIFEST.md, section Faces).
import sharp from 'sharp';
import { createFaceEngine } from '../src/engines/face/face-engine.js';
import { cosineSimilarity, FACE_MATCH_THRESHOLD, FACE_REVIEW_THRESHOLD } from '../src/engines/face/similarity.js';
import type { LivenessResult } from '../src/engines/face/types.js';
import { antispoofSamples, deepfaceImage, deepfaceLabels, deepfacePairs, documentImages, fmt, requireData } from './face-data.js';

requireData();
const engine = createFaceEngine({ poolSize: 2 });

// ---- 1. Embeddings of every labelled image
const labels = deepfaceLabels();
const embeddings = new Map<string, Float32Array>();
const ages: number[] = [];
const spreads: number[] = [];
await Promise.all(
  [...labels.keys()].map(async (file) => {
    const a = await engine.analyze(deepfaceImage(file));
    if (a.faces.length !== 1) console.log(`  note: ${file} has ${a.faces.length} faces; the largest is used`);
    const face = a.faces[0];
    if (face) embeddings.set(file, face.embedding);
  }),
);
console.log(
  `\n# Face match — deepface_subset: ${embeddings.size}/${labels.size} images with a face, ${new Set(labels.values()).size} identities`,
);

interface Scored {
  s: number;
  same: boolean;
}
const score = (a: string, b: string): number | null => {
  const ea = embeddings.get(a);
  const eb = embeddings.get(b);
  return ea && eb ? cosineSimilarity(ea, eb) : null;
};
const upstream: Scored[] = deepfacePairs().flatMap((p) => {
  const s = score(p.a, p.b);
  return s === null ? [] : [{ s, same: p.same }];
});
const files = [...embeddings.keys()].sort();
const allPairs: Scored[] = [];
for (let i = 0; i < files.length; i++) {
  for (let j = i + 1; j < files.length; j++)
    allPairs.push({ s: score(files[i]!, files[j]!)!, same: labels.get(files[i]!) === labels.get(files[j]!) });
}

function rates(set: Scored[], t: number): { tar: number; far: number } {
  const pos = set.filter((p) => p.same);
  const neg = set.filter((p) => !p.same);
  return { tar: pos.filter((p) => p.s >= t).length / pos.length, far: neg.filter((p) => p.s >= t).length / neg.length };
}
function auc(set: Scored[]): number {
  const pos = set.filter((p) => p.same).map((p) => p.s);
  const neg = set.filter((p) => !p.same).map((p) => p.s);
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}
/** Highest TAR whose FAR ≤ target; with N negatives the smallest non-zero FAR is 1/N. */
function tarAtFar(set: Scored[], target: number): { tar: number; far: number; threshold: number } {
  const neg = set
    .filter((p) => !p.same)
    .map((p) => p.s)
    .sort((a, b) => b - a);
  const allowed = Math.floor(target * neg.length);
  const threshold = (neg[allowed] ?? -1) + 1e-6;
  return { ...rates(set, threshold), threshold };
}

for (const [name, set] of [
  ['upstream pairs (pairs_master + pairs_pivot, de-duplicated)', upstream],
  ['all pairs of labelled images', allPairs],
] as const) {
  const pos = set.filter((p) => p.same);
  const neg = set.filter((p) => !p.same);
  console.log(`\n## ${name}: ${pos.length} same-person, ${neg.length} different-person; ROC AUC ${fmt(auc(set), 4)}`);
  console.log(
    `same-person cosine ${fmt(Math.min(...pos.map((p) => p.s)))}–${fmt(Math.max(...pos.map((p) => p.s)))}, different-person ${fmt(Math.min(...neg.map((p) => p.s)))}–${fmt(Math.max(...neg.map((p) => p.s)))}`,
  );
  console.log('| threshold | TAR | FAR |\n|---|---|---|');
  for (let t = 0.4; t <= 0.751; t += 0.025) {
    const r = rates(set, t);
    console.log(`| ${t.toFixed(3)} | ${fmt(r.tar)} | ${fmt(r.far, 4)} |`);
  }
  for (const target of [0.001, 0.01]) {
    const r = tarAtFar(set, target);
    const floor = 1 / neg.length;
    const note = target < floor ? ` (1 in ${neg.length} is the finest FAR these pairs resolve: reported at FAR 0)` : '';
    console.log(`TAR @ FAR ≤ ${target}: ${fmt(r.tar)} at threshold ${fmt(r.threshold, 4)}, observed FAR ${fmt(r.far, 4)}${note}`);
  }
  const chosen = rates(set, FACE_MATCH_THRESHOLD);
  const review = rates(set, FACE_REVIEW_THRESHOLD);
  console.log(
    `engine thresholds: match ${FACE_MATCH_THRESHOLD} → TAR ${fmt(chosen.tar)} FAR ${fmt(chosen.far, 4)}; review ${FACE_REVIEW_THRESHOLD} → TAR ${fmt(review.tar)} FAR ${fmt(review.far, 4)}`,
  );
}
console.log(`mirror: img11 vs img11_reflection cosine ${fmt(score('img11.jpg', 'img11_reflection.jpg') ?? NaN)}`);

// ---- 2. Liveness (ISO/IEC 30107-3 terms). Attack presentations: APCER per type; bona fide: BPCER.
console.log('\n# Liveness');
type Row = { set: string; kind: 'bona_fide' | 'attack'; file: string; r: LivenessResult };
const rows: Row[] = [];
const live = async (set: string, kind: Row['kind'], file: string, frames: Buffer[]): Promise<void> => {
  rows.push({ set, kind, file, r: await engine.liveness(frames) });
};
const jobs: Promise<void>[] = [];
for (const s of antispoofSamples())
  jobs.push(
    live(
      s.label === 'real' ? 'minivision real' : 'minivision print/screen (type not given upstream)',
      s.label === 'real' ? 'bona_fide' : 'attack',
      s.file,
      [s.image],
    ),
  );
for (const file of labels.keys()) jobs.push(live('deepface photos (not live captures)', 'bona_fide', file, [deepfaceImage(file)]));
for (const d of documentImages()) jobs.push(live('document portrait recaptured (passporteye)', 'attack', d.file, [d.image]));
// Bursts made from one still: replayed unchanged, and moved like a hand-held print (rigid shift/scale).
const stills = [...labels.keys()].slice(0, 10);
for (const file of stills) {
  const img = deepfaceImage(file);
  jobs.push(live('burst: still replayed 3×', 'attack', file, [img, img, img]));
  jobs.push(
    (async () => {
      const meta = await sharp(img).metadata();
      const w = meta.width!;
      const h = meta.height!;
      const frames = await Promise.all(
        [0, 1, 2].map((i) =>
          sharp(img)
            .extend({ top: 0, left: 12 * i, right: 0, bottom: 0, background: '#777' })
            .resize(Math.round(w * (1 + 0.03 * i)), Math.round(h * (1 + 0.03 * i)))
            .jpeg()
            .toBuffer(),
        ),
      );
      await live('burst: print moved rigidly (synthetic)', 'attack', file, frames);
    })(),
  );
}
await Promise.all(jobs);
const sets = [...new Set(rows.map((r) => r.set))];
console.log('| set | kind | n | passed | needs_review | failed | error rate |\n|---|---|---|---|---|---|---|');
for (const set of sets) {
  const rs = rows.filter((r) => r.set === set);
  const kind = rs[0]!.kind;
  const count = (v: string): number => rs.filter((r) => r.r.verdict === v).length;
  // APCER: attacks accepted (passed). BPCER: bona fide not accepted (failed or sent to review).
  const withFace = rs.filter((r) => !r.r.signals.some((x) => x.name.endsWith('_no_face'))).length;
  const rate =
    kind === 'attack'
      ? `APCER ${fmt(count('passed') / rs.length)}; ${fmt(count('passed') / withFace)} of the ${withFace} with a face found`
      : `BPCER ${fmt((rs.length - count('passed')) / rs.length)} (hard fail only ${fmt(count('failed') / rs.length)})`;
  console.log(`| ${set} | ${kind} | ${rs.length} | ${count('passed')} | ${count('needs_review')} | ${count('failed')} | ${rate} |`);
}
const why = new Map<string, number>();
for (const r of rows)
  for (const s of r.r.signals) if (s.passed === false) why.set(`${r.kind}: ${s.name}`, (why.get(`${r.kind}: ${s.name}`) ?? 0) + 1);
console.log('failed signals:', Object.fromEntries([...why.entries()].sort()));
for (const r of rows.filter((x) => x.set.startsWith('minivision'))) {
  const get = (n: string): unknown => r.r.signals.find((s) => s.name === n)?.value;
  console.log(
    `  ${r.file}: ${r.r.verdict} score ${r.r.score} antispoof ${get('antispoof_score')} liveness ${get('liveness_model_score')} moiré ${get('screen_moire_peak_ratio')} sharpness ${get('face_sharpness')}`,
  );
}

const residuals = (set: string): string =>
  rows
    .filter((r) => r.set === set)
    .map((r) => r.r.signals.find((s) => s.name === 'frame_non_rigid_motion')?.value)
    .join(', ');
console.log(`non-rigid residual, rigidly moved print (share of face width): ${residuals('burst: print moved rigidly (synthetic)')}`);

// ---- 3. Age: the shared data carries no ages, so no MAE can be measured here (bench/age-specimens.ts uses the MRZ dates of specimen documents as a proxy).
await Promise.all(
  [...labels.keys()].map(async (file) => {
    const r = await engine.estimateAge(deepfaceImage(file), { minimumAge: 18 });
    if (r.age !== null) ages.push(r.age);
    const spread = r.signals.find((s) => s.name === 'age_estimate_spread')?.value;
    if (typeof spread === 'number') spreads.push(spread);
  }),
);
ages.sort((a, b) => a - b);
spreads.sort((a, b) => a - b);
console.log(`\n# Age\nNo ground-truth ages in ../shared/data (deepface labels are identities only): MAE not measurable.`);
console.log(
  `estimates on ${ages.length} adult photos: min ${fmt(ages[0]!, 1)}, median ${fmt(ages[ages.length >> 1]!, 1)}, max ${fmt(ages[ages.length - 1]!, 1)}; upright/mirror spread median ${fmt(spreads[spreads.length >> 1]!, 1)}, max ${fmt(spreads[spreads.length - 1]!, 1)} years`,
);
await engine.close();
