import { QUEUES } from '../../../platform/queues.js';
import type { Db } from '../../../platform/db.js';
import type { Resources } from '../../../platform/resources.js';
import type { JobHandler } from '../../../platform/jobs.js';
import { syncLists } from './list-sync.js';
import type { ScreeningSettings } from './settings.js';

export const LIST_SYNC_QUEUE = QUEUES.listsSync;

/**
 * The scheduled list download. (A snapshot switch enqueues RESCREEN_QUEUE, which the monitoring
 * module serves: monitoring depends on screening, never the other way round.)
 */
export function screeningJobHandlers(db: Db, settings: ScreeningSettings, resources?: Resources): Record<string, JobHandler> {
  return {
    [LIST_SYNC_QUEUE]: async () => {
      const results = await syncLists(db, { settings }, resources);
      // Bad data is recorded and waits for the next period; a network failure is retried with backoff.
      const transient = results.filter((r) => !r.ok && r.transient);
      if (transient.length)
        throw new Error(
          `list sync failed for ${transient.map((r) => r.source).join(', ')}: ${transient.map((r) => (!r.ok ? r.reason : '')).join('; ')}`,
        );
    },
  };
}

/** `lists.sync` joins the recurring schedule only when the operator enabled sync. */
export function listSyncSchedule(s: ScreeningSettings): { queue: string; everyMs: number }[] {
  return s.syncSources.length ? [{ queue: LIST_SYNC_QUEUE, everyMs: s.syncIntervalMs }] : [];
}
