import { QUEUES } from '../../platform/queues.js';
import type { Db } from '../../platform/db.js';
import { systemContext, type Environment } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { AppError } from '../../platform/errors.js';
import { enqueueEvent } from '../../platform/outbox.js';
import type { JobHandler } from '../../platform/jobs.js';
import { iso } from '../../platform/schemas.js';
import { sessions } from './repository.js';
import { lifetimeEvent } from './state-machine.js';
import { runSandboxSession } from './sandbox.js';

/**
 * Persists the end of waiting sessions' lifetimes (readers already see it from expires_at on):
 * expired when nothing was captured, abandoned when capture had started. One short transaction per
 * session with its transition row, audit row and verification.expired event. Returns how many ended.
 */
export async function expireDueSessions(db: Db, batch = 200): Promise<number> {
  let ended = 0;
  for (;;) {
    const due = await sessions.dueForExpiry(db, batch);
    let progressed = 0;
    for (const s of due) {
      const ctx = systemContext(db, s.account_id, s.environment as Environment, 'job:verifications.expire');
      try {
        await db.transaction(async (tx) => {
          const to = await sessions.applyTransition(
            tx,
            ctx,
            s.id,
            s.status,
            lifetimeEvent(s.status === 'awaiting_subject' && s.capture_started_at !== null),
          );
          await emitAudit(tx, ctx, { action: `verification.${to}`, resourceType: 'verification', resourceId: s.id });
          await enqueueEvent(tx, ctx, {
            type: 'verification.expired',
            resourceType: 'verification',
            resourceId: s.id,
            data: { id: s.id, subject_reference: s.subject_reference, status: to, expires_at: iso(s.expires_at)! },
          });
        });
        ended++;
        progressed++;
      } catch (err) {
        // Someone moved the session first (capture submitted just in time): nothing to expire.
        if (!(err instanceof AppError && err.code === 'conflict')) throw err;
      }
    }
    if (due.length < batch || progressed === 0) return ended;
  }
}

/** The queues of this module, for src/jobs/index.ts. */
export function verificationJobHandlers(db: Db): Record<string, JobHandler> {
  return {
    [QUEUES.verificationExpire]: async () => {
      await expireDueSessions(db);
    },
    [QUEUES.sandboxRun]: async (job) => {
      await runSandboxSession(db, job.payload as { account_id: string; environment: Environment; session_id: string });
    },
  };
}

export const VERIFICATION_RECURRING = [{ queue: QUEUES.verificationExpire, everyMs: 5_000 }];
