// The rows of bench/liveness-features.ts's dump and what several liveness benches compute on them.
import { passiveFeatures, passiveScore, PASSIVE_LIVENESS_MODEL } from '../../src/engines/face/passive-score.js';
import type { DetectedFace, FaceAnalysis } from '../../src/engines/face/types.js';
import type { Item } from '../liveness-features.js';
import { fitLogistic, predict } from './logistic.js';

export interface LivenessRow extends Item {
  image: FaceAnalysis['image'];
  faceCount: number;
  face: Pick<DetectedFace, 'antispoof' | 'liveness' | 'texture' | 'sizePx' | 'box' | 'score' | 'pose'> | null;
  shipped: { verdict: string; score: number; failed: string[] };
}

/** The stored signals as the engine's analysis of one frame (no mesh or embedding: single frames only). */
export function rowAnalysis(r: LivenessRow): FaceAnalysis {
  const faces: DetectedFace[] = [];
  if (r.face)
    faces.push({
      ...r.face,
      detectorScore: r.face.score,
      meshScore: r.face.score,
      embedding: new Float32Array(0),
      age: 30,
      gender: 'unknown',
      genderScore: 0,
      mesh: new Float32Array(0),
    } as DetectedFace);
  for (let i = 1; i < r.faceCount; i++) faces.push({ ...faces[0]!, sizePx: 10, box: [0, 0, 10, 10] });
  return { image: r.image, faces, timings: { decodeMs: 0, inferenceMs: 0, textureMs: 0, totalMs: 0 } };
}

const logit = (p: number): number => Math.log(p / (1 - p));

/** The shipped fused passive score of a row as a logit (0 = its pass point); `points` are its pass and fail logits. */
export const shippedPassive = Object.assign(
  (r: LivenessRow): { logit: number } => ({ logit: logit(passiveScore(passiveFeatures(rowAnalysis(r).faces[0]!, r.image))) }),
  { points: { pass: 0, fail: logit(PASSIVE_LIVENESS_MODEL.failBelow) } },
);

/** ROC AUC (live scored higher than attacks), ties counted half. */
export function auc(xs: { live: boolean; s: number }[]): number {
  const live = xs.filter((x) => x.live).map((x) => x.s);
  const att = xs.filter((x) => !x.live).map((x) => x.s);
  let k = 0;
  for (const a of live) for (const b of att) k += a > b ? 1 : a === b ? 0.5 : 0;
  return k / (live.length * att.length || 1);
}

/** The fused score's two features of a row ([0, 0] without a face). */
export const fusedFeatures = (r: LivenessRow): number[] => {
  if (!r.face) return [0, 0];
  const f = passiveFeatures(rowAnalysis(r).faces[0]!, r.image);
  return [f.sharpness, f.moire];
};

/**
 * The fused score's fitting recipe (passive-score.ts): LR on standardised features (λ 10); pass point = at most 5 % of
 * the training attacks at or above it; fail point = at most 5 % of the training live captures below it.
 */
export function fitFusedRecipe(train: LivenessRow[]): { intercept: number; sharpness: number; moire: number; failBelow: number } {
  const tr = train.filter((r) => r.face);
  const m = fitLogistic(
    tr.map(fusedFeatures),
    tr.map((r) => (r.live ? 1 : 0)),
    10,
  );
  const attacks = tr
    .filter((r) => !r.live)
    .map((r) => predict(m, fusedFeatures(r)))
    .sort((a, b) => b - a);
  const live = tr
    .filter((r) => r.live)
    .map((r) => predict(m, fusedFeatures(r)))
    .sort((a, b) => a - b);
  const pass = attacks[Math.floor(0.05 * attacks.length)]! + 1e-6;
  const fail = Math.min(live[Math.floor(0.05 * live.length)]!, pass);
  const c = m.w.map((w, j) => w / m.sd[j]!);
  const intercept = m.b - m.w.reduce((s, w, j) => s + (w * m.mean[j]!) / m.sd[j]!, 0) - logit(pass);
  return { intercept, sharpness: c[0]!, moire: c[1]!, failBelow: 1 / (1 + Math.exp(-(logit(fail) - logit(pass)))) };
}
