import { QUEUES } from '../../platform/queues.js';
import type { RequestContext } from '../../platform/context.js';
import { conflict, invalid } from '../../platform/errors.js';
import { enqueueJob } from '../../platform/jobs.js';
import { withTransaction } from '../../platform/transaction.js';
import { submitCaptureIn, sessions } from '../verifications/index.js';
import { captureMedia } from './repository.js';
import { stepsFor } from './steps.js';
import { assertWaiting } from './upload-media.js';
import { challengeRecorded } from './liveness-challenge.js';

/**
 * The subject is done: every required step must be captured (else 400 naming the missing kind), then
 * awaiting_subject → processing and the pipeline job commit together, so a submitted session always
 * has its pipeline queued and a pipeline never runs on a session that did not move.
 */
export async function submitCaptureSession({
  ctx,
  sessionId,
}: {
  ctx: RequestContext;
  sessionId: string;
}): Promise<{ id: string; status: 'processing' }> {
  return withTransaction(ctx, async (tx) => {
    const s = await sessions.lock(tx, ctx, sessionId);
    if (!s) throw conflict('The session no longer exists.');
    assertWaiting(s);
    const captured = new Set((await captureMedia.current(tx, ctx, s.id)).map((m) => m.kind));
    if (challengeRecorded(s, captured)) captured.add('liveness_challenge');
    const missing = stepsFor(s.definition).find((step) => step.required && !captured.has(step.kind));
    if (missing?.kind === 'liveness_challenge')
      throw invalid(
        missing.kind,
        'The liveness challenge has not been recorded in full; POST /capture/v1/challenge, then upload every frame.',
      );
    if (missing)
      throw invalid(missing.kind, `${missing.kind} has not been captured yet; upload it with PUT /capture/v1/media/${missing.kind}.`);
    await submitCaptureIn(tx, ctx, s.id);
    await enqueueJob(
      tx,
      QUEUES.verificationPipeline,
      { account_id: ctx.accountId, environment: ctx.environment, session_id: s.id },
      { dedupeKey: `pipeline:${s.id}` },
    );
    return { id: s.id, status: 'processing' as const };
  });
}
