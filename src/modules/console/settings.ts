import { envReader } from '../../config.js';

export interface ConsoleSettings {
  /** A session unused for this long ends (minutes). */
  idleMinutes: number;
  /** A session ends this long after sign-in whatever its use (minutes). */
  absoluteMinutes: number;
  /** Failed sign-ins (per operator, and per client address) before the subject is locked. */
  maxFailures: number;
  /** Failures are counted over this window; a lock lasts as long (minutes). */
  lockoutMinutes: number;
  /** Per client address the limit is this many times maxFailures (one office, several people). */
  ipFailureFactor: number;
  /** Secure cookie: "auto" follows PUBLIC_BASE_URL's scheme (https → Secure). */
  cookieSecure: boolean;
}

export function loadConsoleSettings(publicBaseUrl: string, env: NodeJS.ProcessEnv = process.env): ConsoleSettings {
  const r = envReader(env);
  const https = publicBaseUrl.startsWith('https:');
  const settings: ConsoleSettings = {
    idleMinutes: r.int('CONSOLE_IDLE_MINUTES', 30, 1, 24 * 60),
    absoluteMinutes: r.int('CONSOLE_ABSOLUTE_MINUTES', 12 * 60, 5, 7 * 24 * 60),
    maxFailures: r.int('CONSOLE_MAX_FAILURES', 5, 1, 100),
    lockoutMinutes: r.int('CONSOLE_LOCKOUT_MINUTES', 15, 1, 24 * 60),
    ipFailureFactor: 4,
    cookieSecure: r.bool('CONSOLE_COOKIE_SECURE', https),
  };
  r.throwIfProblems();
  return settings;
}
