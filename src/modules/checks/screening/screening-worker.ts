import { randomUUID } from 'node:crypto';
import type { Db } from '../../../platform/db.js';
import { createWorkerPool, workerFileUrl, type WorkerPool } from '../../../platform/worker-pool.js';
import { defineResource } from '../../../platform/resources.js';
import { snapshots } from './snapshot-repository.js';
import type { IndexTask, IndexTaskResult, IndexTaskResults } from './index-worker.js';

/**
 * The process's screening worker thread (index-worker.ts), shared by the index cache and the
 * re-screen job (`resources.get(SCREENING_WORKER)`). One thread, not a pool: it holds the indexes,
 * and a second thread would hold a second copy. Started on first use; closing it ends the thread
 * (and with it every index), so tests and short-lived processes exit.
 */
export interface ScreeningWorker {
  run<T extends IndexTask>(task: T): Promise<IndexTaskResults[T['kind']]>;
  /**
   * Streams one snapshot's entities into the worker as the database's JSON text, a page at a time:
   * each page is a short query and a small message, so the event loop is never held for the whole
   * list. Returns the upload id that `build` or `delta.open` consumes.
   */
  uploadSnapshot(db: Db, snapshotId: string): Promise<string>;
  close(): Promise<void>;
}

/** Entities per page: tens of milliseconds of database time at most, and a message of a few hundred kB. */
const PAGE = 250;
/** A hung worker is replaced after this; a 1,000,000-name build takes under a minute. */
const TASK_TIMEOUT_MS = 10 * 60_000;

export const SCREENING_WORKER = defineResource<ScreeningWorker>(
  'screening worker',
  () => createScreeningWorker(),
  (w) => w.close(),
);

export function createScreeningWorker(): ScreeningWorker {
  const pool: WorkerPool<IndexTask, IndexTaskResult> = createWorkerPool<IndexTask, IndexTaskResult>({
    file: workerFileUrl(import.meta.url, './index-worker.js'),
    size: 1,
    name: 'screening',
    taskTimeoutMs: TASK_TIMEOUT_MS,
  });
  const run = <T extends IndexTask>(task: T) => pool.run(task) as Promise<IndexTaskResults[T['kind']]>;
  return {
    run,
    async uploadSnapshot(db, snapshotId) {
      const upload = randomUUID();
      try {
        let after = '';
        for (;;) {
          const rows = await snapshots.entityPage(db, snapshotId, after, PAGE);
          if (rows.length === 0) break;
          after = rows[rows.length - 1]!.entity_id;
          await run({ kind: 'upload', upload, entities: rows.map((r) => r.entity) });
          if (rows.length < PAGE) break;
        }
        // An empty snapshot still needs an (empty) upload to consume.
        if (after === '') await run({ kind: 'upload', upload, entities: [] });
        return upload;
      } catch (err) {
        await run({ kind: 'discard', upload }).catch(() => undefined);
        throw err;
      }
    },
    close: () => pool.close(),
  };
}

/** A worker task failed because the worker no longer has the state it needs (restarted, or dropped). */
export function stateMissing(
  err: unknown,
  code: 'index_missing' | 'upload_missing' | 'delta_missing',
): err is Error & { details?: { missing?: string[] } } {
  return err instanceof Error && (err as { code?: unknown }).code === code;
}
