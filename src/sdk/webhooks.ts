/**
 * Receiver-side helper for Verity webhooks. Copy-free: `import { verifyWebhook } from 'verity/webhooks'`.
 *
 * A delivery is a POST whose raw body is the signed event:
 *   { id, type, created_at, environment, sequence, resource, data, delivery: { id, attempt, sent_at } }
 * Headers: Verity-Signature (one or more lowercase hex HMAC-SHA256 digests of the raw body,
 * comma-separated: during a secret rotation both the new and the previous secret sign),
 * Verity-Event-Id, Verity-Timestamp (Unix seconds of sending), Verity-Delivery-Id.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'verity-signature';
export const EVENT_ID_HEADER = 'verity-event-id';
export const TIMESTAMP_HEADER = 'verity-timestamp';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerityEvent<T = Record<string, unknown>> {
  id: string;
  type: string;
  created_at: string;
  environment: 'sandbox' | 'production';
  sequence: number;
  resource: { type: string; id: string } | null;
  data: T;
  delivery: { id: string; attempt: number; sent_at: string };
}

export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: 'missing_signature' | 'bad_signature' | 'malformed_body' | 'too_old' | 'duplicate',
    message: string,
  ) {
    super(message);
  }
}

export function signPayload(rawBody: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/** Constant-time comparison of two hex digests; lengths are compared first, as the spec says. */
export function safeEqualHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

export interface VerifyOptions {
  rawBody: string | Buffer;
  /** The Verity-Signature header value. */
  signature: string | string[] | undefined;
  /** Your destination's secret(s); pass both during a rotation on your side. */
  secrets: string | string[];
  toleranceSeconds?: number;
  now?: Date;
  /** Deduplication: return true if this event id was already processed. */
  seen?: (eventId: string) => boolean;
}

/**
 * Verifies a delivery and returns the parsed event. Throws WebhookVerificationError when the body
 * was not signed with one of the secrets, is older than the tolerance (replay), or is a duplicate.
 */
export function verifyWebhook<T = Record<string, unknown>>(opts: VerifyOptions): VerityEvent<T> {
  const header = Array.isArray(opts.signature) ? opts.signature.join(',') : opts.signature;
  if (!header) throw new WebhookVerificationError('missing_signature', 'no Verity-Signature header');
  const received = header
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const secrets = Array.isArray(opts.secrets) ? opts.secrets : [opts.secrets];
  const valid = secrets.some((secret) => {
    const expected = signPayload(opts.rawBody, secret);
    return received.some((sig) => safeEqualHex(sig, expected));
  });
  if (!valid) throw new WebhookVerificationError('bad_signature', 'signature does not match the body');
  let event: VerityEvent<T>;
  try {
    event = JSON.parse(typeof opts.rawBody === 'string' ? opts.rawBody : opts.rawBody.toString('utf8')) as VerityEvent<T>;
  } catch {
    throw new WebhookVerificationError('malformed_body', 'body is not JSON');
  }
  const sentAt = Date.parse(event.delivery?.sent_at ?? '');
  if (!Number.isFinite(sentAt)) throw new WebhookVerificationError('malformed_body', 'delivery.sent_at missing');
  const tolerance = (opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS) * 1000;
  const now = (opts.now ?? new Date()).getTime();
  if (Math.abs(now - sentAt) > tolerance)
    throw new WebhookVerificationError('too_old', `sent ${Math.round((now - sentAt) / 1000)} s ago, outside the tolerance`);
  if (opts.seen?.(event.id)) throw new WebhookVerificationError('duplicate', `event ${event.id} was already processed`);
  return event;
}

/** A small in-memory deduplication set with expiry, for receivers that have nothing better. */
export function createReplayGuard(ttlSeconds = 3 * 24 * 3600): { seen: (id: string) => boolean } {
  const seenAt = new Map<string, number>();
  return {
    seen(id: string) {
      const now = Date.now();
      if (seenAt.size > 100_000) for (const [k, t] of seenAt) if (now - t > ttlSeconds * 1000) seenAt.delete(k);
      if (seenAt.has(id)) return true;
      seenAt.set(id, now);
      return false;
    },
  };
}
