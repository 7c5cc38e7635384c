import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { newId } from '../../platform/ids.js';
import type { ScreeningHit } from '../checks/index.js';
import { caseRows } from './repository.js';
import { alertSeverity, reviewSeverity } from './severity.js';

/**
 * Opens the review case of a session that was referred, in the referring transaction (the
 * verification.referred event announces it). Severity from the session's risk.
 */
export async function openReviewCase(
  tx: Queryable,
  ctx: RequestContext,
  c: { id?: string; sessionId: string; reasonCode: string; reasonCodes: string[]; band: 'low' | 'medium' | 'high' | null },
): Promise<string> {
  const id = c.id ?? newId('case');
  const severity = reviewSeverity(c.band, c.reasonCodes);
  await caseRows.open(tx, ctx, {
    id,
    kind: 'verification_review',
    sessionId: c.sessionId,
    severity,
    reasonCode: c.reasonCode,
    reasonCodes: c.reasonCodes,
  });
  await emitAudit(tx, ctx, {
    action: 'case.opened',
    resourceType: 'case',
    resourceId: id,
    metadata: { kind: 'verification_review', verification_id: c.sessionId, severity, reason_codes: c.reasonCodes },
  });
  return id;
}

/**
 * Opens the case of a new monitoring alert, in the alert's own transaction: the queue is one table,
 * so owner, severity and state live in one place for both kinds.
 */
export async function openAlertCase(
  tx: Queryable,
  ctx: RequestContext,
  a: { id: string; reason: 'added' | 'changed'; hit: ScreeningHit },
): Promise<string> {
  const id = newId('case');
  const severity = alertSeverity(a.hit);
  const reasonCode = `rescreening_${a.reason}`;
  await caseRows.open(tx, ctx, { id, kind: 'screening_alert', alertId: a.id, severity, reasonCode, reasonCodes: [reasonCode] });
  await emitAudit(tx, ctx, {
    action: 'case.opened',
    resourceType: 'case',
    resourceId: id,
    metadata: { kind: 'screening_alert', alert_id: a.id, severity, reason_codes: [reasonCode] },
  });
  return id;
}
