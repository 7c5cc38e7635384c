import { resolveMx } from 'node:dns/promises';
import type { RequestContext } from '../../../platform/context.js';
import type { Sealer } from '../../../platform/crypto.js';
import { AppError, invalid } from '../../../platform/errors.js';
import {
  MessagingError,
  SANDBOX_CONTACT_CODE,
  SandboxMessagingProvider,
  type MessagingProvider,
  type SendReceipt,
} from '../../../providers/messaging/index.js';
import {
  normalizeDestination,
  renderCodeMessage,
  resolveOtpConfig,
  startVerification,
  type DestinationCheck,
  type OtpConfig,
  type StartResult,
  type VerificationState,
} from '../../../engines/contact/index.js';
import type { ContactSettings } from './settings.js';
import { destinationHash, verifications } from './repository.js';

export interface ContactDeps {
  sealer: Sealer;
  settings: ContactSettings;
  secrets: { otp: Buffer; destination: Buffer };
}

export function otpConfig(s: ContactSettings): Partial<OtpConfig> {
  return { ttlSeconds: s.ttlSeconds, maxAttempts: s.maxAttempts, resendCooldownSeconds: s.resendCooldownSeconds };
}

const DESTINATION_MESSAGES: Record<string, string> = {
  syntax: 'destination is not a valid email address.',
  no_mx: 'destination: the email domain has no mail server (MX record).',
  unparseable: 'destination is not a phone number (use E.164, e.g. +447400123456).',
  invalid_number: 'destination is not a valid phone number (use E.164, e.g. +447400123456).',
  not_sms_capable: 'destination cannot receive SMS (premium-rate, shared-cost, toll-free or fixed-line number).',
  country_not_allowed: 'destination is in a country this service does not send to.',
};

/** Validates and normalises the destination (E.164, lower-cased email domain); 400 on destination otherwise. */
export async function checkDestination(
  d: ContactDeps,
  channel: 'email' | 'sms',
  raw: string,
): Promise<DestinationCheck & { normalized: string }> {
  const dest = await normalizeDestination(channel, raw, {
    phone: { defaultCountry: d.settings.defaultCountry },
    email: d.settings.mxLookup ? { resolveMx } : {},
  });
  if (!dest.ok || !dest.normalized) {
    const hint =
      channel === 'sms' && !d.settings.defaultCountry && !raw.trim().startsWith('+')
        ? ' National numbers need CONTACT_DEFAULT_COUNTRY on the server; send E.164.'
        : '';
    throw invalid('destination', (DESTINATION_MESSAGES[dest.reason ?? 'syntax'] ?? 'destination is not valid.') + hint);
  }
  return dest as DestinationCheck & { normalized: string };
}

/** Refusals of the OTP engine: limits are 429 with Retry-After; state problems are 409. */
function refusal(r: Extract<StartResult, { ok: false }>): AppError {
  const retry = String(r.retryAfterSeconds ?? 60);
  switch (r.reason) {
    case 'rate_limited':
      return new AppError('rate_limited', `Too many codes were sent to this destination recently; retry after ${retry} s.`, {
        field: 'destination',
        headers: { 'retry-after': retry },
      });
    case 'resend_too_soon':
      return new AppError('rate_limited', `A code was sent moments ago; a new one can be sent after ${retry} s.`, {
        field: null,
        headers: { 'retry-after': retry },
      });
    case 'resend_limit':
      return new AppError('conflict', 'No more codes can be sent for this verification; start a new one.');
    case 'already_verified':
      return new AppError('conflict', 'This contact check is already verified.');
    case 'locked':
      return new AppError('conflict', 'This contact check failed (too many attempts or expired); start a new one.');
    default:
      return new AppError('conflict', `The code cannot be sent (${r.reason}).`);
  }
}

// Permanent refusals that are about our configuration (credentials, sender), not the recipient.
const OUR_SIDE = new Set(['auth_failed', 'twilio_21606', 'twilio_21659', 'twilio_21212']);

/** A provider's refusal of the recipient is the caller's bad destination; anything else is ours: 422. */
function deliveryError(err: unknown, provider: MessagingProvider): AppError {
  const e =
    err instanceof MessagingError ? err : new MessagingError(provider.name, 'transient', 'unknown', String((err as Error)?.message ?? err));
  const recipient = e.kind === 'permanent' && !OUR_SIDE.has(e.code) && !e.code.startsWith('http_');
  if (recipient)
    return invalid('destination', `The ${provider.channel} provider refused this destination (${e.code}); nothing was stored or billed.`);
  const why =
    e.code === 'auth_failed' ? 'refused the configured credentials' : e.kind === 'transient' ? 'is unavailable' : `failed (${e.code})`;
  return new AppError(
    'check_unavailable',
    `The ${provider.channel} provider ${why}; the code was not sent and nothing was stored or billed. Retry later.`,
    { field: null, cause: err },
  );
}

/**
 * Sends one code so that it is never sent without its hash stored, nor stored as live without having
 * been sent. Reserve (one short transaction): claim the Idempotency-Key, lock the destination, apply
 * the per-destination limits over the send history, store the new state with the code's hash and
 * the send. Then send, outside any transaction. If the send fails, the reservation is undone (the
 * message never left, so it does not count) and the key is freed for a retry. The caller settles.
 */
export async function reserveAndSend(
  d: ContactDeps,
  args: {
    ctx: RequestContext;
    idempotencyKey?: string;
    id: string;
    channel: 'email' | 'sms';
    destination: string;
    provider: MessagingProvider;
    /** For a resend: reads the current state in the reservation and returns it (or throws). */
    loadPrevious?: (tx: Parameters<typeof verifications.getForUpdate>[0]) => Promise<VerificationState>;
  },
): Promise<{ state: VerificationState; previous: VerificationState | null; receipt: SendReceipt; sendMs: number }> {
  const { ctx, id } = args;
  const hash = destinationHash(d.secrets.destination, args.channel, args.destination);
  const config = otpConfig(d.settings);
  const longest = Math.max(...resolveOtpConfig(config).destinationWindows.map((w) => w.windowSeconds));
  const idem = ctx.idempotency && !ctx.idempotency.used ? ctx.idempotency : undefined;
  const reserved = await ctx.db.transaction(async (tx) => {
    if (idem) await idem.begin(tx);
    const previous = args.loadPrevious ? await args.loadPrevious(tx) : null;
    await verifications.lockDestination(tx, ctx, hash);
    // The clock is read only once the destination is ours: a time taken before waiting for the lock
    // could precede a send the previous holder just recorded, and that send would not count.
    const now = new Date();
    const history = await verifications.sendHistory(tx, ctx, hash, new Date(now.getTime() - longest * 1000));
    const fixedCode = args.provider instanceof SandboxMessagingProvider ? SANDBOX_CONTACT_CODE : undefined;
    const started = startVerification(previous, {
      channel: args.channel,
      destination: args.destination,
      now,
      secret: d.secrets.otp,
      destinationHistory: history,
      config,
      fixedCode,
    });
    if (!started.ok) throw refusal(started);
    if (previous) await verifications.update(tx, ctx, d.sealer, id, started.state);
    else await verifications.insert(tx, ctx, d.sealer, { id, hash, state: started.state });
    await verifications.recordSend(tx, ctx, { id, hash, at: now });
    return { started, previous, now };
  });
  const { now } = reserved;

  const message = renderCodeMessage(reserved.started.code, resolveOtpConfig(config).ttlSeconds);
  const t0 = performance.now();
  try {
    const receipt = await args.provider.send({ to: args.destination, subject: message.subject, text: message.text });
    return { state: reserved.started.state, previous: reserved.previous, receipt, sendMs: performance.now() - t0 };
  } catch (err) {
    await ctx.db.transaction(async (tx) => {
      if (reserved.previous) {
        // A failed resend: the previous code stays the live one, and this attempt does not count.
        await verifications.update(tx, ctx, d.sealer, id, reserved.previous);
        await verifications.forgetSend(tx, ctx, id, now);
      } else {
        await verifications.forgetReservation(tx, ctx, id, now);
      }
      if (idem) await idem.release(tx);
    });
    throw deliveryError(err, args.provider);
  }
}
