import { QUEUES } from '../../../platform/queues.js';
import type { Queryable } from '../../../platform/db.js';
import type { Sealer } from '../../../platform/crypto.js';
import type { Resources } from '../../../platform/resources.js';
import { systemContext, type Environment, type RequestContext } from '../../../platform/context.js';
import { emitAudit } from '../../../platform/audit.js';
import { enqueueJob, type JobHandler, type JobRow } from '../../../platform/jobs.js';
import { FACE_ENGINE, embeddingModelKey, faceEnrollments, hasVectorColumn, newEnrollmentId } from '../../checks/index.js';
import { MEDIA_PURPOSE, sessionMedia } from '../../checks/index.js';
import type { JourneyDefinition } from '../../journeys/index.js';
import { enrolSubject } from '../../monitoring/index.js';
import { sessionFields } from '../fields.js';
import { screeningSettingsOf } from '../corrections/screening-input.js';
import { screeningInputFor } from '../../checks/index.js';
import { sessions } from '../repository.js';

export const ENROL_QUEUE = QUEUES.verificationEnrol;
type Payload = { account_id: string; environment: Environment; session_id: string };

/**
 * In the transaction that approves a session (checks or reviewer): if the pinned journey asks for it
 * (`enrol_on_approval`), a job enrols the subject after commit. The face model runs in the job, not
 * in the deciding transaction.
 */
export async function enqueueEnrolment(
  tx: Queryable,
  t: Pick<RequestContext, 'accountId' | 'environment'>,
  s: { id: string; definition: JourneyDefinition },
): Promise<void> {
  const o = s.definition.enrol_on_approval;
  if (!o?.face_search && !o?.monitoring) return;
  await enqueueJob(
    tx,
    ENROL_QUEUE,
    { account_id: t.accountId, environment: t.environment, session_id: s.id },
    { dedupeKey: `enrol:${s.id}` },
  );
}

export function enrolJobHandlers(resources: Resources, sealer: () => Sealer): Record<string, JobHandler> {
  return {
    [ENROL_QUEUE]: async (job: JobRow) => {
      const p = job.payload as unknown as Payload;
      const ctx = systemContext(resources.db, p.account_id, p.environment, `job:${ENROL_QUEUE}`);
      await enrolApproved(ctx, sealer(), resources, p.session_id);
    },
  };
}

/**
 * Enrols an approved session's subject: the current selfie's embedding for face search (one per
 * session, however often the job runs) and the read or declared name and date of birth for ongoing
 * monitoring (one enrolment per subject reference; a later session updates it). A session deleted
 * or no longer approved enrols nothing; without a selfie face or a name, that part is skipped.
 */
export async function enrolApproved(
  ctx: RequestContext,
  sealer: Sealer,
  resources: Resources,
  sessionId: string,
): Promise<{ face: boolean; monitoring: boolean }> {
  const s = await sessions.get(ctx.db, ctx, sessionId);
  const done = { face: false, monitoring: false };
  if (!s || s.status !== 'approved' || s.deleted_at || !s.subject_reference) return done;
  const o = s.definition.enrol_on_approval ?? {};
  if (o.face_search) done.face = await enrolFace(ctx, sealer, resources, s.id, s.subject_reference);
  if (o.monitoring) {
    const fields = await sessionFields.read(ctx.db, ctx, sealer, s.id);
    // Monitored with the query the session's own screening used.
    const query = fields
      ? screeningInputFor(fields, screeningSettingsOf(s.definition) ?? {}, { reference: s.subject_reference, country: s.subject_country })
      : null;
    if (query) {
      const { subject_reference: _ref, ...rest } = query;
      await enrolSubject({ ctx, sealer, input: { ...rest, subject_reference: s.subject_reference } });
      done.monitoring = true;
    }
  }
  return done;
}

async function enrolFace(
  ctx: RequestContext,
  sealer: Sealer,
  resources: Resources,
  sessionId: string,
  subjectReference: string,
): Promise<boolean> {
  if (await faceEnrollments.existsForSession(ctx.db, ctx, sessionId)) return true;
  const selfie = await sessionMedia.latestSelfieSealed(ctx.db, ctx, sessionId);
  if (!selfie) return false;
  const { embedding, model } = await resources.get(FACE_ENGINE).embed(sealer.openBytes(MEDIA_PURPOSE, Buffer.from(selfie)));
  if (!embedding) return false;
  const vector = await hasVectorColumn(ctx.db);
  const modelKey = embeddingModelKey(model);
  await ctx.db.transaction(async (tx) => {
    const r = await faceEnrollments.insert(tx, ctx, vector, {
      id: newEnrollmentId(),
      subjectReference,
      model: modelKey,
      embedding,
      sessionId,
    });
    if (r)
      await emitAudit(tx, ctx, {
        action: 'face_enrollment.created',
        resourceType: 'face_enrollment',
        resourceId: r.id,
        metadata: { subject_reference: subjectReference, model: modelKey, session_id: sessionId },
      });
  });
  return true;
}
