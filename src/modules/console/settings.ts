import type { ConsoleConfig } from './config.js';

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
  /** Secure cookie: unset, it follows PUBLIC_BASE_URL's scheme (https → Secure). */
  cookieSecure: boolean;
  /** The review queue's service level (hours): older open cases are shown overdue. */
  reviewSlaHours: number;
}

/** The console's settings from its configuration section (config.console) and the public base URL. */
export function consoleSettings(config: ConsoleConfig, publicBaseUrl: string): ConsoleSettings {
  return { ...config, cookieSecure: config.cookieSecure ?? publicBaseUrl.startsWith('https:') };
}
