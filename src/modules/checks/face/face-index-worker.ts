import { workerData } from 'node:worker_threads';
import { FaceIndex, type FaceIndexHit } from '../../../engines/face/index.js';
import { BoundedMap } from '../../../platform/bounded-map.js';
import { serveWorkerTasks } from '../../../platform/worker-pool.js';

/**
 * Worker entry that owns the in-process face indexes (databases without pgvector): one FaceIndex per
 * tenant and embedding model, least recently used dropped beyond `workerData.maxIndexes`. Searching
 * 100,000 faces costs 10–20 ms of CPU and (re)encoding an index seconds, so neither runs on the
 * event loop of an API process. The main thread (face-index-cache.ts) reads the database and sends
 * changes; this thread only computes.
 *
 * Every search names the freshness stamp it expects; an index at another stamp (or none: a restarted
 * worker, an evicted tenant) answers `found: false` with what it holds, and the main thread sends
 * the missing rows.
 */

/** What an index was last brought up to date with: the database's stamp and when (database time, ISO) it was read. */
export interface FaceIndexState {
  stamp: string;
  syncedAt: string;
  size: number;
}

/** A page of faces: `embeddings` holds ids.length × dimensions values, row by row (one transferable buffer). */
export interface FacePage {
  ids: string[];
  subjects: string[];
  embeddings: Float32Array;
}

export type FaceIndexTask =
  /** `embedding` null: only whether the index is at `stamp` (a preload), no search. */
  | { kind: 'search'; key: string; stamp: string; embedding: Float32Array | null; k: number }
  /** Starts (reset) or continues bringing an index up to date: add or replace `page`, then remove `remove`. `state` is set when the update is complete. */
  | {
      kind: 'apply';
      key: string;
      /** Values per embedding of this index's model (128 for face-api, 1024 for the legacy faceres). */
      dimensions: number;
      reset: boolean;
      page: FacePage | null;
      remove: string[];
      state: Omit<FaceIndexState, 'size'> | null;
    };

export type FaceIndexResult =
  { found: true; hits: FaceIndexHit[]; size: number } | { found: false; state: FaceIndexState | null } | { applied: true; size: number };

const maxIndexes = Number((workerData as { maxIndexes?: number } | null)?.maxIndexes ?? 32);
const indexes = new BoundedMap<string, { index: FaceIndex; state: Omit<FaceIndexState, 'size'> | null }>(maxIndexes, 'use');

serveWorkerTasks<FaceIndexTask, FaceIndexResult>(async (task) => {
  if (task.kind === 'search') {
    const entry = indexes.get(task.key);
    if (!entry?.state || entry.state.stamp !== task.stamp) {
      return { result: { found: false, state: entry?.state ? { ...entry.state, size: entry.index.size } : null } };
    }
    const hits = task.embedding ? entry.index.search(task.embedding, { k: task.k }) : [];
    return { result: { found: true, hits, size: entry.index.size } };
  }
  let entry = indexes.get(task.key);
  if (task.reset || !entry || entry.index.dimensions !== task.dimensions) {
    entry = { index: new FaceIndex(task.dimensions), state: null };
    indexes.set(task.key, entry);
  }
  // Not searchable at its old stamp while an update is under way: a search in between reloads.
  entry.state = null;
  const page = task.page;
  if (page) {
    const d = entry.index.dimensions;
    if (page.embeddings.length !== page.ids.length * d)
      throw new RangeError(`a page of ${page.ids.length} faces needs ${page.ids.length * d} values, got ${page.embeddings.length}`);
    for (let i = 0; i < page.ids.length; i++)
      entry.index.add(page.ids[i]!, page.subjects[i]!, page.embeddings.subarray(i * d, (i + 1) * d));
  }
  for (const id of task.remove) entry.index.remove(id);
  if (task.state) entry.state = task.state;
  return { result: { applied: true, size: entry.index.size } };
});
