import { ALL_SCOPES } from '../../platform/scopes.js';

/**
 * The console's access rules as pure functions of their inputs and the time, so lockout and
 * timeouts are tested with an injected clock: roles to scopes, the failure counter, session expiry.
 */
export const ROLES = ['admin', 'reviewer', 'analyst', 'approver', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** API keys are credentials: only the admin (`*`) lists, makes or revokes them, so no role reads them. */
const READ_ALL = ALL_SCOPES.filter((s) => s.endsWith(':read') && s !== 'api_keys:read');

/**
 * What each role may do through /v1. Maker-checker: an analyst drafts journeys and rules
 * (journeys:write, rules:write) but only the approver holds journeys:publish and rules:publish
 * (checked by the publish verbs through mayPublish), and the publish verbs refuse an operator who
 * authored what they publish. The server enforces all of it; the console only hides what a role cannot do.
 */
export const ROLE_SCOPES: Record<Role, readonly string[]> = {
  admin: ['*'],
  reviewer: [...READ_ALL, 'verifications:write', 'cases:write', 'screening:write'],
  analyst: [...READ_ALL, 'journeys:write', 'rules:write', 'lists:write'],
  approver: [...READ_ALL, 'journeys:write', 'rules:write', 'journeys:publish', 'rules:publish'],
  viewer: READ_ALL,
};

export function isRole(s: string): s is Role {
  return (ROLES as readonly string[]).includes(s);
}

export interface FailureState {
  failures: number;
  windowStartedAt: Date;
  lockedUntil: Date | null;
}

export interface LockoutPolicy {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

/** Locked now? Returns the seconds left, or 0. */
export function lockedFor(state: FailureState | null, now: Date): number {
  if (!state?.lockedUntil || state.lockedUntil <= now) return 0;
  return Math.ceil((state.lockedUntil.getTime() - now.getTime()) / 1000);
}

/** The state after one more failure: a new window once the old one has passed; locked on reaching the limit. */
export function recordFailure(state: FailureState | null, now: Date, policy: LockoutPolicy): FailureState {
  const fresh =
    !state ||
    now.getTime() - state.windowStartedAt.getTime() >= policy.windowMs ||
    (state.lockedUntil !== null && state.lockedUntil <= now);
  const failures = fresh ? 1 : state.failures + 1;
  const windowStartedAt = fresh ? now : state.windowStartedAt;
  const lockedUntil = failures >= policy.maxFailures ? new Date(now.getTime() + policy.lockMs) : null;
  return { failures, windowStartedAt, lockedUntil };
}

export interface SessionTimes {
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export type SessionVerdict = 'active' | 'idle_timeout' | 'absolute_timeout' | 'revoked';

/** Whether a session still authenticates at `now`: not revoked, used within idleMs, before its absolute end. */
export function sessionVerdict(s: SessionTimes, now: Date, idleMs: number): SessionVerdict {
  if (s.revokedAt) return 'revoked';
  if (now >= s.expiresAt) return 'absolute_timeout';
  if (now.getTime() - s.lastSeenAt.getTime() >= idleMs) return 'idle_timeout';
  return 'active';
}
