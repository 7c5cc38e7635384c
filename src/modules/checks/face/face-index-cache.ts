import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { EMBEDDING_DIMENSIONS, type FaceIndexHit } from '../../../engines/face/index.js';
import type { Queryable } from '../../../platform/db.js';
import type { RequestContext } from '../../../platform/context.js';
import { idFloor } from '../../../platform/ids.js';
import { createWorkerPool, workerFileUrl, type WorkerPool } from '../../../platform/worker-pool.js';
import { defineResource } from '../../../platform/resources.js';
import { embeddingFromBase64, faceEnrollments } from './repository.js';
import type { FacePage, FaceIndexResult, FaceIndexState, FaceIndexTask } from './face-index-worker.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

/** Faces per message when an index is loaded: ~4 MB of embeddings, tens of milliseconds of main-thread decoding. */
const PAGE = 1000;
/**
 * An index catching up re-reads the faces enrolled since its last sync minus this margin, so a row
 * whose id was made a little earlier than it committed (another process, clock skew, a slow
 * transaction) is not missed. Re-adding a face replaces it: the margin costs time, not correctness.
 */
const CATCH_UP_MARGIN_MS = 5 * 60_000;
/** A loaded index taking longer than this is ended (the worker restarts and the next search reloads). */
const TASK_TIMEOUT_MS = 10 * 60_000;

/**
 * In-process face indexes for databases without pgvector, one per tenant and embedding model, held
 * by a worker thread (face-index-worker.ts) so that searching and encoding never run on the event
 * loop. Before each search the tenant's freshness stamp (newest enrolment id, newest erasure; two
 * index lookups) is read; the worker answers only from an index at that stamp. Otherwise this thread
 * brings it up to date: faces enrolled and erased since the index's last sync (incremental), or the
 * whole set in pages when the worker has none (first search, a restarted worker, an evicted tenant).
 * Searches of one tenant are serialised here so an update is never applied twice.
 */
export class FaceIndexCache {
  private pool: WorkerPool<FaceIndexTask, FaceIndexResult> | null = null;
  private readonly queues = new Map<string, Promise<unknown>>();
  private closed = false;
  /** Whole loads, incremental catch-ups and pages sent since start: how often indexes had to be brought up to date. */
  readonly stats = { fullLoads: 0, catchUps: 0, pagesSent: 0 };

  constructor(private readonly maxIndexes: number) {}

  private worker(): WorkerPool<FaceIndexTask, FaceIndexResult> {
    this.pool ??= createWorkerPool<FaceIndexTask, FaceIndexResult>({
      file: workerFileUrl(import.meta.url, './face-index-worker.js'),
      size: 1,
      name: 'face-index',
      taskTimeoutMs: TASK_TIMEOUT_MS,
      workerData: { maxIndexes: this.maxIndexes },
    });
    return this.pool;
  }

  /** Top-k of the tenant's live faces of `model` by cosine similarity, and how many faces were searched. */
  search(db: Queryable, t: Tenant, model: string, embedding: Float32Array, k: number): Promise<{ hits: FaceIndexHit[]; size: number }> {
    return this.searchOrPreload(db, t, model, embedding, k);
  }

  /** Brings the tenant's index up to date in the worker without searching it (a starting process's warm-up). */
  async preload(db: Queryable, t: Tenant, model: string): Promise<number> {
    return (await this.searchOrPreload(db, t, model, null, 0)).size;
  }

  private async searchOrPreload(
    db: Queryable,
    t: Tenant,
    model: string,
    embedding: Float32Array | null,
    k: number,
  ): Promise<{ hits: FaceIndexHit[]; size: number }> {
    const key = `${t.accountId}\u0000${t.environment}\u0000${model}`;
    const previous = this.queues.get(key) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(() => this.searchNow(db, t, model, key, embedding, k));
    this.queues.set(key, mine);
    try {
      return await mine;
    } finally {
      if (this.queues.get(key) === mine) this.queues.delete(key);
    }
  }

  private async searchNow(
    db: Queryable,
    t: Tenant,
    model: string,
    key: string,
    embedding: Float32Array | null,
    k: number,
  ): Promise<{ hits: FaceIndexHit[]; size: number }> {
    const stamp = await faceEnrollments.stamp(db, t);
    // Not transferred: the message copies the embedding, the caller keeps its own.
    const ask = () => this.worker().run({ kind: 'search', key, stamp, embedding, k });
    // A worker that restarts between the update and the search lost it: one more (full) load.
    for (let attempt = 0; ; attempt++) {
      const r = await ask();
      if ('found' in r && r.found) return { hits: r.hits, size: r.size };
      if (attempt === 2) throw new Error('the face index worker keeps losing the index it is given');
      await this.bringUpToDate(db, t, model, key, stamp, 'state' in r ? r.state : null);
    }
  }

  private async bringUpToDate(
    db: Queryable,
    t: Tenant,
    model: string,
    key: string,
    stamp: string,
    held: FaceIndexState | null,
  ): Promise<void> {
    // Database time, read before the rows: anything committed later is caught by the next sync.
    const syncedAt = await faceEnrollments.now(db);
    const since = held ? new Date(new Date(held.syncedAt).getTime() - CATCH_UP_MARGIN_MS) : null;
    if (since) this.stats.catchUps++;
    else this.stats.fullLoads++;
    let afterId = since ? idFloor('faceEnrollment', since.getTime()) : '';
    let reset = !since;
    const dimensions = embeddingDimensions(model);
    for (;;) {
      const rows = await faceEnrollments.loadPage(db, t, model, { afterId, limit: PAGE });
      if (rows.length === 0 && !reset) break;
      const page: FacePage = {
        ids: rows.map((r) => r.id),
        subjects: rows.map((r) => r.subject_reference),
        embeddings: new Float32Array(rows.length * dimensions),
      };
      rows.forEach((r, i) => embeddingFromBase64(r.embedding, page.embeddings.subarray(i * dimensions, (i + 1) * dimensions)));
      await this.worker().run({ kind: 'apply', key, dimensions, reset, page, remove: [], state: null }, [
        page.embeddings.buffer as ArrayBuffer,
      ]);
      this.stats.pagesSent++;
      reset = false;
      if (rows.length < PAGE) break;
      afterId = rows[rows.length - 1]!.id;
      await yieldToLoop();
    }
    const remove = since ? await faceEnrollments.erasedSince(db, t, since) : [];
    await this.worker().run({
      kind: 'apply',
      key,
      dimensions,
      reset: false,
      page: null,
      remove,
      state: { stamp, syncedAt: syncedAt.toISOString() },
    });
  }

  /**
   * Preloads, one after another, the indexes of the tenants that enrolled most recently (as many as the
   * worker keeps), so the first search of each after a start or a deploy does not pay for reading all
   * of its faces. Meant to run in the background; stops early when the cache closes.
   */
  async warm(db: Queryable): Promise<{ indexes: number; faces: number }> {
    let indexes = 0;
    let faces = 0;
    for (const r of await faceEnrollments.recentIndexes(db, this.maxIndexes)) {
      if (this.closed) break;
      faces += await this.preload(db, r, r.model);
      indexes++;
    }
    return { indexes, faces };
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    await pool?.close();
  }
}

/**
 * The process's face-search indexes: one cache (and one index worker, started on the first search) for
 * every plugin, job and test app that shares the resources object; closed with it.
 */
export const FACE_INDEX = defineResource<FaceIndexCache>(
  'face search indexes',
  (r) => new FaceIndexCache(r.config.checks.face.indexCacheTenants),
  (cache) => cache.close(),
);

/**
 * The embedding model's identity, stored with every enrolment: embeddings from another model, version
 * or alignment are not comparable, so searches only read enrolments of the current key. The face-api
 * recognition net's entry (its name includes the alignment's version) wins over Human's faceres, which
 * every worker also loads (age estimation) and which was the embedding before issue #19.
 */
export function embeddingModelKey(model: { name: string; version: string }[]): string {
  const m = model.find((x) => x.name.includes('face_recognition_model')) ?? model.find((x) => x.name.includes('faceres')) ?? model[0];
  return m ? `${m.name}@${m.version}` : 'unknown';
}

/** Values per stored embedding of a model key: 1024 for Human's faceres (before #19), else the current 128. */
export function embeddingDimensions(modelKey: string): number {
  return modelKey.includes('faceres') ? 1024 : EMBEDDING_DIMENSIONS;
}
