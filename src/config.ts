import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';

import { ConfigError, group, section, vars, Var, type ConfigSection, type EnvVars, type SectionValue } from './platform/config-schema.js';
import { captureConfig } from './modules/capture/config.js';
import { checksConfig } from './modules/checks/config.js';
import { verificationsConfig } from './modules/verifications/config.js';
import { consoleConfig } from './modules/console/config.js';
import { businessesConfig } from './modules/businesses/config.js';
import { walletsConfig } from './modules/wallets/config.js';
import { transactionsConfig } from './modules/transactions/config.js';

export { ConfigError } from './platform/config-schema.js';
export type { EnvVars } from './platform/config-schema.js';

/** About three days: 14 retries after the first attempt, each delay jittered by ±20 %. */
export const DEFAULT_RETRY_SCHEDULE = [5, 30, 120, 300, 900, 1800, 3600, 7200, 14400, 28800, 43200, 43200, 43200, 43200];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The platform's own variables: HTTP, storage, keys, limits, the worker and webhooks. */
const platformConfig = section(
  vars({
    nodeEnv: Var.text('NODE_ENV'),
    port: Var.int('PORT', 3000, 0, 65535),
    host: Var.text('HOST'),
    publicBaseUrl: Var.url('PUBLIC_BASE_URL', ['http:', 'https:']),
    hostedBaseUrl: Var.url('HOSTED_BASE_URL', ['http:', 'https:']),
    databaseUrl: Var.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: Var.text('DATA_DIR'),
    /** PostgreSQL: connections each process's pool opens at most. */
    databasePoolSize: Var.int('DATABASE_POOL_SIZE', 20, 1, 1_000),
    /** PostgreSQL: statements of transactions and batches prepared once per pooled connection (platform/prepared-statements.ts). */
    databasePreparedStatements: Var.bool('DATABASE_PREPARED_STATEMENTS', true),
    databasePreparedPerConnection: Var.int('DATABASE_PREPARED_PER_CONNECTION', 100, 1, 10_000),
    /** PostgreSQL: pipelined connections that carry transactions sent whole in one message (platform/db-pipeline.ts); 0: none. */
    databasePipelineConnections: Var.int('DATABASE_PIPELINE_CONNECTIONS', 8, 0, 64),
    /** PGlite: the embedded database on a worker thread of its own, beside the event loop (platform/pglite-thread.ts). */
    databaseEmbeddedThread: Var.bool('DATABASE_EMBEDDED_THREAD', true),
    redisUrl: Var.url('REDIS_URL', ['redis:', 'rediss:']),
    logLevel: Var.oneOf('LOG_LEVEL', LOG_LEVELS),
    /** 32 bytes, hex or base64 (checked by decodeKey below). */
    masterKey: Var.text('MASTER_KEY', { secret: true }),
    rateLimitPerMinute: Var.int('RATE_LIMIT_PER_MINUTE', 6000, 1, 10_000_000),
    idempotencyRetentionHours: Var.int('IDEMPOTENCY_RETENTION_HOURS', 24, 1, 24 * 90),
    bodyLimitBytes: Var.int('BODY_LIMIT_BYTES', 25 * 1024 * 1024, 1024, 200 * 1024 * 1024),
    runWorker: Var.bool('RUN_WORKER', true),
    workerConcurrency: Var.int('WORKER_CONCURRENCY', 4, 1, 256),
    /** Behind a reverse proxy: the client address comes from X-Forwarded-For. */
    trustProxy: Var.bool('TRUST_PROXY', false),
    // Guards on whatever NODE_ENV says: they apply to production keys' destinations; sandbox keys may
    // always reach loopback and private networks (never link-local or metadata) over plain http.
    webhookAllowPrivateNetworks: Var.bool('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    webhookRequireHttps: Var.bool('WEBHOOK_REQUIRE_HTTPS', true),
    webhookTimeoutMs: Var.int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    webhookRetrySchedule: Var.numbers('WEBHOOK_RETRY_SCHEDULE', DEFAULT_RETRY_SCHEDULE),
    webhookDisableAfterHours: Var.num('WEBHOOK_DISABLE_AFTER_HOURS', 72, 0, 24 * 30),
    webhookDisableMinFailures: Var.int('WEBHOOK_DISABLE_MIN_FAILURES', 15, 1, 10_000),
    webhookPollMs: Var.int('WEBHOOK_POLL_MS', 100, 5, 60_000),
    webhookConcurrency: Var.int('WEBHOOK_CONCURRENCY', 32, 1, 1024),
    /** Seeds the first account and keys on an empty database. */
    bootstrap: Var.bool('BOOTSTRAP', true),
  }),
  (v, problems) => {
    const nodeEnv = v.nodeEnv ?? 'development';
    const host = v.host ?? '127.0.0.1';
    const publicBaseUrl = (v.publicBaseUrl ?? `http://${host === '0.0.0.0' ? 'localhost' : host}:${v.port}`).replace(/\/+$/, '');
    const dataDir = resolve(v.dataDir ?? './.data');
    let masterKey: Buffer = Buffer.alloc(32);
    if (v.masterKey) {
      const decoded = decodeKey(v.masterKey);
      if (!decoded) problems.push('MASTER_KEY must be 32 bytes as 64 hex characters or base64');
      else masterKey = decoded;
    } else if (nodeEnv === 'production') {
      problems.push('MASTER_KEY is required when NODE_ENV=production (32 bytes, hex or base64); generate one with `openssl rand -hex 32`');
    } else if (problems.length === 0) {
      masterKey = loadOrCreateDevKey(dataDir);
    }
    return {
      port: v.port,
      host,
      publicBaseUrl,
      hostedBaseUrl: (v.hostedBaseUrl ?? `${publicBaseUrl}/hosted`).replace(/\/+$/, ''),
      databaseUrl: v.databaseUrl ?? null,
      /** PostgreSQL connections this process's pool opens at most. */
      poolSize: v.databasePoolSize,
      /** Statements each pooled PostgreSQL connection keeps prepared; 0: none (every statement travels as text). */
      preparedPerConnection: v.databasePreparedStatements ? v.databasePreparedPerConnection : 0,
      /** Pipelined PostgreSQL connections for transactions sent whole in one message; 0: none. */
      pipelineConnections: v.databasePipelineConnections,
      /** PGlite runs on a worker thread of its own (false: on the event loop's thread). */
      embeddedThread: v.databaseEmbeddedThread,
      dataDir,
      redisUrl: v.redisUrl ?? null,
      logLevel: v.logLevel ?? (nodeEnv === 'test' ? 'silent' : 'info'),
      masterKey,
      nodeEnv,
      rateLimit: { defaultPerMinute: v.rateLimitPerMinute },
      idempotencyRetentionHours: v.idempotencyRetentionHours,
      bodyLimitBytes: v.bodyLimitBytes,
      runWorker: v.runWorker,
      workerConcurrency: v.workerConcurrency,
      trustProxy: v.trustProxy,
      webhooks: {
        allowPrivateNetworks: v.webhookAllowPrivateNetworks,
        requireHttps: v.webhookRequireHttps,
        timeoutMs: v.webhookTimeoutMs,
        /** Seconds to wait after attempt n before attempt n+1; its length + 1 is the number of attempts. */
        retryScheduleSeconds: v.webhookRetrySchedule,
        /** A destination failing for this long, and at least disableMinFailures times in a row, is disabled. */
        disableAfterHours: v.webhookDisableAfterHours,
        disableMinFailures: v.webhookDisableMinFailures,
        /** How often an idle dispatcher looks for new events and due deliveries. */
        pollMs: v.webhookPollMs,
        concurrency: v.webhookConcurrency,
      },
      bootstrap: v.bootstrap,
    };
  },
);

/**
 * Every module's section, under the name its code reads it by (`deps.config.checks.face`). A module
 * with settings adds one line here; its `config.ts` imports only platform/config-schema.ts.
 */
export const MODULE_CONFIG = group({
  capture: captureConfig,
  checks: checksConfig,
  verifications: verificationsConfig,
  console: consoleConfig,
  businesses: businessesConfig,
  wallets: walletsConfig,
  transactions: transactionsConfig,
});

/** The whole configuration: the platform's settings and one section per module. */
export type Config = SectionValue<typeof platformConfig> & SectionValue<typeof MODULE_CONFIG>;

/** Every variable the configuration reads (the docs test checks each is in docs/operations.md). */
export const CONFIG_SECTIONS: ConfigSection<unknown>[] = [platformConfig, MODULE_CONFIG];

/**
 * Reads and validates the whole configuration, once, at start. Collects every problem before failing
 * so an operator fixes them in one pass rather than one restart per mistake. Only the entry points pass
 * process.env; tests pass a record.
 */
export function loadConfig(env: EnvVars = process.env): Config {
  const problems: string[] = [];
  const modules = MODULE_CONFIG.read(env, problems);
  const platform = platformConfig.read(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return { ...platform, ...modules };
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
