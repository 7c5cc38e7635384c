import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { isMainThread, threadId } from 'node:worker_threads';
import {
  createWorkerPool,
  runInOneOffWorker,
  serveWorkerTasks,
  workerFileUrl,
  WorkerCrashedError,
  WorkerPoolClosedError,
} from './worker-pool.js';

// This file is its own worker: in a worker thread it serves tasks, on the main thread it runs the tests.
type Task =
  | { op: 'echo'; value: string }
  | { op: 'sum'; bytes: Uint8Array }
  | { op: 'fail'; code: string }
  | { op: 'crash' }
  | { op: 'sleep'; ms: number }
  | { op: 'thread'; ms: number };

if (!isMainThread) {
  serveWorkerTasks<Task, unknown>(async (task) => {
    switch (task.op) {
      case 'echo':
        return { result: task.value.toUpperCase() };
      case 'sum': {
        let s = 0;
        for (const b of task.bytes) s += b;
        const out = new Float32Array([s]);
        return { result: out, transfer: [out.buffer] };
      }
      case 'fail':
        throw Object.assign(new Error('bad input'), { name: 'InputError', code: task.code });
      case 'crash':
        process.exit(3);
      // eslint-disable-next-line no-fallthrough
      case 'sleep':
        await new Promise((r) => setTimeout(r, task.ms));
        return { result: 'slept' };
      case 'thread':
        await new Promise((r) => setTimeout(r, task.ms));
        return { result: threadId };
    }
  });
} else {
  const file = new URL(import.meta.url);

  describe('worker pool', () => {
    test('runs tasks in TypeScript workers and spreads them over the pool', async () => {
      const pool = createWorkerPool<Task, unknown>({ file, size: 2, name: 'test-echo' });
      try {
        assert.equal(await pool.run({ op: 'echo', value: 'abc' }), 'ABC');
        // Slow tasks, so the second worker is up before the first has drained the queue.
        const threads = await Promise.all([1, 2, 3, 4, 5, 6].map(() => pool.run({ op: 'thread', ms: 400 })));
        assert.equal(new Set(threads).size, 2, 'both workers took tasks');
        assert.equal(pool.stats().completed, 7);
        assert.equal(pool.stats().queued, 0);
      } finally {
        await pool.close();
      }
    });

    test('transfers buffers both ways', async () => {
      const pool = createWorkerPool<Task, Float32Array>({ file, size: 1, name: 'test-transfer' });
      try {
        const bytes = new Uint8Array([1, 2, 3, 250]);
        const result = await pool.run({ op: 'sum', bytes }, [bytes.buffer]);
        assert.equal(bytes.byteLength, 0, 'the input buffer moved to the worker');
        assert.ok(result instanceof Float32Array);
        assert.equal(result[0], 256);
      } finally {
        await pool.close();
      }
    });

    test('worker errors reject with name and code kept, and can be revived as the caller’s class', async () => {
      class InputError extends Error {}
      const pool = createWorkerPool<Task, unknown>({
        file,
        size: 1,
        name: 'test-errors',
        reviveError: (e) => (e.name === 'InputError' ? Object.assign(new InputError(e.message), { code: e.code }) : new Error(e.message)),
      });
      try {
        await assert.rejects(pool.run({ op: 'fail', code: 'image_too_large' }), (err: unknown) => {
          assert.ok(err instanceof InputError);
          assert.equal((err as { code?: string }).code, 'image_too_large');
          return true;
        });
        assert.equal(await pool.run({ op: 'echo', value: 'ok' }), 'OK', 'the worker keeps serving after a task error');
      } finally {
        await pool.close();
      }
    });

    test('a crashed worker rejects only its task and is replaced', async () => {
      const pool = createWorkerPool<Task, unknown>({ file, size: 1, name: 'test-crash' });
      try {
        const crashed = pool.run({ op: 'crash' });
        const queued = pool.run({ op: 'echo', value: 'after' });
        await assert.rejects(crashed, WorkerCrashedError);
        assert.equal(await queued, 'AFTER');
        assert.equal(pool.stats().restarts, 1);
        assert.equal(pool.stats().failed, 1);
      } finally {
        await pool.close();
      }
    });

    test('a task over its time limit is rejected and its worker replaced', async () => {
      const pool = createWorkerPool<Task, unknown>({ file, size: 1, name: 'test-timeout', taskTimeoutMs: 400 });
      try {
        await assert.rejects(
          pool.run({ op: 'sleep', ms: 5_000 }),
          (err: unknown) => err instanceof WorkerCrashedError && err.code === 'worker_timeout',
        );
        assert.equal(await pool.run({ op: 'sleep', ms: 1 }), 'slept');
        assert.equal(pool.stats().restarts, 1);
      } finally {
        await pool.close();
      }
    });

    test('close rejects queued tasks and refuses new ones', async () => {
      const pool = createWorkerPool<Task, unknown>({ file, size: 1, name: 'test-close' });
      const running = assert.rejects(pool.run({ op: 'sleep', ms: 2_000 }), WorkerPoolClosedError);
      const waiting = assert.rejects(pool.run({ op: 'echo', value: 'never' }), WorkerPoolClosedError);
      await pool.close();
      await running;
      await waiting;
      await assert.rejects(pool.run({ op: 'echo', value: 'x' }), WorkerPoolClosedError);
    });

    test('a worker that cannot start stops being restarted and fails tasks with the cause', async () => {
      const missing = new URL('./no-such-worker.ts', import.meta.url);
      const pool = createWorkerPool<Task, unknown>({ file: missing, size: 1, name: 'test-broken', maxConsecutiveCrashes: 2 });
      try {
        await assert.rejects(pool.run({ op: 'echo', value: 'x' }), WorkerCrashedError);
        await new Promise((r) => setTimeout(r, 1_500));
        assert.ok(pool.stats().restarts <= 2, `restarted ${pool.stats().restarts} times`);
        await assert.rejects(pool.run({ op: 'echo', value: 'y' }), /stopped after 3 crashes/);
      } finally {
        await pool.close();
      }
    });

    test('workerFileUrl picks .ts under tsx and .js when compiled', () => {
      assert.equal(workerFileUrl('file:///app/src/a/engine.ts', './w.js').href, 'file:///app/src/a/w.ts');
      assert.equal(workerFileUrl('file:///app/dist/a/engine.js', './w.js').href, 'file:///app/dist/a/w.js');
    });

    test('rejects a size that is not a positive integer', () => {
      assert.throws(() => createWorkerPool({ file, size: 0, name: 'x' }), RangeError);
    });

    test('a one-off worker runs one task off the main thread, keeps its error, and fails on a crash', async () => {
      const o = { file, name: 'test-one-off', taskTimeoutMs: 60_000 };
      assert.equal(await runInOneOffWorker<Task, unknown>(o, { op: 'echo', value: 'once' }), 'ONCE');
      assert.notEqual(await runInOneOffWorker<Task, unknown>(o, { op: 'thread', ms: 1 }), threadId);
      await assert.rejects(runInOneOffWorker<Task, unknown>(o, { op: 'fail', code: 'x' }), /bad input/);
      await assert.rejects(runInOneOffWorker<Task, unknown>(o, { op: 'crash' }), WorkerCrashedError);
    });
  });
}
