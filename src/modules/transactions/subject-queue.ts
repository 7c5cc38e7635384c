import { defineResource } from '../../platform/resources.js';
import { WriteBatcher } from '../../platform/write-batch.js';
import { lockSubjectsStatement } from './repository.js';

/**
 * Runs tasks one after the other per key, in arrival order, without holding anything while they wait:
 * a waiting task is a promise in memory, not a pool connection. Different keys run concurrently.
 * A task runs after its predecessor settles, whether that succeeded or failed.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();
  /** Tasks admitted per key and not yet done: from their admission (before the reads that precede their turn) to their end. */
  private readonly admitted = new Map<string, number>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /**
   * Counts one more task of the key from now, unless `limit` are counted already: a request is counted from its
   * start, not only once it reaches `run`, so a burst still in its reads cannot overshoot the limit. Returns the
   * release to call when the request is done (once; later calls do nothing), or null when the key is full.
   */
  admit(key: string, limit: number): (() => void) | null {
    const n = this.admitted.get(key) ?? 0;
    if (n >= limit) return null;
    this.admitted.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.admitted.get(key) ?? 1) - 1;
      if (left > 0) this.admitted.set(key, left);
      else this.admitted.delete(key);
    };
  }

  /** Tasks of the key admitted and not yet done. */
  depth(key: string): number {
    return this.admitted.get(key) ?? 0;
  }

  /** Keys with a task running or waiting (memory is released when a key's last task settles). */
  get activeKeys(): number {
    return this.tails.size;
  }
}

/**
 * The process's queue (one per process, as its resources): the serialisation is per subject within a
 * process; across processes the advisory transaction lock in the write transaction does the rest (at
 * most one waiter per process). Nothing to close: a waiting task settles with its request.
 */
export const SUBJECT_QUEUE = defineResource<KeyedQueue>(
  'transactions.subject_queue',
  () => new KeyedQueue(),
  () => undefined,
);

export function subjectKey(t: { accountId: string; environment: string }, subject: string): string {
  return JSON.stringify([t.accountId, t.environment, subject]);
}

/**
 * The process's group commit of evaluations' write steps (TRANSACTIONS_WRITE_BATCH_MAX, TRANSACTIONS_WRITE_BATCHES):
 * the subject queue keeps one subject's writes out of one batch. Nothing to close: a waiting write settles with its batch.
 */
export const WRITE_BATCHER = defineResource<WriteBatcher>(
  'transactions.write_batcher',
  (r) =>
    new WriteBatcher({
      max: r.config.transactions.writeBatchMax,
      concurrency: r.config.transactions.writeBatches,
      lockAll: lockSubjectsStatement,
    }),
  () => undefined,
);
