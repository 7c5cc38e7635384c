import './platform/heap-tuning.js'; // first: before any other module allocates (see the file)
import { loadConfig, ConfigError } from './config.js';
import { createLogger, createResources, openDatabase, startWorker } from './runtime.js';

/**
 * A worker process without the HTTP server, for PostgreSQL deployments that run API and
 * workers separately. Any number may run against one database.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl)
    throw new Error('npm run worker needs DATABASE_URL: the embedded database belongs to the server process, which runs its own worker.');
  const log = createLogger(config);
  const db = await openDatabase(config, log);
  const resources = createResources(config, db);
  const stop = startWorker(config, db, log, resources);
  const shutdown = async () => {
    await stop();
    await resources.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
