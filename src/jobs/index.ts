import { QUEUES } from '../platform/queues.js';
import type { Db } from '../platform/db.js';
import { maintainTables } from '../platform/analyze.js';
import { enqueueJob, purgeFinishedJobs, type JobHandler } from '../platform/jobs.js';
import { sealAuditChain } from '../platform/audit.js';
import { purgeExpiredKeys } from '../platform/idempotency.js';
import { listSyncSchedule, screeningJobHandlers, SCREENING_INDEX, SENDERS } from '../modules/checks/index.js';
import { purgeContactHistory } from '../modules/checks/index.js';
import type { MessagingProvider } from '../providers/messaging/index.js';
import type { Resources } from '../platform/resources.js';
import {
  VERIFICATION_RECURRING,
  verificationJobHandlers,
  RETENTION_RECURRING,
  retentionJobHandlers,
  pipelineJobHandlers,
  enrolJobHandlers,
} from '../modules/verifications/index.js';
import { monitoringJobHandlers } from '../modules/monitoring/index.js';
import { travelRuleJobHandlers } from '../modules/travel-rule/index.js';
import { chainDataSchedule, walletJobHandlers, WALLET_INDEXES, WALLETS_RECURRING } from '../modules/wallets/index.js';
import { backtestJobHandlers, derivedIndexJobHandlers, TRANSACTIONS_RECURRING } from '../modules/transactions/index.js';
import { businessJobHandlers, BUSINESSES_RECURRING } from '../modules/businesses/index.js';
import { Sealer } from '../platform/crypto.js';
import type { Config } from '../config.js';

export interface JobDeps {
  db: Db;
  config: Config;
  /** The process's engines, worker pools and senders (runtime.ts builds them; tests take createTestApp's). */
  resources: Resources;
  /** Opens sealed personal data (monitored subjects); made from config.masterKey when not given. */
  sealer?: Sealer;
  /** The Travel Rule email fallback's sender; the resources' SMTP sender when not given (null: none). */
  email?: MessagingProvider | null;
}

/** Every queue the worker serves, with its handler. Modules add their queues here. */
export function buildJobHandlers(deps: JobDeps): Record<string, JobHandler> {
  let sealer = deps.sealer;
  const sealerOf = () => (sealer ??= new Sealer(deps.config.masterKey));
  const emailOf = () => (deps.email !== undefined ? deps.email : deps.resources.get(SENDERS).email);
  return {
    [QUEUES.auditSeal]: async () => {
      while ((await sealAuditChain(deps.db)) > 0);
    },
    [QUEUES.idempotencyPurge]: async () => {
      await purgeExpiredKeys(deps.db);
    },
    [QUEUES.jobsPurge]: async () => {
      await purgeFinishedJobs(deps.db);
    },
    [QUEUES.dbAnalyze]: async () => {
      await maintainTables(deps.db);
    },
    [QUEUES.contactPurge]: async () => {
      await purgeContactHistory(deps.db);
    },
    ...screeningJobHandlers(deps.db, deps.config.checks.screening, deps.resources),
    ...monitoringJobHandlers(deps.resources, sealerOf),
    ...walletJobHandlers(deps.db, sealerOf, deps.config.wallets, () => deps.resources.get(WALLET_INDEXES)),
    ...verificationJobHandlers(deps.db),
    ...retentionJobHandlers(deps.db),
    ...pipelineJobHandlers(deps.resources, sealerOf),
    ...enrolJobHandlers(deps.resources, sealerOf),
    ...travelRuleJobHandlers(deps.db, sealerOf, {
      publicBaseUrl: () => deps.config.publicBaseUrl,
      email: emailOf,
      screening: () => deps.resources.get(SCREENING_INDEX),
      wallets: () => deps.resources.get(WALLET_INDEXES),
      production: () => ({
        requireHttps: deps.config.webhooks.requireHttps,
        allowPrivateNetworks: deps.config.webhooks.allowPrivateNetworks,
      }),
    }),
    ...backtestJobHandlers(deps.db),
    ...derivedIndexJobHandlers(deps.db),
    ...businessJobHandlers(deps.db, sealerOf, () => deps.resources.get(SCREENING_INDEX)),
  };
}

/** Recurring maintenance, enqueued with a dedupe key so N workers still run each once per period. */
export function recurringJobs(config: Config): { queue: string; everyMs: number }[] {
  return [
    { queue: QUEUES.auditSeal, everyMs: 2_000 },
    { queue: QUEUES.idempotencyPurge, everyMs: 3_600_000 },
    { queue: QUEUES.jobsPurge, everyMs: 3_600_000 },
    { queue: QUEUES.contactPurge, everyMs: 3_600_000 },
    { queue: QUEUES.dbAnalyze, everyMs: 60_000 },
    ...listSyncSchedule(config.checks.screening),
    ...VERIFICATION_RECURRING,
    ...RETENTION_RECURRING,
    ...WALLETS_RECURRING,
    ...TRANSACTIONS_RECURRING,
    ...BUSINESSES_RECURRING,
    ...chainDataSchedule(config.wallets.chainData),
  ];
}

export function startScheduler(db: Db, config: Config, onError: (err: unknown) => void): () => void {
  const timers = recurringJobs(config).map(({ queue, everyMs }) => {
    const tick = () => enqueueJob(db, queue, {}, { dedupeKey: `recurring:${queue}`, maxAttempts: 1 }).catch(onError);
    void tick();
    return setInterval(tick, everyMs);
  });
  return () => timers.forEach(clearInterval);
}
