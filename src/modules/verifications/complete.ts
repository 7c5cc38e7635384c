import type { Db, Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { conflict } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { decide, type CheckOutcome, type DecisionFacts, type DecisionResult } from '../journeys/index.js';
import { evidenceUrl, sessions, type SessionRow } from './repository.js';
import { openReviewCase } from '../cases/index.js';
import { sessionChecks } from '../checks/index.js';
import type { SessionEvent } from './state-machine.js';
import { enqueueEnrolment } from './pipeline/enrol-approved.js';

const EVENT_FOR: Record<DecisionResult['decision'], SessionEvent> = {
  approved: 'checks_passed',
  declined: 'checks_failed',
  referred: 'review_required',
};

/** verification.completed, exactly the spec's fields. */
export async function emitCompleted(
  tx: Queryable,
  ctx: RequestContext,
  s: Pick<SessionRow, 'id' | 'subject_reference'>,
  d: { decision: string; score: number; band: string; checks: { type: string; status: string }[] },
): Promise<void> {
  await enqueueEvent(tx, ctx, {
    type: 'verification.completed',
    resourceType: 'verification',
    resourceId: s.id,
    data: {
      id: s.id,
      subject_reference: s.subject_reference,
      decision: d.decision,
      risk: { score: d.score, band: d.band },
      checks: d.checks.map((c) => ({ type: c.type, status: c.status })),
      evidence_bundle_url: evidenceUrl(s.id),
    },
  });
}

/**
 * Where the check pipeline ends (and the sandbox's forced outcomes): writes each check's final
 * status, runs the journey's decision over them (the version the session pinned), moves the session
 * processing → approved | declined | referred, and in the same transaction stores the decision,
 * opens a review case for a referral, writes the audit row and the outbox event. `writeResults`
 * runs first in the same transaction (the pipeline stores each check's sealed result there). `facts`
 * is what the journey's CEL rules read beyond the statuses (the pipeline's check results, document
 * fields, declared data); the rules' trail (each rule, its result, the values it used) is stored with
 * the decision and its audit row names each rule's result.
 */
export async function completeSessionChecks(
  db: Db,
  ctx: RequestContext,
  sessionId: string,
  outcomes: CheckOutcome[],
  writeResults?: (tx: Queryable) => Promise<void>,
  facts: Omit<DecisionFacts, 'subject' | 'now'> = {},
): Promise<DecisionResult> {
  return db.transaction(async (tx) => {
    const s = await sessions.lock(tx, ctx, sessionId);
    if (!s) throw new Error(`session ${sessionId} not found`);
    if (s.status !== 'processing') throw conflict(`The session is ${s.status}; only a processing session can complete its checks.`);
    // The pipeline's check results, fields and media links commit with the decision they lead to.
    if (writeResults) await writeResults(tx);
    const result = decide(s.definition, outcomes, {
      ...facts,
      subject: { type: s.subject_type, reference: s.subject_reference, country: s.subject_country },
      now: Date.now(),
    });
    for (const c of result.checks) await sessions.setCheckStatus(tx, ctx, s.id, c.type, c.status, true);
    await sessions.applyTransition(tx, ctx, s.id, 'processing', EVENT_FOR[result.decision]);
    await sessions.recordDecision(tx, ctx, s.id, {
      decision: result.decision,
      score: result.risk.score,
      band: result.risk.band,
      reasonCodes: result.reason_codes,
      decidedBy: 'system',
      reason: null,
      ruleTrail: result.rules.length ? result.rules : null,
    });
    // The audit row names each rule and its result; the values (nationality, age…) stay with the session,
    // erased with it, not in the append-only log.
    const journeyRules = result.rules.map((r) => ({ key: r.key, result: r.result }));
    await emitAudit(tx, ctx, {
      action: `verification.${result.decision}`,
      resourceType: 'verification',
      resourceId: s.id,
      metadata: {
        decision: result.decision,
        risk: result.risk,
        reason_codes: result.reason_codes,
        ...(journeyRules.length ? { journey_rules: journeyRules } : {}),
      },
    });
    if (result.decision === 'referred') {
      const caseId = newId('case');
      const reasonCode = result.reason_codes[0] ?? 'review_required';
      await openReviewCase(tx, ctx, { id: caseId, sessionId: s.id, reasonCode, reasonCodes: result.reason_codes, band: result.risk.band });
      await enqueueEvent(tx, ctx, {
        type: 'verification.referred',
        resourceType: 'verification',
        resourceId: s.id,
        data: {
          id: s.id,
          subject_reference: s.subject_reference,
          case_id: caseId,
          reason_code: reasonCode,
          reason_codes: result.reason_codes,
          risk: result.risk,
          checks: result.checks,
        },
      });
    } else {
      await emitCompleted(tx, ctx, s, {
        decision: result.decision,
        score: result.risk.score,
        band: result.risk.band,
        checks: result.checks,
      });
      if (result.decision === 'approved') await enqueueEnrolment(tx, ctx, s);
    }
    return result;
  });
}

/** The subject finished capture: awaiting_subject → processing, every check processing. */
export async function submitCapture(db: Db, ctx: RequestContext, sessionId: string): Promise<void> {
  await db.transaction((tx) => submitCaptureIn(tx, ctx, sessionId));
}

/** submitCapture inside the caller's transaction (the capture API enqueues the pipeline in it too). */
export async function submitCaptureIn(tx: Queryable, ctx: RequestContext, sessionId: string): Promise<void> {
  await sessions.applyTransition(tx, ctx, sessionId, 'awaiting_subject', 'capture_submitted', { captureStarted: true });
  await sessionChecks.markProcessing(tx, ctx, sessionId);
  await emitAudit(tx, ctx, { action: 'verification.capture_submitted', resourceType: 'verification', resourceId: sessionId });
}

/** The subject started capture (first upload): marks the session so its lifetime's end reads as abandoned. */
export async function startCapture(db: Db, ctx: RequestContext, sessionId: string): Promise<void> {
  await db.transaction((tx) => startCaptureIn(tx, ctx, sessionId));
}

/** startCapture inside the caller's transaction (the capture API stores the first upload in it). */
export async function startCaptureIn(tx: Queryable, ctx: RequestContext, sessionId: string): Promise<void> {
  await sessions.applyTransition(tx, ctx, sessionId, 'awaiting_subject', 'capture_started');
}
