import { Type, type Static } from '@sinclair/typebox';
import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { conflict, notFound } from '../../platform/errors.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { iso, Timestamp } from '../../platform/schemas.js';
import { withTransaction } from '../../platform/transaction.js';
import { sessions, type SessionRow } from './repository.js';
import { closeSessionCases } from '../cases/index.js';
import { cancelEvent, effectiveState, lifetimeEvent, SESSION_STATES, WAITING_STATES, type SessionState } from './state-machine.js';
import { runErasureHooks } from '../../platform/erasure.js';
import { correctionRepo } from './corrections/repository.js';
import { SESSION_ERASURE_HOOKS } from './erasure-hooks.js';

const lit = <T extends string>(xs: readonly T[]) => Type.Union(xs.map((x) => Type.Literal(x)));

export const VerificationTombstone = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('verification'),
    status: lit(SESSION_STATES),
    journey: Type.String(),
    journey_version: Type.Integer(),
    subject: Type.Object({ type: Type.String(), reference: Type.Null(), country: Type.Null() }),
    decision: Type.Union([Type.String(), Type.Null()]),
    risk: Type.Union([Type.Object({ score: Type.Integer(), band: Type.String() }), Type.Null()]),
    reason_codes: Type.Array(Type.String()),
    decided_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
    completed_at: Type.Union([Timestamp, Type.Null()]),
    deleted_at: Timestamp,
    media_deleted: Type.Integer({ description: 'Media files destroyed by this deletion (0 when repeated).' }),
    checks_redacted: Type.Integer({ description: 'Check results removed by this deletion (0 when repeated).' }),
  },
  { title: 'VerificationTombstone' },
);
export type VerificationTombstone = Static<typeof VerificationTombstone>;

type Row = SessionRow & { deleted_at: Date | null };

function tombstone(s: Row, counts: { media: number; checks: number }): VerificationTombstone {
  return {
    id: s.id,
    object: 'verification',
    status: s.status,
    journey: s.journey_key,
    journey_version: s.journey_version,
    subject: { type: s.subject_type, reference: null, country: null },
    decision: s.decision,
    risk: s.risk_score === null || s.risk_band === null ? null : { score: s.risk_score, band: s.risk_band },
    reason_codes: s.reason_codes ?? [],
    decided_at: iso(s.decided_at),
    created_at: iso(s.created_at)!,
    updated_at: iso(s.updated_at)!,
    completed_at: iso(s.completed_at),
    deleted_at: iso(s.deleted_at)!,
    media_deleted: counts.media,
    checks_redacted: counts.checks,
  };
}

/**
 * Deletes a session's media and personal data inside the caller's transaction, keeping a tombstone:
 * media rows get deleted_at and lose their sealed bytes; the session's checks lose their sealed
 * results and subject reference (redacted_at set); the session loses its subject reference and
 * country, redirect URL and the reviewer's free-text reason. Status, timestamps, decision, risk and
 * reason codes stay, as do the transition trail, usage and audit rows. One audit row and one
 * verification.deleted event; reviewer corrections lose their values. A referred session can be
 * deleted (erasure must not wait on a reviewer): its open case closes with resolution `deleted`, it
 * stays referred and can no longer be decided or corrected. A processing session is 409 (the
 * pipeline would write into it again; it decides within seconds). A waiting session first ends:
 * before its lifetime is over it is cancelled (expired, or abandoned if capture started, with
 * expires_at set to now), after it exactly as the expiry job records it; both with audit and
 * verification.expired. Repeating it returns the tombstone unchanged.
 */
export async function eraseSession(
  tx: Queryable,
  ctx: RequestContext,
  id: string,
  reason: 'request' | 'retention',
): Promise<VerificationTombstone> {
  let s = (await sessions.lock(tx, ctx, id)) as Row | null;
  if (!s) throw notFound('verification', 'id');
  if (s.deleted_at) return tombstone(s, { media: 0, checks: 0 });
  const now = new Date();
  const status: SessionState = effectiveState(s, now);
  // A referred session may wait on a reviewer indefinitely, so an erasure request must not wait for
  // it: its case closes (resolution deleted) and it stays referred, undecidable, in the tombstone.
  // The sandbox's sandbox_processing subject stays processing by design (no pipeline runs for it), so
  // waiting would never end: it can be deleted like a finished session.
  const stuckByDesign = ctx.environment === 'sandbox' && s.sandbox_outcome === 'sandbox_processing';
  if (status === 'processing' && !stuckByDesign) {
    throw conflict('The session is processing: its checks finish within seconds. Retry the deletion once it has its decision.');
  }
  if (WAITING_STATES.includes(s.status)) {
    // Still waiting: its lifetime ends now (cancelled) or ended already (as the expiry job would record it);
    // the token stops working with the status change, so nothing more can be captured.
    const started = s.status === 'awaiting_subject' && s.capture_started_at !== null;
    const to = await sessions.applyTransition(tx, ctx, s.id, s.status, status === s.status ? cancelEvent(started) : lifetimeEvent(started));
    await emitAudit(tx, ctx, { action: `verification.${to}`, resourceType: 'verification', resourceId: s.id });
    const endedAt = await sessions.expiresAt(tx, s.id);
    await enqueueEvent(tx, ctx, {
      type: 'verification.expired',
      resourceType: 'verification',
      resourceId: s.id,
      data: { id: s.id, subject_reference: s.subject_reference, status: to, expires_at: iso(endedAt)! },
    });
  }
  // Each owning module erases its own rows (media, face enrolments, checks), in this order.
  const erased = await runErasureHooks(SESSION_ERASURE_HOOKS, tx, { ctx, sessionId: id });
  const counts = { media: erased.media ?? 0, checks: erased.checks ?? 0 };
  s = await sessions.eraseSubject(tx, ctx, id);
  // Reviewer corrections keep who, when, why and which fields; their values go with the rest.
  await correctionRepo.eraseValues(tx, ctx, id);
  if (s.status === 'referred') await closeSessionCases(tx, ctx, id, 'session_deleted', 'deleted');
  await emitAudit(tx, ctx, {
    action: 'verification.deleted',
    resourceType: 'verification',
    resourceId: id,
    metadata: { reason, status: s.status, decision: s.decision, media_deleted: counts.media, checks_redacted: counts.checks },
  });
  await enqueueEvent(tx, ctx, {
    type: 'verification.deleted',
    resourceType: 'verification',
    resourceId: id,
    data: { id, status: s.status, decision: s.decision, reason, deleted_at: iso(s.deleted_at)! },
  });
  return tombstone(s, counts);
}

export async function deleteVerification(ctx: RequestContext, id: string): Promise<VerificationTombstone> {
  return withTransaction(ctx, (tx) => eraseSession(tx, ctx, id, 'request'));
}
