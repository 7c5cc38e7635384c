import { checkEmail, type EmailOptions } from './email.js';
import { checkPhone, type PhoneOptions } from './phone.js';
import type { ContactChannel } from './otp.js';
import type { Signal } from '../signal.js';

export interface DestinationCheck {
  ok: boolean;
  channel: ContactChannel;
  /** E.164 for SMS, normalised address for email; the key for per-destination limits. */
  normalized: string | null;
  reason: string | null;
  /** Informational flags that do not block sending (e.g. disposable email). */
  flags: string[];
  signals: Signal[];
}

/** Validates and normalises what the caller typed, before any code is generated or sent. */
export async function normalizeDestination(
  channel: ContactChannel,
  raw: string,
  options: { phone?: PhoneOptions; email?: EmailOptions } = {},
): Promise<DestinationCheck> {
  if (channel === 'sms') {
    const p = checkPhone(raw, options.phone);
    return { ok: p.valid, channel, normalized: p.valid ? p.e164 : null, reason: p.reason, flags: [], signals: p.signals };
  }
  const e = await checkEmail(raw, options.email);
  return {
    ok: e.valid,
    channel,
    normalized: e.valid ? e.normalized : null,
    reason: e.reason,
    flags: e.disposable ? ['disposable_email'] : [],
    signals: e.signals,
  };
}

/** The text of the message carrying the code; no link, so a forwarded message cannot be clicked through. */
export function renderCodeMessage(code: string, ttlSeconds: number, brand = 'Verity'): { subject: string; text: string } {
  const minutes = Math.max(1, Math.round(ttlSeconds / 60));
  return {
    subject: `${brand} verification code`,
    text: `Your ${brand} verification code is ${code}. It expires in ${minutes} minutes. Do not share it with anyone.`,
  };
}
