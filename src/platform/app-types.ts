import type { Config } from '../config.js';
import type { Db } from './db.js';
import type { RateLimiter } from './rate-limit.js';
import type { Metrics } from './metrics.js';
import type { Sealer } from './crypto.js';
import type { Resources } from './resources.js';

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
  /**
   * The process's engines, worker pools and senders (platform/resources.ts), shared with the worker;
   * the caller closes them. When not given the app makes its own and closes it with the app.
   */
  resources?: Resources;
}

/** What every module plugin receives: the app's dependencies with the sealer and the resources made. */
export interface ModuleOptions {
  deps: AppDeps & { sealer: Sealer; resources: Resources };
}
