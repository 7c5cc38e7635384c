import './platform/heap-tuning.js'; // first: before any other module allocates (see the file)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, ConfigError } from './config.js';
import { buildApp } from './app.js';
import { bootstrapFirstAccount, FIRST_KEYS_FILE } from './platform/bootstrap.js';
import { seedDefaultJourneys } from './modules/journeys/index.js';
import { acquireLock, adminSocketPath } from './platform/embedded-lock.js';
import { createRateLimiter } from './platform/rate-limit.js';
import { startAdminSocket } from './cli/admin-socket.js';
import { createLogger, createResources, openDatabase, startWorker } from './runtime.js';

/**
 * Where the first keys go: a person at a terminal sees them in the banner; when the output is not a
 * terminal (a service manager, a container, a log collector) they are written to a file only this user
 * can read, so they never end up in log files, and the banner says where.
 */
function firstKeyLines(dataDir: string, boot: { accountId: string; sandboxKey?: string; productionKey?: string }): string[] {
  const keys = [
    `  Sandbox key (shown once, store it now):    ${boot.sandboxKey}`,
    `  Production key (shown once, store it now): ${boot.productionKey}`,
  ];
  if (process.stdout.isTTY) return [`  Account:   ${boot.accountId}`, ...keys];
  const file = join(dataDir, FIRST_KEYS_FILE);
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(
      file,
      [`account=${boot.accountId}`, `sandbox_key=${boot.sandboxKey}`, `production_key=${boot.productionKey}`, ''].join('\n'),
      { mode: 0o600, flag: 'w' },
    );
    return [
      `  Account:   ${boot.accountId}`,
      `  Keys:      the first API keys were written to ${file} (mode 0600), not to this output,`,
      `             which is not a terminal and may be collected. Copy them, then delete the file.`,
    ];
  } catch (err) {
    return [`  Account:   ${boot.accountId}`, `  (could not write ${file}: ${(err as Error).message}; the keys follow)`, ...keys];
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config);
  const embedded = !config.databaseUrl;
  // What has been opened, closed in reverse on shutdown and on a start that fails part-way: an embedded
  // database left open at exit is a crashed database, and a lock left behind blocks the next start.
  const opened: Array<() => unknown> = [];
  const closeAll = async () => {
    for (const close of opened.splice(0).reverse()) {
      try {
        await close();
      } catch (err) {
        log.warn({ err: String((err as Error)?.message ?? err) }, 'closing after a failed start or on shutdown');
      }
    }
  };
  let boot: Awaited<ReturnType<typeof bootstrapFirstAccount>> | null = null;
  try {
    const releaseLock = embedded ? acquireLock(config.dataDir, adminSocketPath(config.dataDir)) : () => undefined;
    opened.push(releaseLock);
    const db = await openDatabase(config, log);
    opened.push(() => db.close());
    const rateLimiter = await createRateLimiter(config.redisUrl, (err) =>
      log.warn(
        { err: String((err as Error)?.message ?? err) },
        'Redis rate-limit store unavailable: limits are counted per process until it answers',
      ),
    );
    opened.push(() => rateLimiter.close());
    const resources = createResources(config, db);
    opened.push(() => resources.close());
    const app = await buildApp({ config, db, rateLimiter, logLevel: config.logLevel, resources });
    opened.push(() => app.close());
    if (embedded) {
      const admin = await startAdminSocket(db, config, adminSocketPath(config.dataDir), () => app.keyCache.invalidate(), resources);
      opened.push(() => admin.close());
    }
    // Listen before the first account is made: a port that is taken fails the start before any key
    // exists, so the keys are never made by a start that cannot show them.
    await app.listen({ port: config.port, host: config.host });
    boot = config.bootstrap ? await bootstrapFirstAccount(db, [seedDefaultJourneys]) : null;
    if (config.runWorker) opened.push(startWorker(config, db, log, resources));
  } catch (err) {
    await closeAll();
    throw err;
  }

  const lines = [
    '',
    `Verity is running on ${embedded ? `the embedded database in ${config.dataDir}` : 'PostgreSQL'}.`,
    `  API:       ${config.publicBaseUrl}/v1`,
    `  Docs:      ${config.publicBaseUrl}/docs   (OpenAPI: ${config.publicBaseUrl}/openapi.json)`,
  ];
  if (boot?.created) lines.push(...firstKeyLines(config.dataDir, boot));
  else if (boot) lines.push(`  Account:   ${boot.accountId} (its first keys were shown on the first start)`);
  if (boot)
    lines.push(`  New key:   npm run cli -- keys create --account ${boot.accountId} --environment sandbox   (or production; shown once)`);
  // Loosened guards are said where the operator looks, not only in a variable nobody reads again.
  if (config.webhooks.allowPrivateNetworks)
    lines.push('  WARNING:   WEBHOOK_ALLOW_PRIVATE_NETWORKS=true: production webhooks may reach loopback and private networks.');
  if (!config.webhooks.requireHttps)
    lines.push('  WARNING:   WEBHOOK_REQUIRE_HTTPS=false: production webhooks may be sent over plain http.');
  lines.push('');
  process.stdout.write(lines.join('\n') + '\n');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    await closeAll();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
