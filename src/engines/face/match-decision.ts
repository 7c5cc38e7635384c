import { signal, type CheckVerdict, type Signal } from '../signal.js';
import { cosineSimilarity, FACE_MATCH_THRESHOLD, FACE_REVIEW_THRESHOLD } from './similarity.js';
import type { DetectedFace, FaceAnalysis } from './types.js';

/** Faces narrower than this give unstable embeddings (the FaceRes input is 224 px). */
export const MIN_FACE_PX = 64;
/** Beyond this head turn (degrees) the embedding degrades; the match is sent to review instead of passed. */
export const MAX_YAW_DEG = 35;

export function primaryFace(analysis: FaceAnalysis): DetectedFace | null {
  return analysis.faces[0] ?? null;
}

/**
 * Signals describing the faces found in one image. `role` prefixes the names (selfie, reference,
 * image, frame_0 …). Several faces on a document are normal (ghost portrait), so they are informational there.
 */
export function describeFaces(analysis: FaceAnalysis, role: string, isDocument: boolean): Signal[] {
  const count = analysis.faces.length;
  const signals: Signal[] = [];
  if (count === 0) {
    signals.push(signal(`${role}_no_face`, true, false, { detail: `No face was found in the ${role} image.` }));
    return signals;
  }
  const countOk = count === 1 || isDocument;
  signals.push(
    signal(`${role}_face_count`, count, isDocument && count > 1 ? null : countOk, {
      threshold: 1,
      detail: count === 1 ? 'Exactly one face.' : `${count} faces; the largest was used.`,
    }),
  );
  if (count > 1 && !isDocument)
    signals.push(signal(`${role}_multiple_faces`, count, false, { detail: 'Several faces in an image that should show one person.' }));
  const face = analysis.faces[0]!;
  signals.push(signal(`${role}_face_size_px`, Math.round(face.sizePx), face.sizePx >= MIN_FACE_PX, { threshold: MIN_FACE_PX }));
  signals.push(signal(`${role}_face_yaw_deg`, face.pose.yaw, Math.abs(face.pose.yaw) <= MAX_YAW_DEG, { threshold: MAX_YAW_DEG }));
  signals.push(signal(`${role}_face_detection_score`, round(face.score), null));
  return signals;
}

export interface MatchDecision {
  verdict: CheckVerdict;
  similarity: number | null;
  threshold: number;
  signals: Signal[];
}

export function decideMatch(
  selfie: FaceAnalysis,
  reference: FaceAnalysis,
  options: { threshold?: number; referenceIsDocument?: boolean } = {},
): MatchDecision {
  const threshold = options.threshold ?? FACE_MATCH_THRESHOLD;
  const reviewThreshold = Math.min(threshold, FACE_REVIEW_THRESHOLD);
  const signals = [
    ...describeFaces(selfie, 'selfie', false),
    ...describeFaces(reference, 'reference', options.referenceIsDocument ?? false),
  ];
  const a = primaryFace(selfie);
  const b = primaryFace(reference);
  if (!a || !b) return { verdict: 'failed', similarity: null, threshold, signals };

  const similarity = cosineSimilarity(a.embedding, b.embedding);
  signals.push(
    signal('face_similarity', round(similarity), similarity >= threshold, {
      threshold,
      detail: `Cosine similarity of the two face embeddings (${a.embedding.length === 128 ? 'face-api recognition net on aligned faces, 128 values' : `${a.embedding.length} values`}).`,
    }),
  );
  let verdict: CheckVerdict = similarity >= threshold ? 'passed' : similarity >= reviewThreshold ? 'needs_review' : 'failed';
  // A pass needs trustworthy inputs: several people in the selfie, a tiny or turned face send it to review.
  const doubtful = signals.some((s) => s.passed === false && s.name !== 'face_similarity');
  if (verdict === 'passed' && doubtful) verdict = 'needs_review';
  return { verdict, similarity, threshold, signals };
}

export function round(value: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
