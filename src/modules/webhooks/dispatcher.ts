import { destinationPolicy } from './destinations.js';
import { randomInt } from 'node:crypto';
import type { Db, Queryable } from '../../platform/db.js';
import type { Config } from '../../config.js';
import type { Sealer } from '../../platform/crypto.js';
import { newId } from '../../platform/ids.js';
import { ClaimingRunner } from '../../platform/poll-loop.js';
import { emitAudit } from '../../platform/audit.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { systemContext, type Environment } from '../../platform/context.js';
import { sendWebhook, type SendResult } from '../../providers/webhooks/http-sender.js';
import { signPayload } from '../../sdk/webhooks.js';
import { SECRET_PURPOSE } from './destinations.js';

interface EventRow {
  id: string;
  account_id: string;
  environment: Environment;
  type: string;
  resource_type: string | null;
  resource_id: string | null;
  data: Record<string, unknown>;
  seq: number;
  created_at: Date;
  destination_id: string | null;
}

interface ClaimedDelivery {
  id: string;
  destination_id: string;
  event_id: string;
  attempts: number;
}

interface DestinationForSend {
  id: string;
  account_id: string;
  environment: Environment;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
}

export interface DispatcherOptions {
  db: Db;
  sealer: Sealer;
  config: Config['webhooks'];
  workerId: string;
  onError?: (err: unknown) => void;
}

/** Delay before the next attempt after `attempt` failed, jittered by ±20 % so retries spread out. */
export function retryDelayMs(schedule: number[], attempt: number): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  const ms = base * 1000;
  return Math.round(ms * 0.8 + (ms * 0.4 * randomInt(0, 1001)) / 1000);
}

/**
 * Moves events from the outbox to destinations and delivers them: at least once, signed, retried
 * with backoff, safe with any number of processes (everything is claimed with FOR UPDATE SKIP LOCKED
 * and a lease, so a crashed worker's delivery is taken over when its lease passes).
 */
export class WebhookDispatcher extends ClaimingRunner {
  constructor(private readonly opts: DispatcherOptions) {
    super(opts.config.pollMs, opts.config.concurrency, (err) => opts.onError?.(err));
  }

  /** Creates one delivery per matching destination for undispatched events; returns events handled. */
  async fanOut(limit = 500): Promise<number> {
    return this.opts.db.transaction(async (tx) => {
      const events = await tx.query<EventRow>(
        'SELECT id, account_id, environment, type, seq, destination_id FROM events WHERE dispatched_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED',
        [limit],
      );
      if (events.length === 0) return 0;
      const tenants = [...new Set(events.map((e) => `${e.account_id}:${e.environment}`))];
      const dests = await tx.query<{ id: string; account_id: string; environment: string; event_types: string[] }>(
        "SELECT id, account_id, environment, event_types FROM webhook_destinations WHERE enabled AND deleted_at IS NULL AND account_id || ':' || environment = ANY($1::text[])",
        [tenants],
      );
      const cols: [string[], string[], string[], string[], string[], number[]] = [[], [], [], [], [], []];
      for (const e of events) {
        for (const d of dests) {
          if (d.account_id !== e.account_id || d.environment !== e.environment) continue;
          if (e.destination_id ? d.id !== e.destination_id : !(d.event_types.includes('*') || d.event_types.includes(e.type))) continue;
          cols[0].push(newId('delivery'));
          cols[1].push(e.account_id);
          cols[2].push(e.environment);
          cols[3].push(d.id);
          cols[4].push(e.id);
          cols[5].push(Number(e.seq));
        }
      }
      if (cols[0].length > 0) {
        await tx.query(
          `INSERT INTO webhook_deliveries (id, account_id, environment, destination_id, event_id, event_seq)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[]) ON CONFLICT DO NOTHING`,
          cols,
        );
      }
      await tx.query('UPDATE events SET dispatched_at = now() WHERE id = ANY($1::text[])', [events.map((e) => e.id)]);
      return events.length;
    });
  }

  async claim(limit: number): Promise<ClaimedDelivery[]> {
    // The lease outlives the longest possible attempt (the timeout) plus time to record it.
    const leaseSeconds = this.opts.config.timeoutMs / 1000 + 5;
    return this.opts.db.query<ClaimedDelivery>(
      `UPDATE webhook_deliveries SET state = 'delivering', attempts = attempts + 1, locked_by = $1, locked_until = now() + make_interval(secs => $2)
       WHERE id IN (
         SELECT d.id FROM webhook_deliveries d JOIN webhook_destinations w ON w.id = d.destination_id AND w.enabled AND w.deleted_at IS NULL
         WHERE (d.state = 'pending' AND d.next_attempt_at <= now()) OR (d.state = 'delivering' AND d.locked_until < now())
         ORDER BY d.next_attempt_at, d.event_seq LIMIT $3 FOR UPDATE OF d SKIP LOCKED)
       RETURNING id, destination_id, event_id, attempts`,
      [this.opts.workerId, leaseSeconds, limit],
    );
  }

  /** Claims due deliveries up to the free capacity and starts sending them; returns how many. */
  async deliverDue(): Promise<number> {
    const capacity = this.freeCapacity;
    if (capacity <= 0) return 0;
    const claimed = await this.claim(capacity);
    if (claimed.length === 0) return 0;
    const events = new Map(
      (
        await this.opts.db.query<EventRow>('SELECT * FROM events WHERE id = ANY($1::text[])', [
          [...new Set(claimed.map((c) => c.event_id))],
        ])
      ).map((e) => [e.id, e]),
    );
    const dests = new Map(
      (
        await this.opts.db.query<DestinationForSend>('SELECT * FROM webhook_destinations WHERE id = ANY($1::text[])', [
          [...new Set(claimed.map((c) => c.destination_id))],
        ])
      ).map((d) => [d.id, d]),
    );
    for (const c of claimed) {
      this.track(this.deliver(c, events.get(c.event_id)!, dests.get(c.destination_id)!).catch((err) => this.opts.onError?.(err)));
    }
    return claimed.length;
  }

  private secrets(d: DestinationForSend): string[] {
    const out = [this.opts.sealer.open(SECRET_PURPOSE, d.secret_sealed)];
    if (d.previous_secret_sealed && d.previous_secret_expires_at && new Date(d.previous_secret_expires_at) > new Date()) {
      out.push(this.opts.sealer.open(SECRET_PURPOSE, d.previous_secret_sealed));
    }
    return out;
  }

  private async deliver(c: ClaimedDelivery, e: EventRow, d: DestinationForSend): Promise<void> {
    const sentAt = new Date();
    const body = JSON.stringify({
      id: e.id,
      type: e.type,
      created_at: new Date(e.created_at).toISOString(),
      environment: e.environment,
      sequence: Number(e.seq),
      resource: e.resource_type && e.resource_id ? { type: e.resource_type, id: e.resource_id } : null,
      data: e.data,
      delivery: { id: c.id, attempt: c.attempts, sent_at: sentAt.toISOString() },
    });
    const result = await sendWebhook({
      url: d.url,
      body,
      timeoutMs: this.opts.config.timeoutMs,
      // The destination's own environment decides: a sandbox destination may be a developer's local receiver.
      allowPrivateNetworks: destinationPolicy(d.environment, this.opts.config).allowPrivateNetworks,
      headers: {
        'verity-signature': this.secrets(d)
          .map((s) => signPayload(body, s))
          .join(','),
        'verity-event-id': e.id,
        'verity-event-type': e.type,
        'verity-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'verity-delivery-id': c.id,
        'verity-delivery-attempt': String(c.attempts),
      },
    });
    if (result.ok) await this.recordSuccess({ c, d, startedAt: sentAt, r: result });
    else await this.record(c, d, sentAt, result);
  }

  private pending: { c: ClaimedDelivery; d: DestinationForSend; startedAt: Date; r: SendResult; done: (err?: unknown) => void }[] = [];
  private flushTimer: NodeJS.Timeout | null = null;

  /**
   * Successful attempts are recorded in batches (one transaction for up to a few hundred): at a
   * few hundred deliveries a second, a transaction per delivery would be the bottleneck.
   */
  private recordSuccess(item: { c: ClaimedDelivery; d: DestinationForSend; startedAt: Date; r: SendResult }): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ ...item, done: (err) => (err ? reject(err) : resolve()) });
      if (this.pending.length >= 200) void this.flushSuccesses();
      else this.flushTimer ??= setTimeout(() => void this.flushSuccesses(), 5);
    });
  }

  private async flushSuccesses(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
    try {
      await this.opts.db.transaction(async (tx) => {
        // Losing this record in a crash only means the events are delivered once more, which
        // at-least-once allows; so the commit need not wait for its WAL flush.
        if (this.opts.db.kind === 'postgres') await tx.query('SET LOCAL synchronous_commit = off');
        await tx.query(
          `INSERT INTO webhook_attempts (id, delivery_id, attempt, worker, started_at, duration_ms, status_code, response_excerpt)
           SELECT u.id, u.delivery_id, u.attempt, $1, u.started_at, u.duration_ms, u.status_code, u.excerpt
           FROM unnest($2::text[], $3::text[], $4::int[], $5::timestamptz[], $6::int[], $7::int[], $8::text[]) AS u(id, delivery_id, attempt, started_at, duration_ms, status_code, excerpt)`,
          [
            this.opts.workerId,
            batch.map(() => newId('attempt')),
            batch.map((b) => b.c.id),
            batch.map((b) => b.c.attempts),
            batch.map((b) => b.startedAt.toISOString()),
            batch.map((b) => b.r.durationMs),
            batch.map((b) => b.r.status),
            batch.map((b) => b.r.responseExcerpt),
          ],
        );
        await tx.query(
          `UPDATE webhook_deliveries d SET state = 'succeeded', completed_at = now(), last_status = u.status, last_error = null, locked_by = null, locked_until = null
           FROM unnest($1::text[], $2::int[]) AS u(id, status) WHERE d.id = u.id`,
          [batch.map((b) => b.c.id), batch.map((b) => b.r.status)],
        );
        // Only touch a destination row when something changes: every delivery to a busy
        // destination updating it would serialise them all on its row lock.
        await tx.query(
          "UPDATE webhook_destinations SET consecutive_failures = 0, failing_since = null, last_success_at = now() WHERE id = ANY($1::text[]) AND (consecutive_failures > 0 OR last_success_at IS NULL OR last_success_at < now() - interval '10 seconds')",
          [[...new Set(batch.map((b) => b.d.id))]],
        );
      });
      for (const b of batch) b.done();
    } catch (err) {
      for (const b of batch) b.done(err);
    }
  }

  private async record(c: ClaimedDelivery, d: DestinationForSend, startedAt: Date, r: SendResult): Promise<void> {
    const cfg = this.opts.config;
    await this.opts.db.transaction(async (tx) => {
      await tx.query(
        'INSERT INTO webhook_attempts (id, delivery_id, attempt, worker, started_at, duration_ms, status_code, error, response_excerpt) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
        [newId('attempt'), c.id, c.attempts, this.opts.workerId, startedAt, r.durationMs, r.status, r.error, r.responseExcerpt],
      );
      const delay = retryDelayMs(cfg.retryScheduleSeconds, c.attempts);
      await tx.query(
        `UPDATE webhook_deliveries SET state = $2, last_status = $3, last_error = $4, locked_by = null, locked_until = null,
           next_attempt_at = CASE WHEN $5::float8 IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $5::float8) END,
           completed_at = CASE WHEN $5::float8 IS NULL THEN now() ELSE null END
         WHERE id = $1`,
        [c.id, delay === null ? 'failed' : 'pending', r.status, r.error, delay === null ? null : delay / 1000],
      );
      const [dest] = await tx.query<{ consecutive_failures: number; failing_since: Date; enabled: boolean; url: string }>(
        'UPDATE webhook_destinations SET consecutive_failures = consecutive_failures + 1, failing_since = coalesce(failing_since, now()) WHERE id = $1 RETURNING consecutive_failures, failing_since, enabled, url',
        [d.id],
      );
      if (
        dest &&
        dest.enabled &&
        dest.consecutive_failures >= cfg.disableMinFailures &&
        Date.now() - new Date(dest.failing_since).getTime() >= cfg.disableAfterHours * 3_600_000
      ) {
        await this.disable(tx, d, dest);
      }
    });
  }

  private async disable(
    tx: Queryable,
    d: DestinationForSend,
    dest: { consecutive_failures: number; failing_since: Date; url: string },
  ): Promise<void> {
    const reason = `disabled after ${dest.consecutive_failures} consecutive failed deliveries since ${new Date(dest.failing_since).toISOString()}`;
    await tx.query('UPDATE webhook_destinations SET enabled = false, disabled_reason = $2, updated_at = now() WHERE id = $1', [
      d.id,
      reason,
    ]);
    const ctx = systemContext(this.opts.db, d.account_id, d.environment);
    await emitAudit(tx, ctx, {
      action: 'webhook_destination.disabled',
      resourceType: 'webhook_destination',
      resourceId: d.id,
      metadata: { reason },
    });
    await enqueueEvent(tx, ctx, {
      type: 'webhook_destination.disabled',
      resourceType: 'webhook_destination',
      resourceId: d.id,
      data: {
        destination_id: d.id,
        url: dest.url,
        consecutive_failures: dest.consecutive_failures,
        failing_since: new Date(dest.failing_since).toISOString(),
        reason,
      },
    });
  }

  /** One round: fan out new events, then start due deliveries. */
  async runOnce(): Promise<number> {
    const fanned = await this.fanOut();
    const started = await this.deliverDue();
    return fanned + started;
  }
}
