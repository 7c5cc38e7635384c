import { Worker, parentPort, type ResourceLimits, type TransferListItem } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

/**
 * A small fixed-size pool of worker threads. Each worker handles one task at a time; tasks wait in a
 * FIFO queue on the main thread. A worker that crashes (uncaught error, OOM, non-zero exit) is replaced
 * and only the task it was running is rejected, so one poisoned input cannot take the pool down.
 *
 * The worker file uses `serveWorkerTasks` below. When the file is TypeScript (tests and `tsx` runs),
 * the worker registers tsx itself before importing it: on Node 20 `execArgv: ['--import', 'tsx']`
 * does not install the loader hooks in a worker ("Unknown file extension .ts"). Compiled builds point
 * at the `.js` next to the caller and start it directly.
 */

export interface WorkerPoolOptions {
  /** Worker entry file; resolve it next to the caller with `workerFileUrl(import.meta.url, './x.js')`. */
  file: URL;
  size: number;
  /** Name used in thread names and error messages. */
  name: string;
  /** Passed to each worker as `workerData`. */
  workerData?: unknown;
  /** A task running longer than this terminates its worker (the task is rejected, the worker replaced). */
  taskTimeoutMs?: number;
  resourceLimits?: ResourceLimits;
  /** Turns an error sent back by a worker into the caller's own error class (typed input errors etc). */
  reviveError?: (error: SerializedError) => Error;
  /** Crashes in a row (no reply in between) after which the pool stops restarting and fails every task. Default 5. */
  maxConsecutiveCrashes?: number;
}

export interface WorkerPoolStats {
  name: string;
  size: number;
  busy: number;
  queued: number;
  completed: number;
  failed: number;
  restarts: number;
}

export interface WorkerPool<Req, Res> {
  run(task: Req, transfer?: readonly TransferListItem[]): Promise<Res>;
  close(): Promise<void>;
  stats(): WorkerPoolStats;
}

export interface SerializedError {
  name: string;
  message: string;
  code?: string;
  details?: unknown;
}

/** Raised for the task that was running when its worker died or timed out. */
export class WorkerCrashedError extends Error {
  override readonly name = 'WorkerCrashedError';
  constructor(
    message: string,
    readonly code: 'worker_crashed' | 'worker_timeout' = 'worker_crashed',
  ) {
    super(message);
  }
}

export class WorkerPoolClosedError extends Error {
  override readonly name = 'WorkerPoolClosedError';
  readonly code = 'worker_pool_closed';
}

interface Job<Req, Res> {
  id: number;
  task: Req;
  transfer: readonly TransferListItem[] | undefined;
  resolve: (value: Res) => void;
  reject: (error: Error) => void;
}

interface Slot<Req, Res> {
  worker: Worker;
  job: Job<Req, Res> | null;
  timer: NodeJS.Timeout | null;
  /** Set once the slot has been replaced, so its late exit event is ignored. */
  retired: boolean;
  /** The worker's module has loaded and it listens for tasks; time limits start counting from here. */
  ready: boolean;
}

type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: SerializedError } | { ready: true };

/** `new URL(relative, base)` that swaps `.js` for `.ts` when the caller itself runs as TypeScript. */
export function workerFileUrl(callerUrl: string, relativeJs: string): URL {
  const rel = callerUrl.endsWith('.ts') ? relativeJs.replace(/\.js$/, '.ts') : relativeJs;
  return new URL(rel, callerUrl);
}

/**
 * Runs one task in a worker thread started for it and ended after: for rare, heavy work (parsing a list
 * or an import file) whose seconds of CPU must not stall the event loop but which does not deserve a
 * worker kept alive. A crash or a timeout fails the call (no restart); the task's own errors keep their messages.
 */
export async function runInOneOffWorker<Req, Res>(
  o: { file: URL; name: string; taskTimeoutMs: number },
  task: Req,
  transfer?: readonly TransferListItem[],
): Promise<Res> {
  const pool = createWorkerPool<Req, Res>({ ...o, size: 1, maxConsecutiveCrashes: 0 });
  try {
    return await pool.run(task, transfer);
  } finally {
    await pool.close();
  }
}

export function createWorkerPool<Req, Res>(options: WorkerPoolOptions): WorkerPool<Req, Res> {
  if (!Number.isInteger(options.size) || options.size < 1)
    throw new RangeError(`worker pool ${options.name}: size must be a positive integer`);
  const queue: Job<Req, Res>[] = [];
  const slots: Slot<Req, Res>[] = [];
  const counters = { completed: 0, failed: 0, restarts: 0 };
  let nextId = 1;
  let closed = false;
  // A worker that dies before answering anything (broken file, failing import) would otherwise be
  // restarted in a tight loop; after too many crashes in a row the pool gives up and says why.
  let consecutiveCrashes = 0;
  let broken: WorkerCrashedError | null = null;
  const maxCrashes = options.maxConsecutiveCrashes ?? 5;
  const isTs = options.file.pathname.endsWith('.ts');
  const revive = options.reviveError ?? defaultRevive;

  function spawn(): Slot<Req, Res> {
    const common = { name: options.name, workerData: options.workerData, resourceLimits: options.resourceLimits };
    const worker = isTs
      ? new Worker(tsBootstrap(options.file), { ...common, eval: true })
      : new Worker(fileURLToPath(options.file), common);
    const slot: Slot<Req, Res> = { worker, job: null, timer: null, retired: false, ready: false };
    worker.on('message', (reply: Reply) => onReply(slot, reply));
    // 'error' is always followed by 'exit'; remember the cause so the rejection can name it.
    let lastError: Error | null = null;
    worker.on('error', (err) => {
      lastError = err;
    });
    worker.on('exit', (code) => onExit(slot, code, lastError));
    return slot;
  }

  function onReply(slot: Slot<Req, Res>, reply: Reply): void {
    if ('ready' in reply) {
      slot.ready = true;
      pump();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    consecutiveCrashes = 0;
    finish(slot);
    if (reply.ok) {
      counters.completed++;
      job.resolve(reply.result as Res);
    } else {
      counters.failed++;
      job.reject(revive(reply.error));
    }
    pump();
  }

  function onExit(slot: Slot<Req, Res>, code: number, cause: Error | null): void {
    if (slot.retired || closed) return;
    slot.retired = true;
    const job = slot.job;
    finish(slot);
    const why = cause ? `: ${cause.message}` : ` with code ${code}`;
    if (job) {
      counters.failed++;
      job.reject(new WorkerCrashedError(`worker ${options.name} exited${why}`));
    }
    consecutiveCrashes++;
    if (consecutiveCrashes > maxCrashes) {
      breakPool(new WorkerCrashedError(`worker pool ${options.name} stopped after ${consecutiveCrashes} crashes in a row; last${why}`));
      return;
    }
    const index = slots.indexOf(slot);
    if (index >= 0) {
      slots[index] = spawn();
      counters.restarts++;
    }
    pump();
  }

  function breakPool(error: WorkerCrashedError): void {
    broken = error;
    for (const job of queue.splice(0)) job.reject(error);
    for (const slot of slots) {
      slot.retired = true;
      const job = slot.job;
      finish(slot);
      job?.reject(error);
      void slot.worker.terminate();
    }
  }

  function finish(slot: Slot<Req, Res>): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
  }

  function pump(): void {
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (slot.job || slot.retired || !slot.ready) continue;
      const job = queue.shift()!;
      slot.job = job;
      if (options.taskTimeoutMs) {
        slot.timer = setTimeout(() => timeout(slot, job), options.taskTimeoutMs);
        slot.timer.unref();
      }
      slot.worker.postMessage({ id: job.id, task: job.task }, job.transfer as TransferListItem[] | undefined);
    }
  }

  function timeout(slot: Slot<Req, Res>, job: Job<Req, Res>): void {
    if (slot.job !== job) return;
    slot.retired = true;
    finish(slot);
    counters.failed++;
    job.reject(new WorkerCrashedError(`worker ${options.name} task exceeded ${options.taskTimeoutMs} ms`, 'worker_timeout'));
    void slot.worker.terminate();
    const index = slots.indexOf(slot);
    if (index >= 0 && !closed) {
      slots[index] = spawn();
      counters.restarts++;
    }
    pump();
  }

  for (let i = 0; i < options.size; i++) slots.push(spawn());

  return {
    run(task, transfer) {
      if (closed) return Promise.reject(new WorkerPoolClosedError(`worker pool ${options.name} is closed`));
      if (broken) return Promise.reject(broken);
      return new Promise<Res>((resolve, reject) => {
        queue.push({ id: nextId++, task, transfer, resolve, reject });
        pump();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const error = new WorkerPoolClosedError(`worker pool ${options.name} closed`);
      for (const job of queue.splice(0)) job.reject(error);
      for (const slot of slots) {
        const job = slot.job;
        finish(slot);
        job?.reject(error);
      }
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
    stats() {
      return { name: options.name, size: slots.length, busy: slots.filter((s) => s.job).length, queued: queue.length, ...counters };
    },
  };
}

/** The `eval` source that starts a TypeScript worker file under tsx (Node 20 does not pass loader hooks to workers). */
export function tsBootstrap(file: URL): string {
  // Resolved lazily so a production build never needs tsx installed.
  const tsxApi = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(file.href)}); });`;
}

function defaultRevive(error: SerializedError): Error {
  const revived = new Error(error.message) as Error & { code?: string; details?: unknown };
  revived.name = error.name;
  if (error.code !== undefined) revived.code = error.code;
  if (error.details !== undefined) revived.details = error.details;
  return revived;
}

export interface TaskOutput<Res> {
  result: Res;
  transfer?: TransferListItem[];
}

/**
 * Worker side: answers the pool's messages one at a time with `handle`. Errors are sent back as data
 * (name, message, code, details) so typed errors survive the thread boundary.
 */
export function serveWorkerTasks<Req, Res>(handle: (task: Req) => Promise<TaskOutput<Res>>): void {
  if (!parentPort) throw new Error('serveWorkerTasks must run inside a worker thread');
  const port = parentPort;
  port.on('message', async ({ id, task }: { id: number; task: Req }) => {
    try {
      const { result, transfer } = await handle(task);
      port.postMessage({ id, ok: true, result } satisfies Reply, transfer);
    } catch (err) {
      port.postMessage({ id, ok: false, error: serializeError(err) } satisfies Reply);
    }
  });
  port.postMessage({ ready: true } satisfies Reply);
}

export function serializeError(err: unknown): SerializedError {
  if (err instanceof Error) {
    const e = err as Error & { code?: unknown; details?: unknown };
    const out: SerializedError = { name: e.name, message: e.message };
    if (typeof e.code === 'string') out.code = e.code;
    if (e.details !== undefined) out.details = e.details;
    return out;
  }
  return { name: 'Error', message: String(err) };
}
