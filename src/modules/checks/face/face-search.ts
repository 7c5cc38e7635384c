import { FACE_DUPLICATE_THRESHOLD, FACE_MATCH_THRESHOLD } from '../../../engines/face/index.js';
import { signal, type CheckVerdict } from '../../../engines/signal.js';
import { recordCheck, roundTimings, type Check } from '../kernel/index.js';
import { FACE_ENGINE } from './engine.js';
import { embeddingModelKey, FACE_INDEX } from './face-index-cache.js';
import { decodeImage, engineCall, reasonsOf, round4 } from './inputs.js';
import { faceEnrollments, hasVectorColumn, type EnrollmentHit } from './repository.js';
import type { FaceCheckArgs } from './check-args.js';
import type { FaceSearchBody } from './schemas.js';

/**
 * 1:N search over the tenant's enrolled faces: the in-process FaceIndex held by the face-index worker
 * thread, or pgvector's HNSW index when the operator turned it on (FACE_SEARCH_PGVECTOR) and the
 * database has it. The decision is the engine's searchFace rule (which
 * only takes a synchronous FaceIndex, hence repeated here): another subject's face at or above the
 * threshold is a probable duplicate identity → needs_review; no usable face → failed.
 */
export async function faceSearchCheck({ ctx, sealer, settings, resources, input }: FaceCheckArgs<FaceSearchBody>): Promise<Check> {
  const image = decodeImage('image', input.image, 'selfie', settings.maxImageBytes);
  const k = input.k ?? 10;
  const threshold = input.threshold ?? FACE_DUPLICATE_THRESHOLD;
  const started = performance.now();
  const { embedding, signals, model } = await engineCall(() => resources.get(FACE_ENGINE).embed(image.data));
  const embedMs = performance.now() - started;
  let hits: EnrollmentHit[] = [];
  let enrolled: number | null = null;
  const vector = settings.searchWithPgvector && (await hasVectorColumn(ctx.db));
  const backend = vector ? 'pgvector_hnsw' : 'in_process_index';
  const searchStarted = performance.now();
  if (embedding) {
    const modelKey = embeddingModelKey(model);
    if (vector) {
      hits = await faceEnrollments.searchVector(ctx.db, ctx, modelKey, embedding, k);
    } else {
      const found = await resources.get(FACE_INDEX).search(ctx.db, ctx, modelKey, embedding, k);
      enrolled = found.size;
      hits = found.hits.map((h) => ({ enrollment_id: h.id, subject_reference: h.subjectId, similarity: h.similarity }));
    }
  }
  const searchMs = performance.now() - searchStarted;
  hits = hits.map((h) => ({ ...h, similarity: round4(h.similarity)! }));
  const subject = input.subject_reference;
  const others = hits.filter((h) => h.subject_reference !== subject && h.similarity >= threshold);
  if (embedding) {
    const top = others[0];
    signals.push(
      signal('face_duplicate_across_subjects', others.length, others.length === 0, {
        threshold,
        detail: top
          ? `Same face as subject ${top.subject_reference} (similarity ${top.similarity.toFixed(3)}).`
          : `No other subject's face at or above ${threshold} among the ${k} nearest enrolled faces.`,
      }),
    );
    const own = subject === undefined ? undefined : hits.find((h) => h.subject_reference === subject);
    if (own)
      signals.push(
        signal('face_matches_own_enrolment', own.similarity, own.similarity >= FACE_MATCH_THRESHOLD, { threshold: FACE_MATCH_THRESHOLD }),
      );
  }
  const verdict: CheckVerdict = !embedding ? 'failed' : others.length > 0 ? 'needs_review' : 'passed';
  const reasons = verdict === 'needs_review' ? ['duplicate_face_other_subject'] : reasonsOf(verdict, signals);
  // The score is the strongest evidence of a duplicate identity: the best other subject's similarity.
  const bestOther = hits.find((h) => h.subject_reference !== subject);
  return recordCheck({
    ctx,
    sealer,
    type: 'face_search',
    subjectReference: subject,
    outcome: {
      status: verdict,
      score: bestOther?.similarity ?? null,
      reasons,
      signals,
      model,
      timings: roundTimings({ embed: embedMs, search: searchMs, total: performance.now() - started }),
      result: { hits, threshold, k, backend, ...(enrolled !== null ? { enrolled_faces: enrolled } : {}) },
    },
    media: [image],
  });
}
