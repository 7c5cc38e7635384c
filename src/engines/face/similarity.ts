/**
 * Face similarity is the cosine of two L2-normalised FaceRes embeddings. Cosine (not Human's own
 * normalised-Euclidean `similarity`) because it is what the 1:N side uses too: FaceIndex here and
 * pgvector's `<=>` (cosine distance = 1 − similarity) give the same number for the same pair.
 *
 * Thresholds were calibrated by bench/face-quality.ts on ../shared/data/faces/deepface_subset
 * (pairs_master.csv + pairs_pivot.csv, 103 same-person / 280 different-person pairs, 13 identities,
 * plus every cross-identity pair of its 50 images). Figures and the ROC table are in docs/face.md.
 * Re-run the bench and update these constants together with the doc when the model changes.
 */

/**
 * At or above: same person (`passed`). The lowest round value above every one of the 1,136
 * different-person pairs of the calibration set (highest 0.644), i.e. an observed FAR of 0 — the set
 * is too small to show 1 in 1,000 directly. True-accept rate there: 0.79.
 */
export const FACE_MATCH_THRESHOLD = 0.65;

/** Between this and FACE_MATCH_THRESHOLD: `needs_review` (observed FAR ≈ 3 %, TAR ≈ 0.94); below: `failed`. */
export const FACE_REVIEW_THRESHOLD = 0.55;

/** Two enrolled faces of different subjects at or above this are reported as a probable duplicate identity. */
export const FACE_DUPLICATE_THRESHOLD = FACE_MATCH_THRESHOLD;

export const EMBEDDING_DIMENSIONS = 1024;

export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`embedding lengths differ: ${a.length} vs ${b.length}`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return 0;
  return dot / Math.sqrt(na * nb);
}

/** Copy scaled to unit length; a zero vector stays zero. */
export function normalizeEmbedding(v: Float32Array | readonly number[]): Float32Array {
  const out = Float32Array.from(v);
  let n = 0;
  for (const x of out) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < out.length; i++) out[i] = out[i]! / n;
  return out;
}
