import type { RequestContext } from '../../../platform/context.js';
import { conflict, notFound } from '../../../platform/errors.js';
import { emitAudit } from '../../../platform/audit.js';
import { newId } from '../../../platform/ids.js';
import { recordUsage } from '../../../platform/usage.js';
import type { SendReceipt } from '../../../providers/messaging/index.js';
import { resolveOtpConfig, type VerificationState } from '../../../engines/contact/index.js';
import type { ModelInfo } from '../../../engines/signal.js';
import { checks, toCheck, type CheckPayload, roundTimings, type Check } from '../kernel/index.js';
import { checkDestination, otpConfig, reserveAndSend, type ContactDeps } from './deliver.js';
import { providerFor, type ContactProviders } from './providers.js';
import { getCheckForUpdate, updateCheck, verifications } from './repository.js';
import type { ContactStartBody } from './schemas.js';

export const CONTACT_MODEL: ModelInfo = { name: 'verity-contact-otp', version: '1.0.0' };

/** The check's `result`: where the verification stands. Never the code, never its hash. */
export function contactResult(
  d: ContactDeps,
  id: string,
  state: VerificationState,
  extra: { disposable?: boolean | null; receipt?: SendReceipt },
): Record<string, unknown> {
  const config = resolveOtpConfig(otpConfig(d.settings));
  return {
    verification_id: id,
    channel: state.channel,
    destination: state.destination,
    status: state.status,
    expires_at: state.expiresAt,
    attempts_left: Math.max(0, config.maxAttempts - state.attempts),
    sends: state.sentAt.length,
    sends_left: Math.max(0, config.maxSends - state.sentAt.length),
    verified_at: state.verifiedAt,
    ...(state.channel === 'email' ? { disposable_domain: extra.disposable ?? false } : {}),
    ...(extra.receipt ? { provider: extra.receipt.provider, provider_message_id: extra.receipt.providerMessageId } : {}),
  };
}

/**
 * Start: normalise the destination, reserve and send the code (see reserveAndSend), then store the
 * pending check, one usage record (the verification is billed once, here) and the audit row.
 */
export async function startContact(
  d: ContactDeps,
  args: { ctx: RequestContext; providers: ContactProviders; input: ContactStartBody; idempotencyKey?: string },
): Promise<Check> {
  const { ctx, input } = args;
  const t0 = performance.now();
  // The destination is the caller's to fix (400) before the channel is ours to provide (422).
  const dest = await checkDestination(d, input.channel, input.destination);
  const provider = providerFor(args.providers, input.channel, ctx.environment);
  const t1 = performance.now();
  const id = newId('check');
  const sent = await reserveAndSend(d, {
    ctx,
    idempotencyKey: args.idempotencyKey,
    id,
    channel: input.channel,
    destination: dest.normalized,
    provider,
  });
  const payload: CheckPayload = {
    reasons: [],
    signals: dest.signals,
    model: [CONTACT_MODEL],
    timings: roundTimings({ normalize: t1 - t0, send: sent.sendMs, total: performance.now() - t0 }),
    result: contactResult(d, id, sent.state, { disposable: dest.flags.includes('disposable_email'), receipt: sent.receipt }),
  };
  return ctx.db.transaction(async (tx) => {
    await verifications.update(tx, ctx, d.sealer, id, sent.state, sent.receipt.providerMessageId);
    const row = await checks.insert(tx, ctx, d.sealer, {
      id,
      type: 'contact',
      status: 'pending',
      score: null,
      subjectReference: input.subject_reference ?? null,
      payload,
      completed: false,
    });
    await recordUsage(tx, ctx, 'checks', 'contact', id);
    await emitAudit(tx, ctx, {
      action: 'check.created',
      resourceType: 'check',
      resourceId: id,
      metadata: { type: 'contact', status: 'pending', channel: input.channel },
    });
    const check = toCheck(row, [], d.sealer);
    // The key was claimed in the reservation; the response is stored with the check it describes.
    if (ctx.idempotency?.used) await ctx.idempotency.record(tx, check);
    return check;
  });
}

/** Resend: a fresh code on the same verification (limits and cooldown apply; attempts carry over; not billed again). */
export async function resendContact(
  d: ContactDeps,
  args: { ctx: RequestContext; providers: ContactProviders; id: string; idempotencyKey?: string },
): Promise<Check> {
  const { ctx, id } = args;
  const existing = await checks.get(ctx.db, ctx, id);
  if (!existing || existing.type !== 'contact') throw notFound('contact check', 'id');
  if (existing.status !== 'pending') throw conflict(`This contact check is ${existing.status}; start a new one.`);
  const before = toCheck(existing, [], d.sealer);
  const channel = before.result.channel as 'email' | 'sms';
  const provider = providerFor(args.providers, channel, ctx.environment);
  const sent = await reserveAndSend(d, {
    ctx,
    idempotencyKey: args.idempotencyKey,
    id,
    channel,
    destination: String(before.result.destination),
    provider,
    loadPrevious: async (tx) => {
      const v = await verifications.getForUpdate(tx, ctx, id);
      if (!v || v.status === 'sending') throw notFound('contact check', 'id');
      return verifications.open(d.sealer, v);
    },
  });
  return ctx.db.transaction(async (tx) => {
    await verifications.update(tx, ctx, d.sealer, id, sent.state, sent.receipt.providerMessageId);
    const current = await getCheckForUpdate(tx, ctx, id);
    if (!current) throw notFound('contact check', 'id');
    const p = toCheck(current, [], d.sealer);
    const result = contactResult(d, id, sent.state, {
      disposable: (p.result.disposable_domain as boolean | undefined) ?? null,
      receipt: sent.receipt,
    });
    const row = await updateCheck(tx, ctx, d.sealer, id, {
      status: 'pending',
      score: null,
      completed: false,
      payload: { reasons: p.reasons, signals: p.signals, model: p.model, timings: p.timings, result },
    });
    await emitAudit(tx, ctx, {
      action: 'check.updated',
      resourceType: 'check',
      resourceId: id,
      metadata: { type: 'contact', operation: 'resend', sends: sent.state.sentAt.length },
    });
    const check = toCheck(row!, [], d.sealer);
    if (ctx.idempotency?.used) await ctx.idempotency.record(tx, check);
    return check;
  });
}
