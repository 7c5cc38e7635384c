import type { Queryable } from '../../platform/db.js';
import type { Environment } from '../../platform/context.js';

/** The webhooks module's SQL for the delivery loop (fan-out, claim, attempts, destination health). */

export interface ClaimedDelivery {
  id: string;
  destination_id: string;
  event_id: string;
  attempts: number;
}

export interface DestinationForSend {
  id: string;
  account_id: string;
  environment: Environment;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
}

export interface NewDelivery {
  id: string;
  accountId: string;
  environment: string;
  destinationId: string;
  eventId: string;
  eventSeq: number;
}

export interface SuccessfulAttempt {
  id: string;
  deliveryId: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  status: number | null;
  responseExcerpt: string | null;
}

export function enabledDestinationsOfTenants(tx: Queryable, tenants: string[]) {
  return tx.query<{ id: string; account_id: string; environment: string; event_types: string[] }>(
    "SELECT id, account_id, environment, event_types FROM webhook_destinations WHERE enabled AND deleted_at IS NULL AND account_id || ':' || environment = ANY($1::text[])",
    [tenants],
  );
}

/**
 * Whether an enabled destination of the environment receives events of this type (named, or `*`): for a
 * high-volume event emitted only where subscribed. One short indexed read (webhook_destinations_tenant).
 */
export async function subscribesTo(db: Queryable, t: { accountId: string; environment: string }, type: string): Promise<boolean> {
  const [row] = await db.query<{ yes: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM webhook_destinations WHERE account_id = $1 AND environment = $2 AND deleted_at IS NULL AND enabled
       AND event_types && ARRAY[$3::text, '*']) AS yes`,
    [t.accountId, t.environment, type],
  );
  return row?.yes === true;
}

export async function insertDeliveries(tx: Queryable, rows: NewDelivery[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO webhook_deliveries (id, account_id, environment, destination_id, event_id, event_seq)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[]) ON CONFLICT DO NOTHING`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.accountId),
      rows.map((r) => r.environment),
      rows.map((r) => r.destinationId),
      rows.map((r) => r.eventId),
      rows.map((r) => r.eventSeq),
    ],
  );
}

/** Claims due (or lease-expired) deliveries of enabled destinations, skipping rows other workers hold. */
export function claimDueDeliveries(db: Queryable, workerId: string, leaseSeconds: number, limit: number) {
  return db.query<ClaimedDelivery>(
    `UPDATE webhook_deliveries SET state = 'delivering', attempts = attempts + 1, locked_by = $1, locked_until = now() + make_interval(secs => $2)
     WHERE id IN (
       SELECT d.id FROM webhook_deliveries d JOIN webhook_destinations w ON w.id = d.destination_id AND w.enabled AND w.deleted_at IS NULL
       WHERE (d.state = 'pending' AND d.next_attempt_at <= now()) OR (d.state = 'delivering' AND d.locked_until < now())
       ORDER BY d.next_attempt_at, d.event_seq LIMIT $3 FOR UPDATE OF d SKIP LOCKED)
     RETURNING id, destination_id, event_id, attempts`,
    [workerId, leaseSeconds, limit],
  );
}

export function destinationsForSend(db: Queryable, ids: string[]) {
  return db.query<DestinationForSend>('SELECT * FROM webhook_destinations WHERE id = ANY($1::text[])', [ids]);
}

export async function recordSuccesses(
  tx: Queryable,
  workerId: string,
  batch: SuccessfulAttempt[],
  destinationIds: string[],
): Promise<void> {
  await tx.query(
    `INSERT INTO webhook_attempts (id, delivery_id, attempt, worker, started_at, duration_ms, status_code, response_excerpt)
     SELECT u.id, u.delivery_id, u.attempt, $1, u.started_at, u.duration_ms, u.status_code, u.excerpt
     FROM unnest($2::text[], $3::text[], $4::int[], $5::timestamptz[], $6::int[], $7::int[], $8::text[]) AS u(id, delivery_id, attempt, started_at, duration_ms, status_code, excerpt)`,
    [
      workerId,
      batch.map((b) => b.id),
      batch.map((b) => b.deliveryId),
      batch.map((b) => b.attempt),
      batch.map((b) => b.startedAt.toISOString()),
      batch.map((b) => b.durationMs),
      batch.map((b) => b.status),
      batch.map((b) => b.responseExcerpt),
    ],
  );
  await tx.query(
    `UPDATE webhook_deliveries d SET state = 'succeeded', completed_at = now(), last_status = u.status, last_error = null, locked_by = null, locked_until = null
     FROM unnest($1::text[], $2::int[]) AS u(id, status) WHERE d.id = u.id`,
    [batch.map((b) => b.deliveryId), batch.map((b) => b.status)],
  );
  // Only touch a destination row when something changes: every delivery to a busy
  // destination updating it would serialise them all on its row lock.
  await tx.query(
    "UPDATE webhook_destinations SET consecutive_failures = 0, failing_since = null, last_success_at = now() WHERE id = ANY($1::text[]) AND (consecutive_failures > 0 OR last_success_at IS NULL OR last_success_at < now() - interval '10 seconds')",
    [destinationIds],
  );
}

export async function insertFailedAttempt(
  tx: Queryable,
  a: {
    id: string;
    deliveryId: string;
    attempt: number;
    worker: string;
    startedAt: Date;
    durationMs: number;
    status: number | null;
    error: string | null;
    responseExcerpt: string | null;
  },
): Promise<void> {
  await tx.query(
    'INSERT INTO webhook_attempts (id, delivery_id, attempt, worker, started_at, duration_ms, status_code, error, response_excerpt) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    [a.id, a.deliveryId, a.attempt, a.worker, a.startedAt, a.durationMs, a.status, a.error, a.responseExcerpt],
  );
}

/** After a failed attempt: back to pending with the next attempt in `delaySeconds`, or failed when null. */
export async function rescheduleDelivery(
  tx: Queryable,
  id: string,
  delaySeconds: number | null,
  status: number | null,
  error: string | null,
): Promise<void> {
  await tx.query(
    `UPDATE webhook_deliveries SET state = $2, last_status = $3, last_error = $4, locked_by = null, locked_until = null,
       next_attempt_at = CASE WHEN $5::float8 IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $5::float8) END,
       completed_at = CASE WHEN $5::float8 IS NULL THEN now() ELSE null END
     WHERE id = $1`,
    [id, delaySeconds === null ? 'failed' : 'pending', status, error, delaySeconds],
  );
}

export async function countDestinationFailure(tx: Queryable, id: string) {
  const [dest] = await tx.query<{ consecutive_failures: number; failing_since: Date; enabled: boolean; url: string }>(
    'UPDATE webhook_destinations SET consecutive_failures = consecutive_failures + 1, failing_since = coalesce(failing_since, now()) WHERE id = $1 RETURNING consecutive_failures, failing_since, enabled, url',
    [id],
  );
  return dest;
}

export async function disableDestination(tx: Queryable, id: string, reason: string): Promise<void> {
  await tx.query('UPDATE webhook_destinations SET enabled = false, disabled_reason = $2, updated_at = now() WHERE id = $1', [id, reason]);
}

/** A new delivery of the same event to the same destination, linked to the one it repeats. */
export async function insertRedelivery(tx: Queryable, id: string, originalId: string): Promise<void> {
  await tx.query(
    `INSERT INTO webhook_deliveries (id, account_id, environment, destination_id, event_id, event_seq, redelivery_of)
     SELECT $1, account_id, environment, destination_id, event_id, event_seq, $2 FROM webhook_deliveries WHERE id = $2`,
    [id, originalId],
  );
}

export async function cancelOpenDeliveries(tx: Queryable, destinationId: string): Promise<void> {
  await tx.query(
    "UPDATE webhook_deliveries SET state = 'cancelled', completed_at = now() WHERE destination_id = $1 AND state IN ('pending', 'delivering')",
    [destinationId],
  );
}
