import type { Resources } from '../../platform/resources.js';
import type { JobHandler } from '../../platform/jobs.js';
import type { Sealer } from '../../platform/crypto.js';
import { RESCREEN_QUEUE } from '../checks/index.js';
import { rescreenSnapshot, type RescreenPayload } from './rescreen.js';

/**
 * The re-screen after a list snapshot switch (the screening module enqueues it; monitoring owns the
 * subjects it re-screens). Monitored subjects are sealed; `sealerOf` is called only when a subject must
 * be opened: most re-screens (no enrolled subjects) need none.
 */
export function monitoringJobHandlers(resources: Resources, sealerOf: () => Sealer): Record<string, JobHandler> {
  return {
    [RESCREEN_QUEUE]: async (job) => {
      await rescreenSnapshot(resources, sealerOf, job.payload as unknown as RescreenPayload, `job:${job.id}`);
    },
  };
}
