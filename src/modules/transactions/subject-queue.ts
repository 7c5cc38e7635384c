import { defineResource } from '../../platform/resources.js';

/**
 * Runs tasks one after the other per key, in arrival order, without holding anything while they wait:
 * a waiting task is a promise in memory, not a pool connection. Different keys run concurrently.
 * A task runs after its predecessor settles, whether that succeeded or failed.
 */
export class KeyedQueue {
  /** Per key: the promise the next task waits on, and how many tasks are running or waiting. */
  private readonly keys = new Map<string, { tail: Promise<void>; depth: number }>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const entry = this.keys.get(key) ?? { tail: Promise.resolve(), depth: 0 };
    const result = entry.tail.then(task);
    entry.tail = result.then(
      () => undefined,
      () => undefined,
    );
    entry.depth++;
    this.keys.set(key, entry);
    void entry.tail.then(() => {
      if (--entry.depth === 0) this.keys.delete(key);
    });
    return result;
  }

  /** Tasks of the key running or waiting. */
  depth(key: string): number {
    return this.keys.get(key)?.depth ?? 0;
  }

  /** Keys with a task running or waiting (memory is released when a key's last task settles). */
  get activeKeys(): number {
    return this.keys.size;
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
