import type { Config } from '../config.js';
import type { Db } from './db.js';
import type { RateLimiter } from './rate-limit.js';
import type { Metrics } from './metrics.js';
import type { Sealer } from './crypto.js';

/** What buildApp receives. Here, not in app.ts, so modules can name it without importing the app. */
export interface AppDeps {
  config: Config;
  db: Db;
  rateLimiter: RateLimiter;
  /** pino level; omitted: no logging (tests). */
  logLevel?: string;
  metrics?: Metrics;
  keyCacheTtlMs?: number;
  /** Seals secrets at rest; made from config.masterKey when not given. */
  sealer?: Sealer;
  /** The time console sessions and sign-in lockouts are measured by (tests inject one). */
  clock?: () => Date;
}

/** What every module plugin receives: the app's dependencies with the sealer made. */
export interface ModuleOptions {
  deps: AppDeps & { sealer: Sealer };
}
