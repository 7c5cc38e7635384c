import pino from 'pino';
import type { Config } from './config.js';
import { openDb, migrate, type Db } from './platform/db.js';
import { JobRunner } from './platform/jobs.js';
import { buildJobHandlers, startScheduler } from './jobs/index.js';
import { loggerOptions } from './platform/logger.js';
import { Sealer } from './platform/crypto.js';
import { configureAuditKey } from './platform/audit.js';
import { WebhookDispatcher } from './modules/webhooks/index.js';
import { CASE_SUBJECT_SOURCES, EVENTS, registerCaseSubjectSources } from './modules/index.js';
import { registerEvents } from './platform/event-catalog.js';
import { createResources as makeResources, type Resources } from './platform/resources.js';

/** Opens the database and applies migrations; shared by the server, the worker and the CLI. */
export async function openDatabase(config: Config, log: pino.Logger): Promise<Db> {
  const db = await openDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.poolSize,
    preparedPerConnection: config.preparedPerConnection,
    pipelineConnections: config.pipelineConnections,
    embeddedThread: config.embeddedThread,
    warn: (message) => log.warn(message),
  });
  await migrate(db, (m) => log.info(m));
  return db;
}

export function createLogger(config: Config): pino.Logger {
  return pino(loggerOptions(config.logLevel));
}

/**
 * The process's resources (engines, worker pools, the screening index, senders), one object handed to
 * buildApp and startWorker. Each starts on first use; the caller closes them once, after the app and
 * the worker have stopped.
 */
export function createResources(config: Config, db: Db): Resources {
  return makeResources(config, db);
}

/** Starts the job runner and the recurring-job scheduler; returns a graceful stop (the resources stay open). */
export function startWorker(config: Config, db: Db, log: pino.Logger, resources: Resources): () => Promise<void> {
  configureAuditKey(config.masterKey);
  registerEvents(EVENTS);
  registerCaseSubjectSources(CASE_SUBJECT_SOURCES);
  const sealer = new Sealer(config.masterKey);
  const runner = new JobRunner({
    db,
    handlers: buildJobHandlers({ db, config, sealer, resources }),
    concurrency: config.workerConcurrency,
    onError: (err, job) => log.warn({ err, job: job?.id, queue: job?.queue }, 'job failed'),
  });
  runner.start();
  const dispatcher = new WebhookDispatcher({
    db,
    sealer,
    config: config.webhooks,
    workerId: runner.workerId,
    onError: (err) => log.warn({ err }, 'webhook dispatcher error'),
  });
  dispatcher.start();
  const stopScheduler = startScheduler(db, config, (err) => log.warn({ err }, 'scheduler error'));
  log.info({ worker: runner.workerId }, 'job runner and webhook dispatcher started');
  return async () => {
    stopScheduler();
    await Promise.all([runner.stop(), dispatcher.stop()]);
  };
}
