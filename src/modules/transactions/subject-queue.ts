import { defineResource } from '../../platform/resources.js';

/**
 * Runs tasks one after the other per key, in arrival order, without holding anything while they wait:
 * a waiting task is a promise in memory, not a pool connection. Different keys run concurrently.
 * A task runs after its predecessor settles, whether that succeeded or failed.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly depths = new Map<string, number>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    this.depths.set(key, (this.depths.get(key) ?? 0) + 1);
    void tail.then(() => {
      const left = (this.depths.get(key) ?? 1) - 1;
      if (left > 0) this.depths.set(key, left);
      else this.depths.delete(key);
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Tasks of the key running or waiting. */
  depth(key: string): number {
    return this.depths.get(key) ?? 0;
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
