import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';

/** Everything the service reads from its environment, validated once at start. */
export interface Config {
  port: number;
  host: string;
  publicBaseUrl: string;
  hostedBaseUrl: string;
  databaseUrl: string | null;
  dataDir: string;
  redisUrl: string | null;
  logLevel: string;
  masterKey: Buffer;
  nodeEnv: string;
  rateLimit: { defaultPerMinute: number };
  idempotencyRetentionHours: number;
  bodyLimitBytes: number;
  runWorker: boolean;
  workerConcurrency: number;
  webhooks: {
    allowPrivateNetworks: boolean;
    requireHttps: boolean;
    timeoutMs: number;
    /** Seconds to wait after attempt n before attempt n+1; its length + 1 is the number of attempts. */
    retryScheduleSeconds: number[];
    /** A destination failing for this long, and at least disableMinFailures times in a row, is disabled. */
    disableAfterHours: number;
    disableMinFailures: number;
    /** How often an idle dispatcher looks for new events and due deliveries. */
    pollMs: number;
    concurrency: number;
  };
  /** Seeds the first account and keys on an empty database. */
  bootstrap: boolean;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

/** About three days: 14 retries after the first attempt, each delay jittered by ±20 %. */
export const DEFAULT_RETRY_SCHEDULE = [5, 30, 120, 300, 900, 1800, 3600, 7200, 14400, 28800, 43200, 43200, 43200, 43200];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Reads and validates configuration. Collects every problem before failing so an operator
 * fixes them in one pass rather than one restart per mistake.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { problems, int, num, list, bool, url } = envReader(env);

  const nodeEnv = env.NODE_ENV ?? 'development';
  const production = nodeEnv === 'production';
  const port = int('PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const publicBaseUrl = (
    url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`
  ).replace(/\/+$/, '');
  const hostedBaseUrl = (url('HOSTED_BASE_URL', ['http:', 'https:']) ?? `${publicBaseUrl}/hosted`).replace(/\/+$/, '');
  const databaseUrl = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const dataDir = resolve(env.DATA_DIR || './.data');
  const redisUrl = url('REDIS_URL', ['redis:', 'rediss:']);
  const logLevel = env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info');
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);

  let masterKey: Buffer = Buffer.alloc(32);
  const rawKey = env.MASTER_KEY;
  if (rawKey) {
    const decoded = decodeKey(rawKey);
    if (!decoded) problems.push('MASTER_KEY must be 32 bytes as 64 hex characters or base64');
    else masterKey = decoded;
  } else if (production) {
    problems.push('MASTER_KEY is required when NODE_ENV=production (32 bytes, hex or base64); generate one with `openssl rand -hex 32`');
  } else if (problems.length === 0) {
    masterKey = loadOrCreateDevKey(dataDir);
  }

  const config: Config = {
    port,
    host,
    publicBaseUrl,
    hostedBaseUrl,
    databaseUrl,
    dataDir,
    redisUrl,
    logLevel,
    masterKey,
    nodeEnv,
    rateLimit: { defaultPerMinute: int('RATE_LIMIT_PER_MINUTE', 6000, 1, 10_000_000) },
    idempotencyRetentionHours: int('IDEMPOTENCY_RETENTION_HOURS', 24, 1, 24 * 90),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 25 * 1024 * 1024, 1024, 200 * 1024 * 1024),
    runWorker: bool('RUN_WORKER', true),
    workerConcurrency: int('WORKER_CONCURRENCY', 4, 1, 256),
    webhooks: {
      // Guards on whatever NODE_ENV says: they apply to production keys' destinations; sandbox keys may
      // always reach loopback and private networks (never link-local or metadata) over plain http.
      allowPrivateNetworks: bool('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
      requireHttps: bool('WEBHOOK_REQUIRE_HTTPS', true),
      timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
      retryScheduleSeconds: list('WEBHOOK_RETRY_SCHEDULE', DEFAULT_RETRY_SCHEDULE),
      disableAfterHours: num('WEBHOOK_DISABLE_AFTER_HOURS', 72, 0, 24 * 30),
      disableMinFailures: int('WEBHOOK_DISABLE_MIN_FAILURES', 15, 1, 10_000),
      pollMs: int('WEBHOOK_POLL_MS', 100, 5, 60_000),
      concurrency: int('WEBHOOK_CONCURRENCY', 32, 1, 1024),
    },
    bootstrap: bool('BOOTSTRAP', true),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * Typed readers over an environment that collect every problem instead of stopping at the first,
 * so an operator fixes them in one pass. Modules use it for their own settings (then
 * `r.throwIfProblems()`).
 */
export function envReader(env: NodeJS.ProcessEnv) {
  const problems: string[] = [];
  const raw = (name: string): string | undefined => (env[name] === '' ? undefined : env[name]);
  const int = (name: string, def: number, min: number, max: number): number => {
    const v = raw(name);
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${v}")`);
      return def;
    }
    return n;
  };
  const num = (name: string, def: number, min: number, max: number): number => {
    const v = raw(name);
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isFinite(n) || n < min || n > max) {
      problems.push(`${name} must be a number from ${min} to ${max} (got "${v}")`);
      return def;
    }
    return n;
  };
  const list = (name: string, def: number[]): number[] => {
    const v = raw(name);
    if (v === undefined) return def;
    const values = v.split(',').map((x) => Number(x.trim()));
    if (values.length === 0 || values.some((x) => !Number.isFinite(x) || x < 0)) {
      problems.push(`${name} must be a comma-separated list of non-negative numbers (got "${v}")`);
      return def;
    }
    return values;
  };
  const bool = (name: string, def: boolean): boolean => {
    const v = raw(name);
    if (v === undefined) return def;
    if (['1', 'true', 'yes', 'on'].includes(v.toLowerCase())) return true;
    if (['0', 'false', 'no', 'off'].includes(v.toLowerCase())) return false;
    problems.push(`${name} must be true or false (got "${v}")`);
    return def;
  };
  const url = (name: string, protocols: string[]): string | null => {
    const v = raw(name);
    if (v === undefined) return null;
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol)) problems.push(`${name} must use ${protocols.join(' or ')} (got "${u.protocol}")`);
      return v;
    } catch {
      problems.push(`${name} is not a valid URL`);
      return null;
    }
  };
  return {
    problems,
    int,
    num,
    list,
    bool,
    url,
    throwIfProblems(): void {
      if (problems.length > 0) throw new ConfigError(problems);
    },
  };
}

function decodeKey(raw: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return Buffer.from(raw, 'hex');
  const b = Buffer.from(raw, 'base64');
  return b.length === 32 ? b : null;
}

/** The embedded default keeps its generated key beside its data so a restart can still decrypt. */
function loadOrCreateDevKey(dataDir: string): Buffer {
  const file = join(dataDir, 'master.key');
  if (existsSync(file)) {
    const k = decodeKey(readFileSync(file, 'utf8').trim());
    if (k) return k;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600 });
  return key;
}
