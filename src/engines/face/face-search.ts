import { signal, type CheckVerdict, type ModelInfo, type Signal } from '../signal.js';
import type { FaceEngine } from './face-engine.js';
import type { FaceIndex, FaceIndexHit } from './face-index.js';
import { FACE_DUPLICATE_THRESHOLD, FACE_MATCH_THRESHOLD } from './similarity.js';

export interface FaceSearchOptions {
  k?: number;
  /** The subject the image belongs to, if known: its own enrolled faces are not duplicates. */
  subjectId?: string;
  /** Similarity at which a face of another subject counts as the same person. */
  threshold?: number;
}

export interface FaceSearchResult {
  /** passed: no other subject's face at or above the threshold; needs_review: a probable duplicate identity; failed: no usable face. */
  verdict: CheckVerdict;
  /** Top-k enrolled faces, best first, including the subject's own. */
  hits: FaceIndexHit[];
  threshold: number;
  /** The embedding that was searched (unit length), for enrolment after a clean search; null without a usable face. */
  embedding: Float32Array | null;
  signals: Signal[];
  model: ModelInfo[];
  timings: { totalMs: number; searchMs: number };
}

/**
 * 1:N search of one image against an in-process FaceIndex (the pgvector path does the same with SQL).
 * A match to another subject is a fraud signal (one person, several identities), so it goes to review
 * rather than failing outright: twins and look-alikes exist (see the FAR figures in docs/face.md).
 */
export async function searchFace(
  engine: FaceEngine,
  index: FaceIndex,
  image: Uint8Array,
  options: FaceSearchOptions = {},
): Promise<FaceSearchResult> {
  const started = performance.now();
  const threshold = options.threshold ?? FACE_DUPLICATE_THRESHOLD;
  const { embedding, signals, model } = await engine.embed(image);
  if (!embedding)
    return {
      verdict: 'failed',
      hits: [],
      threshold,
      embedding: null,
      signals,
      model,
      timings: { totalMs: performance.now() - started, searchMs: 0 },
    };
  const searchStarted = performance.now();
  const hits = index.search(embedding, { k: options.k ?? 10 });
  const others = hits.filter((h) => h.subjectId !== options.subjectId && h.similarity >= threshold);
  const searchMs = performance.now() - searchStarted;
  const top = others[0];
  signals.push(
    signal('face_duplicate_across_subjects', others.length, others.length === 0, {
      threshold,
      detail: top
        ? `Same face as subject ${top.subjectId} (similarity ${top.similarity.toFixed(3)}).`
        : `No other subject's face at or above ${threshold} among ${index.size} enrolled.`,
    }),
  );
  const own = hits.find((h) => options.subjectId !== undefined && h.subjectId === options.subjectId);
  if (own)
    signals.push(
      signal('face_matches_own_enrolment', Number(own.similarity.toFixed(4)), own.similarity >= FACE_MATCH_THRESHOLD, {
        threshold: FACE_MATCH_THRESHOLD,
      }),
    );
  const verdict: CheckVerdict = others.length > 0 ? 'needs_review' : 'passed';
  return { verdict, hits, threshold, embedding, signals, model, timings: { totalMs: performance.now() - started, searchMs } };
}
