/**
 * Face similarity is the cosine of two L2-normalised embeddings: by default face-api's recognition net
 * on a 5-point aligned chip (align.ts), 128 values. Cosine because it is what the 1:N side uses too:
 * FaceIndex here and pgvector's `<=>` (cosine distance = 1 − similarity) give the same number.
 *
 * Thresholds are calibrated by bench/face-real-quality.ts on ../shared/data/real/faces (real photos of
 * 2,171 identities; MANIFEST section 9): identities split in two halves by a hash of their name, each
 * threshold set on the calibration half's cross-identity pairs and reported on the other half (figures
 * and intervals in docs/face.md and docs/quality.md). Re-run the bench and update these constants
 * together with the docs when the model or the alignment changes.
 */

/**
 * At or above: same person (`passed`). The FAR 0.1 % point of the calibration half (228,396
 * cross-identity pairs of 383 identities); on the test half (379 other identities) TAR 0.938
 * [0.892, 0.965] at an observed FAR of 0.0008 (170 of 208,565 pairs). docs/face.md has the run.
 */
export const FACE_MATCH_THRESHOLD = 0.927;

/**
 * Between this and FACE_MATCH_THRESHOLD: `needs_review`; below: `failed`. The FAR 1 % point of the
 * calibration half; on the test half TAR 0.989 [0.960, 0.997] at an observed FAR of 0.008.
 */
export const FACE_REVIEW_THRESHOLD = 0.909;

/** Two enrolled faces of different subjects at or above this are reported as a probable duplicate identity. */
export const FACE_DUPLICATE_THRESHOLD = FACE_MATCH_THRESHOLD;

/** Values per embedding of the default embedder (face-api's recognition net); the legacy faceres one has 1024. */
export const EMBEDDING_DIMENSIONS = 128;

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
