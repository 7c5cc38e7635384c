import type { Db, Queryable } from '../../platform/db.js';
import { systemContext, type Environment, type RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { caseRows, type CaseRow } from './repository.js';
import type { CaseEvent } from './state-machine.js';

/** Audit row and case.updated event of one change, in the change's transaction. */
export async function announceCaseChange(
  tx: Queryable,
  ctx: RequestContext,
  before: CaseRow,
  after: CaseRow,
  extra: Record<string, unknown> = {},
): Promise<string[]> {
  const diff: Record<string, { before: unknown; after: unknown }> = {};
  for (const k of ['state', 'owner', 'severity', 'resolution', 'outcome'] as const)
    if ((before[k] ?? null) !== (after[k] ?? null)) diff[k] = { before: before[k] ?? null, after: after[k] ?? null };
  const snooze = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  if (snooze(before.snoozed_until) !== snooze(after.snoozed_until))
    diff.snoozed_until = { before: snooze(before.snoozed_until), after: snooze(after.snoozed_until) };
  const changed = Object.keys(diff).filter((k) => k !== 'resolution');
  if (changed.length === 0) return [];
  await emitAudit(tx, ctx, {
    action: 'case.updated',
    resourceType: 'case',
    resourceId: after.id,
    diff,
    metadata: { kind: after.kind, verification_id: after.session_id, alert_id: after.alert_id, ...extra },
  });
  await enqueueEvent(tx, ctx, {
    type: 'case.updated',
    resourceType: 'case',
    resourceId: after.id,
    data: {
      id: after.id,
      kind: after.kind,
      state: after.state,
      severity: after.severity,
      owner: after.owner,
      resolution: after.resolution,
      outcome: after.outcome ?? null,
      snoozed_until: after.snoozed_until ? new Date(after.snoozed_until).toISOString() : null,
      verification_id: after.session_id,
      alert_id: after.alert_id,
      changed,
    },
  });
  return changed;
}

/**
 * Closes a session's review case(s) because the session was decided or deleted, in that
 * transaction: the transition row, audit row and case.updated event commit with it.
 */
export async function closeSessionCases(
  tx: Queryable,
  ctx: RequestContext,
  sessionId: string,
  event: Extract<CaseEvent, 'session_decided' | 'session_deleted'>,
  resolution: string,
): Promise<string[]> {
  const closed: string[] = [];
  for (const before of await caseRows.unclosedOfSession(tx, ctx, sessionId)) {
    await caseRows.applyTransition(tx, ctx, before.id, before.state, event, resolution);
    await announceCaseChange(tx, ctx, before, (await caseRows.get(tx, ctx, before.id))!, { event });
    closed.push(before.id);
  }
  return closed;
}

/**
 * Alerts whose listed entity left its list (any tenant; the re-screen job closes them): their cases
 * close too, resolution entity_removed, in the same transaction as the alerts.
 */
export async function closeAlertCases(
  tx: Queryable,
  db: Db,
  alerts: { id: string; account_id: string; environment: string }[],
  requestId: string,
): Promise<number> {
  let closed = 0;
  for (const a of alerts) {
    const ctx = systemContext(db, a.account_id, a.environment as Environment, requestId);
    for (const id of await caseRows.lockUnclosedOfAlert(tx, ctx, a.id)) {
      const before = (await caseRows.get(tx, ctx, id))!;
      await caseRows.applyTransition(tx, ctx, id, before.state, 'alert_closed', 'entity_removed');
      await announceCaseChange(tx, ctx, before, (await caseRows.get(tx, ctx, id))!, { event: 'alert_closed' });
      closed++;
    }
  }
  return closed;
}
