import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { enqueueJob } from '../../platform/jobs.js';
import { QUEUES } from '../../platform/queues.js';
import { conflict } from '../../platform/errors.js';
import { IllegalTransitionError, transition, type MessageAction, type MessageState } from '../../engines/travel-rule/index.js';
import { messageRows, type MessagePatch, type MessageRow } from './repository.js';

export type DeliveryKind = 'inquiry' | 'resolution' | 'confirmation';
export type MovedBy = 'api' | 'counterparty' | 'system';

/** The next status, or 409 conflict naming the status and the allowed actions. */
export function nextStatus(row: Pick<MessageRow, 'direction' | 'status'>, action: MessageAction): MessageState {
  try {
    return transition(row.direction, row.status, action);
  } catch (err) {
    if (err instanceof IllegalTransitionError)
      throw conflict(`Cannot ${action.replace('_', ' ')} an ${row.direction} message that is ${row.status}.`, 'status');
    throw err;
  }
}

/** Audit row and travel_rule.status_changed event of one move (creation included: from null). */
export async function announce(
  tx: Queryable,
  ctx: RequestContext,
  row: MessageRow,
  from: MessageState | null,
  action: MessageAction | 'create',
  by: MovedBy,
  note: string | null,
): Promise<void> {
  await emitAudit(tx, ctx, {
    action: `travel_rule.message.${action}`,
    resourceType: 'travel_rule_message',
    resourceId: row.id,
    metadata: { from, to: row.status, direction: row.direction, request_identifier: row.request_identifier, by, ...(note ? { note } : {}) },
  });
  await enqueueEvent(tx, ctx, {
    type: 'travel_rule.status_changed',
    resourceType: 'travel_rule_message',
    resourceId: row.id,
    data: {
      id: row.id,
      direction: row.direction,
      status: row.status,
      previous_status: from,
      action,
      protocol: row.protocol,
      request_identifier: row.request_identifier,
      counterparty_id: row.counterparty_id,
      reference: row.reference,
      by,
    },
  });
}

/** Puts a TRP message in the outbox: the delivery job posts it and retries transient failures. */
export async function enqueueDelivery(
  tx: Queryable,
  ctx: RequestContext,
  row: MessageRow,
  kind: DeliveryKind,
): Promise<MessagePatch['delivery']> {
  await enqueueJob(
    tx,
    QUEUES.travelRuleDeliver,
    { account_id: ctx.accountId, environment: ctx.environment, message_id: row.id, kind, status: row.status },
    { maxAttempts: 8 },
  );
  return { state: 'pending', kind, attempts: 0, last_error: null, delivered_at: null };
}

/**
 * Applies one lifecycle action to a locked row: the pure transition (409 when illegal), the update
 * from the status read (409 when it moved meanwhile), the trail row, the audit row, the event, and
 * the TRP delivery when the action has a message to send. All in the caller's transaction.
 */
export async function move(
  tx: Queryable,
  ctx: RequestContext,
  row: MessageRow,
  action: MessageAction,
  o: { patch?: MessagePatch; note?: string | null; by: MovedBy; deliver?: DeliveryKind },
): Promise<MessageRow> {
  const to = nextStatus(row, action);
  const patch: MessagePatch = { ...(o.patch ?? {}) };
  if (o.deliver && (row.protocol === 'trp' || (row.protocol === 'email' && o.deliver === 'inquiry')))
    patch.delivery = await enqueueDelivery(tx, ctx, { ...row, status: to }, o.deliver);
  const after = await messageRows.applyTransition(tx, ctx, row.id, row.status, to, action, patch, o.note ?? null);
  if (!after) throw conflict(`The message is no longer ${row.status}; retrieve it and retry.`, 'status');
  await announce(tx, ctx, after, row.status, action, o.by, o.note ?? null);
  return after;
}
