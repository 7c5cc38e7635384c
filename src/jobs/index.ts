import type { Db } from '../platform/db.js';
import { enqueueJob, type JobHandler } from '../platform/jobs.js';
import { sealAuditChain } from '../platform/audit.js';
import { purgeExpiredKeys } from '../platform/idempotency.js';
import { listSyncSchedule, screeningJobHandlers } from '../modules/screening/jobs.js';
import { purgeContactHistory } from '../modules/contact/repository.js';
import { VERIFICATION_RECURRING, verificationJobHandlers } from '../modules/verifications/expire.js';
import { RETENTION_RECURRING, retentionJobHandlers } from '../modules/verifications/retention.js';
import { pipelineJobHandlers } from '../modules/verifications/pipeline.js';
import { enrolJobHandlers } from '../modules/verifications/enrol-approved.js';
import { Sealer } from '../platform/crypto.js';
import { loadConfig } from '../config.js';

export interface JobDeps {
  db: Db;
  /** Opens sealed personal data (monitored subjects); made from MASTER_KEY when not given. */
  sealer?: Sealer;
}

/** Every queue the worker serves, with its handler. Modules add their queues here. */
export function buildJobHandlers(deps: JobDeps): Record<string, JobHandler> {
  let sealer = deps.sealer;
  const sealerOf = () => (sealer ??= new Sealer(loadConfig().masterKey));
  return {
    'audit.seal': async () => {
      while ((await sealAuditChain(deps.db)) > 0);
    },
    'idempotency.purge': async () => {
      await purgeExpiredKeys(deps.db);
    },
    'jobs.purge': async () => {
      await deps.db.query("DELETE FROM jobs WHERE state = 'done' AND updated_at < now() - interval '7 days'");
    },
    // The embedded database has no autovacuum: refresh planner statistics so plans follow the data.
    'db.analyze': async () => {
      if (deps.db.kind === 'pglite') await deps.db.query('ANALYZE');
    },
    'contact.purge': async () => {
      await purgeContactHistory(deps.db);
    },
    ...screeningJobHandlers(deps.db, deps.sealer),
    ...verificationJobHandlers(deps.db),
    ...retentionJobHandlers(deps.db),
    ...pipelineJobHandlers(deps.db, sealerOf),
    ...enrolJobHandlers(deps.db, sealerOf),
  };
}

/** Recurring maintenance, enqueued with a dedupe key so N workers still run each once per period. */
export const RECURRING: { queue: string; everyMs: number }[] = [
  { queue: 'audit.seal', everyMs: 2_000 },
  { queue: 'idempotency.purge', everyMs: 3_600_000 },
  { queue: 'jobs.purge', everyMs: 3_600_000 },
  { queue: 'contact.purge', everyMs: 3_600_000 },
  { queue: 'db.analyze', everyMs: 600_000 },
  ...listSyncSchedule(),
  ...VERIFICATION_RECURRING,
  ...RETENTION_RECURRING,
];

export function startScheduler(db: Db, onError: (err: unknown) => void): () => void {
  const timers = RECURRING.map(({ queue, everyMs }) => {
    const tick = () => enqueueJob(db, queue, {}, { dedupeKey: `recurring:${queue}`, maxAttempts: 1 }).catch(onError);
    void tick();
    return setInterval(tick, everyMs);
  });
  return () => timers.forEach(clearInterval);
}
