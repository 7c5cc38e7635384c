import { destinationPolicy } from './destinations.js';
import { randomInt } from 'node:crypto';
import type { Db, Queryable } from '../../platform/db.js';
import type { Config } from '../../config.js';
import type { Sealer } from '../../platform/crypto.js';
import { newId } from '../../platform/ids.js';
import { ClaimingRunner } from '../../platform/poll-loop.js';
import { emitAudit } from '../../platform/audit.js';
import { claimUndispatchedEvents, enqueueEvent, eventsByIds, markEventsDispatched, type StoredEvent } from '../../platform/outbox.js';
import { systemContext } from '../../platform/context.js';
import { sendWebhook, type SendResult } from '../../providers/webhooks/http-sender.js';
import { signPayload } from '../../sdk/webhooks.js';
import { SECRET_PURPOSE } from './destinations.js';
import {
  claimDueDeliveries,
  countDestinationFailure,
  destinationsForSend,
  disableDestination,
  enabledDestinationsOfTenants,
  insertDeliveries,
  insertFailedAttempt,
  recordSuccesses,
  rescheduleDelivery,
  type ClaimedDelivery,
  type DestinationForSend,
  type NewDelivery,
} from './delivery-repository.js';

type EventRow = StoredEvent;

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
      const events = await claimUndispatchedEvents(tx, limit);
      if (events.length === 0) return 0;
      const tenants = [...new Set(events.map((e) => `${e.account_id}:${e.environment}`))];
      const dests = await enabledDestinationsOfTenants(tx, tenants);
      const deliveries: NewDelivery[] = [];
      for (const e of events) {
        for (const d of dests) {
          if (d.account_id !== e.account_id || d.environment !== e.environment) continue;
          if (e.destination_id ? d.id !== e.destination_id : !(d.event_types.includes('*') || d.event_types.includes(e.type))) continue;
          deliveries.push({
            id: newId('delivery'),
            accountId: e.account_id,
            environment: e.environment,
            destinationId: d.id,
            eventId: e.id,
            eventSeq: Number(e.seq),
          });
        }
      }
      await insertDeliveries(tx, deliveries);
      await markEventsDispatched(
        tx,
        events.map((e) => e.id),
      );
      return events.length;
    });
  }

  async claim(limit: number): Promise<ClaimedDelivery[]> {
    // The lease outlives the longest possible attempt (the timeout) plus time to record it.
    const leaseSeconds = this.opts.config.timeoutMs / 1000 + 5;
    return claimDueDeliveries(this.opts.db, this.opts.workerId, leaseSeconds, limit);
  }

  /** Claims due deliveries up to the free capacity and starts sending them; returns how many. */
  async deliverDue(): Promise<number> {
    const capacity = this.freeCapacity;
    if (capacity <= 0) return 0;
    const claimed = await this.claim(capacity);
    if (claimed.length === 0) return 0;
    const events = new Map((await eventsByIds(this.opts.db, [...new Set(claimed.map((c) => c.event_id))])).map((e) => [e.id, e]));
    const dests = new Map(
      (await destinationsForSend(this.opts.db, [...new Set(claimed.map((c) => c.destination_id))])).map((d) => [d.id, d]),
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
        await recordSuccesses(
          tx,
          this.opts.workerId,
          batch.map((b) => ({
            id: newId('attempt'),
            deliveryId: b.c.id,
            attempt: b.c.attempts,
            startedAt: b.startedAt,
            durationMs: b.r.durationMs,
            status: b.r.status,
            responseExcerpt: b.r.responseExcerpt,
          })),
          [...new Set(batch.map((b) => b.d.id))],
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
      await insertFailedAttempt(tx, {
        id: newId('attempt'),
        deliveryId: c.id,
        attempt: c.attempts,
        worker: this.opts.workerId,
        startedAt,
        durationMs: r.durationMs,
        status: r.status,
        error: r.error,
        responseExcerpt: r.responseExcerpt,
      });
      const delay = retryDelayMs(cfg.retryScheduleSeconds, c.attempts);
      await rescheduleDelivery(tx, c.id, delay === null ? null : delay / 1000, r.status, r.error);
      const dest = await countDestinationFailure(tx, d.id);
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
    await disableDestination(tx, d.id, reason);
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
