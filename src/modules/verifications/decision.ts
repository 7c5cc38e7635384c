import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { conflict, notFound } from '../../platform/errors.js';
import { iso } from '../../platform/schemas.js';
import { withTransaction } from '../../platform/transaction.js';
import { emitCompleted } from './complete.js';
import { enqueueEnrolment } from './pipeline/enrol-approved.js';
import { evidenceUrl, sessions, type SessionCheckRow, type SessionRow } from './repository.js';
import { assertReviewOwner, closeSessionCases } from '../cases/index.js';
import type { DecisionObject, ManualDecision } from './schemas.js';
import { effectiveState, TERMINAL_STATES, type SessionState } from './state-machine.js';

export function toDecision(s: SessionRow, status: SessionState, checks: SessionCheckRow[]): DecisionObject {
  if (!s.decision || s.risk_score === null || !s.risk_band) {
    throw conflict(
      TERMINAL_STATES.includes(status)
        ? `The session ended ${status}, without a decision.`
        : `The session is ${status} and has no decision yet.`,
    );
  }
  return {
    object: 'decision',
    id: s.id,
    status,
    decision: s.decision,
    risk: { score: s.risk_score, band: s.risk_band },
    checks: checks.map((c) => ({ type: c.type, status: c.status as DecisionObject['checks'][number]['status'], id: c.id })),
    reason_codes: s.reason_codes ?? [],
    decided_by: s.decided_by,
    decided_reason: s.decided_reason,
    decided_at: iso(s.decided_at),
    evidence_bundle_url: evidenceUrl(s.id),
    journey_rules: s.rule_trail ?? [],
  };
}

/**
 * A reviewer's decision on a referred session: referred → approved | declined, the decision and
 * who/why stored, the review case closed, audit row and verification.completed, in one transaction.
 * Any other status is 409 (processing sessions are decided by their checks, terminal ones are final).
 */
export async function recordManualDecision({
  ctx,
  id,
  input,
}: {
  ctx: RequestContext;
  id: string;
  input: ManualDecision;
}): Promise<DecisionObject> {
  return withTransaction(ctx, async (tx) => {
    const s = await sessions.lock(tx, ctx, id);
    if (!s) throw notFound('verification', 'id');
    if (s.deleted_at) throw conflict('The session was deleted (its personal data is gone); it can no longer be decided.');
    await assertReviewOwner(tx, ctx, id);
    const from = effectiveState(s, new Date());
    const to = await sessions.applyTransition(tx, ctx, id, from, input.decision === 'approved' ? 'manual_approve' : 'manual_decline');
    const reviewer = input.reviewer ?? `${ctx.actor.type}:${ctx.actor.id}`;
    const reasonCodes = [...new Set([...(s.reason_codes ?? []), `manual_${input.decision}`])];
    await sessions.recordDecision(tx, ctx, id, {
      decision: input.decision,
      score: s.risk_score ?? 0,
      band: s.risk_band ?? 'low',
      reasonCodes,
      decidedBy: reviewer,
      reason: input.reason,
    });
    await closeSessionCases(tx, ctx, id, 'session_decided', `decision: ${input.decision}`);
    await emitAudit(tx, ctx, {
      action: 'verification.manual_decision',
      resourceType: 'verification',
      resourceId: id,
      diff: { status: { before: from, after: to }, decision: { before: s.decision, after: input.decision } },
      metadata: { reviewer, reason: input.reason },
    });
    const checks = (await sessions.checksOf(tx, [id])).get(id) ?? [];
    const updated = (await sessions.lock(tx, ctx, id))!;
    await emitCompleted(tx, ctx, updated, { decision: input.decision, score: updated.risk_score!, band: updated.risk_band!, checks });
    if (input.decision === 'approved') await enqueueEnrolment(tx, ctx, updated);
    return toDecision(updated, to, checks);
  });
}
