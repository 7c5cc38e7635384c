import { QUEUES } from '../../../platform/queues.js';
import type { Queryable } from '../../../platform/db.js';
import type { Sealer } from '../../../platform/crypto.js';
import type { Resources } from '../../../platform/resources.js';
import { systemContext, type Environment, type RequestContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { emitAudit } from '../../../platform/audit.js';
import type { JobHandler, JobRow } from '../../../platform/jobs.js';
import { checks, MEDIA_PURPOSE, RESULT_PURPOSE, sessionChecks, sessionMedia } from '../../checks/index.js';
import type { CheckOutcome as DecisionInput } from '../../journeys/index.js';
import { completeSessionChecks } from '../complete.js';
import { sessionFields } from '../fields.js';
import { emptyFields } from '../../checks/index.js';
import {
  runStep,
  type CapturedMedium,
  type JourneyCheckType,
  type StepOutcome,
  type StepResources,
  type StepState,
} from '../../checks/index.js';
import { sessions } from '../repository.js';

export const PIPELINE_QUEUE = QUEUES.verificationPipeline;
type Payload = { account_id: string; environment: Environment; session_id: string };
type Step = Exclude<JourneyCheckType, 'risk_score'>;

/**
 * Job verifications.pipeline, enqueued when the subject submits capture: runs the journey's checks
 * (the version the session pinned) on the captured media with the standalone checks' engine code,
 * outside any transaction, then stores every check's sealed result, the extracted fields, the media
 * links and the decision in one transaction (completeSessionChecks). A retry starts over and
 * overwrites; a session no longer processing is left alone. If the last attempt fails, every check
 * goes to review (reason check_error), so a session never stays processing for ever.
 */
export function pipelineJobHandlers(resources: Resources, sealer: () => Sealer): Record<string, JobHandler> {
  const res = (): StepResources => ({ sealer: sealer(), resources });
  return {
    [PIPELINE_QUEUE]: async (job: JobRow) => {
      const payload = job.payload as unknown as Payload;
      const ctx = systemContext(resources.db, payload.account_id, payload.environment, `job:${PIPELINE_QUEUE}`);
      try {
        await runPipeline(ctx, sealer(), res(), payload.session_id);
      } catch (err) {
        if (err instanceof AppError && err.code === 'conflict') return; // the session moved on (deleted, decided)
        if (job.attempts < job.max_attempts) throw err;
        await referForError(ctx, sealer(), payload.session_id, err);
      }
    },
  };
}

export async function runPipeline(ctx: RequestContext, sealer: Sealer, res: StepResources, sessionId: string): Promise<void> {
  const s = await sessions.get(ctx.db, ctx, sessionId);
  if (!s || s.status !== 'processing' || s.deleted_at) return;
  const st: StepState = {
    ctx,
    media: await capturedMedia(ctx.db, ctx, sealer, sessionId),
    subject: { reference: s.subject_reference, country: s.subject_country },
    // Declared at creation (subject.given_names …); the document's fields replace them when read.
    fields: (await sessionFields.read(ctx.db, ctx, sealer, sessionId)) ?? emptyFields(),
    fieldsRead: false,
    portrait: null,
    produced: [],
    used: new Map(),
    challenge: s.liveness_challenge?.actions ?? null,
  };
  // What the session was created with, before a document's fields replace it (journey rules read both).
  const declared = { ...st.fields, country: s.subject_country };
  const results = new Map<Step, StepOutcome>();
  for (const c of s.definition.checks) {
    if (c.type === 'risk_score') continue;
    results.set(c.type, await runStep(c.type, c.settings ?? {}, st, res));
  }
  const outcomes: DecisionInput[] = [...results].map(([type, o]) => ({ type, status: o.status as DecisionInput['status'] }));
  await completeSessionChecks(
    ctx.db,
    ctx,
    sessionId,
    outcomes,
    async (tx) => {
      const ids = await sessionChecks.idsByType(tx, ctx, sessionId);
      for (const [type, o] of results) await writeResult(tx, ctx, sealer, sessionId, type, o);
      for (const [type, mediaIds] of st.used) await sessionMedia.linkToCheck(tx, mediaIds, ids.get(type));
      for (const m of st.produced) await checks.insertMedia(tx, ctx, sealer, { checkId: ids.get(m.check) ?? null, sessionId }, m);
      if (st.fieldsRead) await sessionFields.write(tx, ctx, sealer, sessionId, st.fields);
    },
    {
      results: Object.fromEntries([...results].map(([type, o]) => [type, { status: o.status, score: o.score, reasons: o.reasons }])),
      document: st.fieldsRead ? st.fields : null,
      declared,
    },
  );
}

async function writeResult(
  tx: Queryable,
  t: RequestContext,
  sealer: Sealer,
  sessionId: string,
  type: string,
  o: StepOutcome,
): Promise<void> {
  const payload = { reasons: o.reasons, signals: o.signals, model: o.model, timings: o.timings, result: o.result };
  await sessionChecks.storeResult(tx, t, sessionId, type, {
    status: o.status,
    score: o.score,
    resultSealed: sealer.seal(RESULT_PURPOSE, JSON.stringify(payload)),
  });
}

/** The current capture of each kind (a re-capture replaced older ones), decrypted. */
async function capturedMedia(db: Queryable, t: RequestContext, sealer: Sealer, sessionId: string): Promise<Map<string, CapturedMedium>> {
  const rows = await sessionMedia.currentSealed(db, t, sessionId);
  const out = new Map<string, CapturedMedium>();
  for (const r of rows)
    out.set(r.kind, {
      id: r.id,
      kind: r.kind,
      contentType: r.content_type,
      data: sealer.openBytes(MEDIA_PURPOSE, Buffer.from(r.data_sealed)),
    });
  return out;
}

/** Last attempt failed: send the session to a reviewer rather than leave it processing. */
async function referForError(ctx: RequestContext, sealer: Sealer, sessionId: string, err: unknown): Promise<void> {
  const s = await sessions.get(ctx.db, ctx, sessionId);
  if (!s || s.status !== 'processing') return;
  const message = err instanceof Error ? err.message : String(err);
  const types = s.definition.checks.map((c) => c.type).filter((t): t is Step => t !== 'risk_score');
  const outcome = (type: Step): StepOutcome => ({
    status: type === 'sanctions_pep' ? 'potential_match' : 'needs_review',
    score: null,
    reasons: ['check_error'],
    signals: [],
    model: [],
    timings: {},
    result: {},
  });
  await completeSessionChecks(
    ctx.db,
    ctx,
    sessionId,
    types.map((type) => ({ type, status: outcome(type).status as DecisionInput['status'] })),
    async (tx) => {
      for (const type of types) await writeResult(tx, ctx, sealer, sessionId, type, outcome(type));
      await emitAudit(tx, ctx, {
        action: 'verification.pipeline_failed',
        resourceType: 'verification',
        resourceId: sessionId,
        metadata: { error: message.slice(0, 500) },
      });
    },
  );
}
