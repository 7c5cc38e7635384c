import { canSendWithNext, type Queryable } from './db.js';
import type { RequestContext } from './context.js';
import { newId } from './ids.js';
import { isKnownEventType } from './event-catalog.js';
import { writeOrDefer } from './transaction.js';

export interface EventInput {
  type: string;
  resourceType?: string;
  resourceId?: string;
  data: Record<string, unknown>;
  /** Deliver to this destination only (test events). */
  destinationId?: string;
  /**
   * Send the row with COMMIT when the transaction collects deferred writes. Only for a resource's one
   * event in its transaction (a new alert's alert.created): deferred rows are combined into one statement,
   * which gives their sequence numbers no defined order.
   */
  deferred?: boolean;
}

/**
 * Writes an event to the outbox in the caller's transaction, so an event exists exactly when
 * the change it reports was committed. Delivery to webhook destinations happens in jobs.
 */
export async function enqueueEvent(
  tx: Queryable,
  ctx: Pick<RequestContext, 'accountId' | 'environment'>,
  input: EventInput,
): Promise<{ id: string; created_at: Date }> {
  if (!isKnownEventType(input.type)) throw new Error(`event type ${input.type} is not in the event catalogue`);
  const id = newId('event');
  const createdAt = new Date();
  // Not deferred into the combined write (statements combined into one have no defined order, and events
  // of one resource must get their sequence numbers in the order they happened): sent in order with the
  // transaction's next statement or its COMMIT where the transaction can, else at once.
  const sql = `INSERT INTO events (id, account_id, environment, type, resource_type, resource_id, data, destination_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9::timestamptz)`;
  const params = [
    id,
    ctx.accountId,
    ctx.environment,
    input.type,
    input.resourceType ?? null,
    input.resourceId ?? null,
    JSON.stringify(input.data),
    input.destinationId ?? null,
    createdAt.toISOString(),
  ];
  if (canSendWithNext(tx)) tx.sendWithNext(sql, params);
  else if (input.deferred) await writeOrDefer(tx, sql, params);
  else await tx.query(sql, params);
  return { id, created_at: createdAt };
}

/** An outbox row as stored; the events table belongs to this file. */
export interface StoredEvent {
  id: string;
  account_id: string;
  environment: string;
  type: string;
  resource_type: string | null;
  resource_id: string | null;
  data: Record<string, unknown>;
  seq: number;
  created_at: Date;
  destination_id: string | null;
}

/** Locks the oldest not yet fanned-out events (skipping rows other workers hold). */
export function claimUndispatchedEvents(tx: Queryable, limit: number) {
  return tx.query<Pick<StoredEvent, 'id' | 'account_id' | 'environment' | 'type' | 'seq' | 'destination_id'>>(
    'SELECT id, account_id, environment, type, seq, destination_id FROM events WHERE dispatched_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED',
    [limit],
  );
}

export async function markEventsDispatched(tx: Queryable, ids: string[]): Promise<void> {
  await tx.query('UPDATE events SET dispatched_at = now() WHERE id = ANY($1::text[])', [ids]);
}

export function eventsByIds(db: Queryable, ids: string[]) {
  return db.query<StoredEvent>('SELECT * FROM events WHERE id = ANY($1::text[])', [ids]);
}

export async function findEvent(
  db: Queryable,
  ctx: Pick<RequestContext, 'accountId' | 'environment'>,
  id: string,
): Promise<StoredEvent | undefined> {
  const [e] = await db.query<StoredEvent>('SELECT * FROM events WHERE account_id = $1 AND environment = $2 AND id = $3', [
    ctx.accountId,
    ctx.environment,
    id,
  ]);
  return e;
}
