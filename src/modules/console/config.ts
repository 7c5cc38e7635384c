import { section, vars, Var, type SectionValue } from '../../platform/config-schema.js';

/** The console's settings (its door for the configuration loader; imports nothing heavy). */
export const consoleConfig = section(
  vars({
    /** A session unused for this long ends (minutes). */
    idleMinutes: Var.int('CONSOLE_IDLE_MINUTES', 30, 1, 24 * 60),
    /** A session ends this long after sign-in whatever its use (minutes). */
    absoluteMinutes: Var.int('CONSOLE_ABSOLUTE_MINUTES', 12 * 60, 5, 7 * 24 * 60),
    /** Failed sign-ins (per operator, and per client address) before the subject is locked. */
    maxFailures: Var.int('CONSOLE_MAX_FAILURES', 5, 1, 100),
    /** Failures are counted over this window; a lock lasts as long (minutes). */
    lockoutMinutes: Var.int('CONSOLE_LOCKOUT_MINUTES', 15, 1, 24 * 60),
    /** Secure cookie; unset: follows PUBLIC_BASE_URL's scheme (https → Secure). */
    cookieSecure: Var.optionalBool('CONSOLE_COOKIE_SECURE'),
    /** The review queue's service level: a case open longer than this is shown overdue (hours). */
    reviewSlaHours: Var.int('CONSOLE_REVIEW_SLA_HOURS', 24, 1, 90 * 24),
  }),
  (v) => ({
    idleMinutes: v.idleMinutes,
    absoluteMinutes: v.absoluteMinutes,
    maxFailures: v.maxFailures,
    lockoutMinutes: v.lockoutMinutes,
    /** Per client address the limit is this many times maxFailures (one office, several people). */
    ipFailureFactor: 4,
    /** null: decided by PUBLIC_BASE_URL's scheme (`consoleSettings`). */
    cookieSecure: v.cookieSecure ?? null,
    reviewSlaHours: v.reviewSlaHours,
  }),
);

export type ConsoleConfig = SectionValue<typeof consoleConfig>;
