import { digestsEqual, generateCode, hashCode, newSalt } from './otp-code.js';
import { resolveOtpConfig, type OtpConfig } from './otp-config.js';
import { decideDestinationRate } from './rate-limit.js';

export type ContactChannel = 'email' | 'sms';
export type VerificationStatus = 'pending' | 'verified' | 'expired' | 'locked';

/**
 * Everything the HTTP layer stores for one verification (JSON-safe). It never holds the code itself.
 * Times are ISO-8601 strings.
 */
export interface VerificationState {
  channel: ContactChannel;
  /** Normalised destination: E.164 phone number or lower-cased email address. */
  destination: string;
  status: VerificationStatus;
  salt: string;
  codeHash: string;
  createdAt: string;
  expiresAt: string;
  attempts: number;
  /** One entry per code sent for this verification, oldest first. */
  sentAt: string[];
  verifiedAt: string | null;
}

export interface StartInput {
  channel: ContactChannel;
  /** Already normalised (see normalizeDestination). */
  destination: string;
  now: Date;
  /** Server secret keying the code HMAC. */
  secret: string | Buffer;
  /** Earlier sends to the same destination across all verifications, for per-destination limits. */
  destinationHistory?: readonly Date[];
  config?: Partial<OtpConfig>;
  /** A fixed code instead of a random one: only the sandbox channel, which delivers nothing, sets it. */
  fixedCode?: string;
}

export type StartRefusal = 'already_verified' | 'locked' | 'resend_limit' | 'resend_too_soon' | 'rate_limited' | 'destination_changed';

export type StartResult =
  | { ok: true; state: VerificationState; code: string; resend: boolean }
  | { ok: false; reason: StartRefusal; retryAfterSeconds?: number; state: VerificationState | null };

export type ConfirmOutcome = 'verified' | 'invalid_code' | 'expired' | 'too_many_attempts' | 'already_verified';

export interface ConfirmResult {
  state: VerificationState;
  outcome: ConfirmOutcome;
  attemptsLeft: number;
}

const iso = (d: Date): string => d.toISOString();
const ms = (s: string): number => Date.parse(s);

/**
 * Starts a verification, or resends on an existing one (a fresh code replaces the old one and the
 * expiry restarts). The caller sends `code` through a MessagingProvider and persists `state`.
 */
export function startVerification(previous: VerificationState | null, input: StartInput): StartResult {
  const config = resolveOtpConfig(input.config);
  const now = input.now;
  if (previous) {
    if (previous.status === 'verified') return { ok: false, reason: 'already_verified', state: previous };
    if (previous.status === 'locked') return { ok: false, reason: 'locked', state: previous };
    if (previous.destination !== input.destination || previous.channel !== input.channel) {
      return { ok: false, reason: 'destination_changed', state: previous };
    }
    if (previous.sentAt.length >= config.maxSends) return { ok: false, reason: 'resend_limit', state: previous };
    const last = previous.sentAt[previous.sentAt.length - 1];
    if (last !== undefined) {
      const wait = ms(last) + config.resendCooldownSeconds * 1000 - now.getTime();
      if (wait > 0) return { ok: false, reason: 'resend_too_soon', retryAfterSeconds: Math.ceil(wait / 1000), state: previous };
    }
  }
  const rate = decideDestinationRate(input.destinationHistory ?? [], now, config.destinationWindows);
  if (!rate.allowed) return { ok: false, reason: 'rate_limited', retryAfterSeconds: rate.retryAfterSeconds, state: previous };

  const code = input.fixedCode ?? generateCode(config.codeLength);
  const salt = newSalt();
  const state: VerificationState = {
    channel: input.channel,
    destination: input.destination,
    status: 'pending',
    salt,
    codeHash: hashCode(input.secret, salt, input.destination, code),
    createdAt: previous?.createdAt ?? iso(now),
    expiresAt: iso(new Date(now.getTime() + config.ttlSeconds * 1000)),
    // Attempts carry over a resend: otherwise resending would reset the guessing budget.
    attempts: previous?.attempts ?? 0,
    sentAt: [...(previous?.sentAt ?? []), iso(now)],
    verifiedAt: null,
  };
  return { ok: true, state, code, resend: previous !== null };
}

/** Checks a submitted code. Pure: returns the next state, which the caller must persist. */
export function confirmVerification(
  state: VerificationState,
  submitted: string,
  now: Date,
  secret: string | Buffer,
  partialConfig?: Partial<OtpConfig>,
): ConfirmResult {
  const config = resolveOtpConfig(partialConfig);
  const left = (s: VerificationState): number => Math.max(0, config.maxAttempts - s.attempts);
  if (state.status === 'verified') return { state, outcome: 'already_verified', attemptsLeft: left(state) };
  if (state.status === 'locked' || state.attempts >= config.maxAttempts) {
    const locked = { ...state, status: 'locked' as const };
    return { state: locked, outcome: 'too_many_attempts', attemptsLeft: 0 };
  }
  if (state.status === 'expired' || now.getTime() >= ms(state.expiresAt)) {
    const expired = { ...state, status: 'expired' as const };
    return { state: expired, outcome: 'expired', attemptsLeft: left(state) };
  }
  const cleaned = submitted.replace(/[\s-]/g, '');
  // Always hash, even malformed input, so timing does not reveal the expected format.
  const matches = digestsEqual(hashCode(secret, state.salt, state.destination, cleaned), state.codeHash);
  if (matches) {
    const verified: VerificationState = { ...state, status: 'verified', verifiedAt: iso(now), attempts: state.attempts + 1 };
    return { state: verified, outcome: 'verified', attemptsLeft: left(verified) };
  }
  const attempts = state.attempts + 1;
  const next: VerificationState = { ...state, attempts, status: attempts >= config.maxAttempts ? 'locked' : 'pending' };
  return { state: next, outcome: attempts >= config.maxAttempts ? 'too_many_attempts' : 'invalid_code', attemptsLeft: left(next) };
}
