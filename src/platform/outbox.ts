import type { Queryable } from './db.js';
import type { RequestContext } from './context.js';
import { newId } from './ids.js';

export interface EventInput {
  type: string;
  resourceType?: string;
  resourceId?: string;
  data: Record<string, unknown>;
}

/**
 * Writes an event to the outbox in the caller's transaction, so an event exists exactly when
 * the change it reports was committed. Delivery to webhook destinations happens in jobs.
 */
export async function enqueueEvent(tx: Queryable, ctx: Pick<RequestContext, 'accountId' | 'environment'>, input: EventInput): Promise<{ id: string; created_at: Date }> {
  const id = newId('event');
  const rows = await tx.query<{ id: string; created_at: Date }>(
    `INSERT INTO events (id, account_id, environment, type, resource_type, resource_id, data)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) RETURNING id, created_at`,
    [id, ctx.accountId, ctx.environment, input.type, input.resourceType ?? null, input.resourceId ?? null, JSON.stringify(input.data)],
  );
  return rows[0]!;
}
