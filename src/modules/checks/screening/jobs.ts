import type { Db } from '../../../platform/db.js';
import type { JobHandler } from '../../../platform/jobs.js';
import { rescreenSnapshot, type RescreenPayload } from '../../monitoring/rescreen.js';
import { RESCREEN_QUEUE } from './activate-snapshot.js';
import { syncLists } from './list-sync.js';
import { loadScreeningSettings } from './settings.js';
import { loadConfig } from '../../../config.js';
import { Sealer } from '../../../platform/crypto.js';

export const LIST_SYNC_QUEUE = 'lists.sync';

/**
 * The screening queues: re-screen after a snapshot switch, and the scheduled list download.
 * Monitored subjects are sealed; the job dependencies carry no sealer yet, so without one it is
 * made from the process's own configuration (the same MASTER_KEY the server seals with).
 */
export function screeningJobHandlers(db: Db, sealer?: Sealer): Record<string, JobHandler> {
  let s = sealer;
  return {
    [RESCREEN_QUEUE]: async (job) => {
      // Made only when a subject must be opened: most re-screens (no enrolled subjects) need none.
      await rescreenSnapshot(db, () => (s ??= new Sealer(loadConfig().masterKey)), job.payload as unknown as RescreenPayload, `job:${job.id}`);
    },
    [LIST_SYNC_QUEUE]: async () => {
      const results = await syncLists(db);
      // Bad data is recorded and waits for the next period; a network failure is retried with backoff.
      const transient = results.filter((r) => !r.ok && r.transient);
      if (transient.length) throw new Error(`list sync failed for ${transient.map((r) => r.source).join(', ')}: ${transient.map((r) => (!r.ok ? r.reason : '')).join('; ')}`);
    },
  };
}

/** `lists.sync` joins the recurring schedule only when the operator enabled sync. */
export function listSyncSchedule(env: NodeJS.ProcessEnv = process.env): { queue: string; everyMs: number }[] {
  const s = loadScreeningSettings(env);
  return s.syncSources.length ? [{ queue: LIST_SYNC_QUEUE, everyMs: s.syncIntervalMs }] : [];
}
