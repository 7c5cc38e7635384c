import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { tsBootstrap, workerFileUrl } from './worker-pool.js';
import { SerialEmbeddedPg, type EmbeddedRequest } from './pglite-session.js';

/** A request for the database thread, numbered so that its reply finds it. */
export type ThreadRequest = EmbeddedRequest & { id: number };

export type ThreadReply =
  { id: number; ok: unknown } | { id: number; error: Record<string, unknown> } | { ready: true } | { failed: Record<string, unknown> };

/** An error sent back by the thread, as the caller would have got it from PGlite (code, constraint, detail…). */
function revive(data: Record<string, unknown>): Error {
  const err = new Error(String(data.message));
  Object.assign(err, data);
  return err;
}

/**
 * PGlite on a worker thread of its own: the embedded database's parsing, planning and execution (WebAssembly, on
 * the calling thread when PGlite is used directly) run beside the event loop instead of on it, so HTTP parsing,
 * validation, sealing and serialisation of other requests go on while a statement runs; on two cores the database
 * and the service no longer take turns. Same statements, same results (rows are copied between threads by
 * structured clone: Date, Uint8Array, plain objects and arrays, as PGlite returns them).
 *
 * PGlite has one session, held as SerialEmbeddedPg holds it (a promise chain on this side; the thread answers in
 * order). If the thread dies, every pending and later statement fails with the cause.
 */
export class PgliteThread extends SerialEmbeddedPg {
  /** The thread answers its messages one at a time, in the order they arrive (pglite-thread-worker.ts). */
  readonly ordered = true;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private dead: Error | null = null;

  private constructor(private readonly worker: Worker) {
    super();
    // Idle, the thread does not keep the process alive (as PGlite on the main thread would not); while a
    // statement is out, it does.
    worker.unref();
    worker.on('message', (r: ThreadReply) => {
      if (!('id' in r)) return;
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if (this.pending.size === 0) worker.unref();
      if ('error' in r) p.reject(revive(r.error));
      else p.resolve(r.ok);
    });
    const fail = (err: Error) => {
      this.dead ??= err;
      for (const p of this.pending.values()) p.reject(this.dead);
      this.pending.clear();
    };
    worker.on('error', (err) => fail(new Error(`the embedded database thread failed: ${err.message}`, { cause: err })));
    worker.on('exit', (code) => fail(new Error(`the embedded database thread exited (code ${code})`)));
  }

  /**
   * Starts the thread and opens PGlite there (`dataDir` null: in memory, from `image` when one is given: a data
   * directory's image, openDb's `embeddedImage`); rejects if PGlite cannot open.
   */
  static async open(dataDir: string | null, image: Uint8Array | null = null): Promise<PgliteThread> {
    const file = workerFileUrl(import.meta.url, './pglite-thread-worker.js');
    const options = { name: 'pglite', workerData: { dataDir, image } };
    const worker = file.pathname.endsWith('.ts')
      ? new Worker(tsBootstrap(file), { ...options, eval: true })
      : new Worker(fileURLToPath(file), options);
    await new Promise<void>((resolve, reject) => {
      const onMessage = (r: ThreadReply) => {
        if ('ready' in r) done(null);
        else if ('failed' in r) done(revive(r.failed));
      };
      const onError = (err: Error) => done(err);
      const onExit = (code: number) => done(new Error(`the embedded database thread exited (code ${code}) before opening`));
      const done = (err: Error | null) => {
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (err === null) resolve();
        else void worker.terminate().finally(() => reject(err));
      };
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    });
    return new PgliteThread(worker);
  }

  protected send<T>(req: EmbeddedRequest): Promise<T> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage(Object.assign({ id }, req) satisfies ThreadRequest); // not { ...req, id }: eslint.config.js, "spread first"
    });
  }

  async close(): Promise<void> {
    if (this.dead) return;
    await this.serial(() => this.send({ op: 'close' }));
    await this.worker.terminate();
  }
}
