import { QUEUES } from '../../platform/queues.js';
import type { Db } from '../../platform/db.js';
import { systemContext, type Environment } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import type { JobHandler } from '../../platform/jobs.js';
import { eraseSession } from './delete.js';
import { sessions } from './repository.js';
import { TERMINAL_STATES } from './state-machine.js';

/**
 * The account's retention period (accounts.retention_days; null keeps sessions until deleted)
 * applied to verification sessions: every finished session created more than retention_days ago is
 * deleted as DELETE /v1/verifications/{id} would (reason retention), one short transaction each.
 * Sessions still in progress wait until they finish (a waiting one past its lifetime counts as
 * finished). Returns how many were deleted.
 */
export async function applySessionRetention(db: Db, batch = 200): Promise<number> {
  let deleted = 0;
  let after = '';
  for (;;) {
    const due = await sessions.dueForRetention(db, TERMINAL_STATES, after, batch);
    for (const s of due) {
      const ctx = systemContext(db, s.account_id, s.environment as Environment, 'job:verifications.retention');
      try {
        await db.transaction((tx) => eraseSession(tx, ctx, s.id, 'retention'));
        deleted++;
      } catch (err) {
        // It changed meanwhile (deleted by a request, or its lifetime transition raced the expiry job): the next run sees it.
        if (!(err instanceof AppError && (err.code === 'conflict' || err.code === 'not_found'))) throw err;
      }
    }
    if (due.length < batch) return deleted;
    after = due[due.length - 1]!.id;
  }
}

/** The queue of the retention job, for src/jobs/index.ts (recurring, e.g. hourly). */
export function retentionJobHandlers(db: Db): Record<string, JobHandler> {
  return {
    [QUEUES.verificationRetention]: async () => {
      await applySessionRetention(db);
    },
  };
}

export const RETENTION_RECURRING = [{ queue: QUEUES.verificationRetention, everyMs: 3_600_000 }];
