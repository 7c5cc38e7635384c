import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { ThreadReply, ThreadRequest } from './pglite-thread.js';
import { pgliteOptions, runRequest } from './pglite-session.js';

/**
 * The embedded database's own thread (PgliteThread): opens PGlite on `workerData.dataDir` (null: in memory; from
 * `workerData.image`, a data directory's image, when one is given) and
 * answers the main thread's statements one at a time, in the order they arrive.
 */
const port = parentPort!;
const { dataDir, image } = workerData as { dataDir: string | null; image: Uint8Array | null };

/** An error as plain data: its message, name and every primitive property (PostgreSQL's code, constraint, detail…). */
function plain(err: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { name: 'Error', message: String(err) };
  if (err instanceof Error) {
    out.name = err.name;
    out.message = err.message;
    for (const [k, v] of Object.entries(err)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
  }
  return out;
}

try {
  const pglite = await PGlite.create(dataDir ?? undefined, pgliteOptions(image));
  let chain: Promise<void> = Promise.resolve();
  const handle = async (m: ThreadRequest): Promise<void> => {
    let reply: ThreadReply;
    try {
      reply = { id: m.id, ok: await runRequest(pglite, m) };
    } catch (err) {
      reply = { id: m.id, error: plain(err) };
    }
    port.postMessage(reply);
    if (m.op === 'close') port.close();
  };
  port.on('message', (m: ThreadRequest) => {
    chain = chain.then(() => handle(m));
  });
  port.postMessage({ ready: true } satisfies ThreadReply);
} catch (err) {
  port.postMessage({ failed: plain(err) } satisfies ThreadReply);
}
