import { emitAudit } from '../../../platform/audit.js';
import { AppError, notFound } from '../../../platform/errors.js';
import { withTransaction } from '../../../platform/transaction.js';
import { FACE_ENGINE } from './engine.js';
import { embeddingModelKey } from './face-index-cache.js';
import { decodeImage, engineCall } from './inputs.js';
import { faceEnrollments, hasVectorColumn, newEnrollmentId, toEnrollment } from './repository.js';
import type { FaceCheckArgs } from './check-args.js';
import type { EnrollmentBody, FaceEnrollment } from './schemas.js';

/**
 * Enrols one face of a subject for 1:N search. Only the embedding is kept (not the photo): it is all
 * the search needs. Not a check, so not billed; audited. A photo without one clear face cannot be
 * enrolled: 422 check_unavailable naming `image`, with the engine's finding in the message.
 */
export async function enrollFace({
  ctx,
  settings,
  resources,
  input,
}: Omit<FaceCheckArgs<EnrollmentBody>, 'sealer'>): Promise<FaceEnrollment> {
  const image = decodeImage('image', input.image, 'selfie', settings.maxImageBytes);
  const { embedding, signals, model } = await engineCall(() => resources.get(FACE_ENGINE).embed(image.data));
  if (!embedding) {
    const why = signals
      .filter((s) => s.passed === false)
      .map((s) => s.detail ?? s.name)
      .join(' ');
    throw new AppError('check_unavailable', `No single clear face to enrol. ${why}`.trim(), { field: 'image' });
  }
  const modelKey = embeddingModelKey(model);
  const vector = await hasVectorColumn(ctx.db);
  const row = await withTransaction(ctx, async (tx) => {
    const r = (await faceEnrollments.insert(tx, ctx, vector, {
      id: newEnrollmentId(),
      subjectReference: input.subject_reference,
      model: modelKey,
      embedding,
    }))!; // no session id: never a conflict
    await emitAudit(tx, ctx, {
      action: 'face_enrollment.created',
      resourceType: 'face_enrollment',
      resourceId: r.id,
      metadata: { subject_reference: input.subject_reference, model: modelKey },
    });
    return toEnrollment(r);
  });
  return row;
}

/** Erases the embedding (biometric data) and keeps a tombstone row for the audit trail. */
export async function deleteEnrollment({ ctx, id }: { ctx: FaceCheckArgs<unknown>['ctx']; id: string }): Promise<FaceEnrollment> {
  const vector = await hasVectorColumn(ctx.db);
  const out = await withTransaction(ctx, async (tx) => {
    const r = await faceEnrollments.erase(tx, ctx, vector, id);
    if (!r) throw notFound('face enrollment', 'id');
    await emitAudit(tx, ctx, {
      action: 'face_enrollment.deleted',
      resourceType: 'face_enrollment',
      resourceId: id,
      metadata: { subject_reference: r.subject_reference },
    });
    return toEnrollment(r);
  });
  return out;
}
