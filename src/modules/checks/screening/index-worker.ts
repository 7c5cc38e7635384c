import { serveWorkerTasks } from '../../../platform/worker-pool.js';
import { ScreeningIndex } from '../../../engines/screening/index.js';
import { diffSnapshots } from '../../../engines/screening/snapshot-diff.js';
import { buildDeltaIndex, rescreenAgainst, type DeltaIndex } from '../../../engines/screening/rescreen.js';
import type { Hit, ListEntity, ScreeningQuery } from '../../../engines/screening/types.js';
import { screenAcross, toApiHit, type ScreenAcrossOptions, type ScreenAcrossResult } from './screen-across.js';
import type { ScreeningHit } from './schemas.js';

/**
 * Worker entry of the screening engine (design choice (a) in docs/screening.md: the worker owns the
 * indexes and answers the queries). Index builds (≈1–4 s for the official lists), snapshot diffs
 * and the delta re-screen run here, so they stall only this thread; the main thread keeps the
 * database work and holds no index. Entities arrive as the database's JSON text, a page at a time
 * (`upload`), so the main thread neither parses nor clones large object graphs.
 *
 * State is keyed by owner (one ScreeningIndexCache per database handle) and snapshot id. A worker
 * that crashed is replaced empty: every task that needs state it no longer has fails with a
 * code (`index_missing`, `upload_missing`, `delta_missing`) the caller recovers from.
 */

export interface SnapshotMeta {
  id: string;
  source: string;
  version: string | null;
}

export interface DeltaSubject {
  subjectId: string;
  query: ScreeningQuery;
  /** Entity ids the subject's allowlist entries clear. */
  allow?: string[];
}

export interface DeltaAlert {
  subjectId: string;
  reason: 'added' | 'changed';
  /** The engine's hit (unrounded score, for the subject's own threshold). */
  hit: Hit;
  /** The same hit as the API shows it, with the listed entity's date and source link. */
  apiHit: ScreeningHit;
}

export type IndexTask =
  | { kind: 'upload'; upload: string; entities: string[] }
  | { kind: 'discard'; upload: string }
  | { kind: 'build'; owner: string; snapshot: SnapshotMeta; upload: string }
  | { kind: 'retain'; owner: string; snapshotIds: string[] }
  | { kind: 'screen'; owner: string; snapshotIds: string[]; query: ScreeningQuery; options: ScreenAcrossOptions }
  | { kind: 'delta.open'; delta: string; previous: string | null; next: string }
  | { kind: 'delta.screen'; delta: string; subjects: DeltaSubject[]; threshold: number; limit: number }
  | { kind: 'delta.close'; delta: string }
  | { kind: 'stats' };

export interface IndexTaskResults {
  upload: { entities: number };
  discard: Record<string, never>;
  build: { entityCount: number; nameCount: number; datasets: string[] };
  retain: { dropped: number };
  screen: ScreenAcrossResult;
  'delta.open': { added: number; changed: number; removed: string[] };
  'delta.screen': { alerts: DeltaAlert[]; subjectsScreened: number };
  'delta.close': Record<string, never>;
  stats: { indexes: Record<string, string[]>; uploads: number; deltas: number };
}

export type IndexTaskResult = IndexTaskResults[keyof IndexTaskResults];

/** A failure the caller is meant to recover from (the worker lost its state, or it was dropped). */
class StateMissingError extends Error {
  constructor(
    readonly code: 'index_missing' | 'upload_missing' | 'delta_missing',
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'StateMissingError';
  }
}

interface Entry {
  snapshot: SnapshotMeta;
  index: ScreeningIndex;
}

interface Delta {
  index: DeltaIndex;
  listed: Map<string, ListEntity>;
}

const indexes = new Map<string, Map<string, Entry>>();
const uploads = new Map<string, ListEntity[]>();
const deltas = new Map<string, Delta>();

function take(upload: string): ListEntity[] {
  const entities = uploads.get(upload);
  if (!entities) throw new StateMissingError('upload_missing', `screening worker: upload ${upload} is unknown (the worker restarted)`);
  uploads.delete(upload);
  return entities;
}

function handle(task: IndexTask): IndexTaskResult {
  switch (task.kind) {
    case 'upload': {
      let list = uploads.get(task.upload);
      if (!list) uploads.set(task.upload, (list = []));
      for (const text of task.entities) list.push(JSON.parse(text) as ListEntity);
      return { entities: list.length };
    }
    case 'discard':
      uploads.delete(task.upload);
      return {};
    case 'build': {
      const index = ScreeningIndex.build(take(task.upload));
      let owned = indexes.get(task.owner);
      if (!owned) indexes.set(task.owner, (owned = new Map()));
      owned.set(task.snapshot.id, { snapshot: task.snapshot, index });
      return { entityCount: index.entityCount, nameCount: index.nameCount, datasets: index.datasets };
    }
    case 'retain': {
      const owned = indexes.get(task.owner);
      let dropped = 0;
      for (const id of owned?.keys() ?? [])
        if (!task.snapshotIds.includes(id)) {
          owned!.delete(id);
          dropped++;
        }
      if (owned?.size === 0) indexes.delete(task.owner);
      return { dropped };
    }
    case 'screen': {
      const owned = indexes.get(task.owner);
      const missing = task.snapshotIds.filter((id) => !owned?.has(id));
      if (missing.length)
        throw new StateMissingError('index_missing', `screening worker: no index for snapshot(s) ${missing.join(', ')}`, { missing });
      return screenAcross(
        task.snapshotIds.map((id) => owned!.get(id)!),
        task.query,
        task.options,
      );
    }
    case 'delta.open': {
      const next = take(task.next);
      const previous = task.previous ? take(task.previous) : [];
      const diff = diffSnapshots(previous, next);
      const listed = new Map([...diff.added, ...diff.changed].map((e) => [e.id, e]));
      deltas.set(task.delta, { index: buildDeltaIndex(diff), listed });
      return { added: diff.added.length, changed: diff.changed.length, removed: diff.removed.map((e) => e.id) };
    }
    case 'delta.screen': {
      const delta = deltas.get(task.delta);
      if (!delta)
        throw new StateMissingError('delta_missing', `screening worker: re-screen ${task.delta} is unknown (the worker restarted)`);
      const allow = new Map(task.subjects.map((s) => [s.subjectId, new Set(s.allow ?? [])]));
      const r = rescreenAgainst(delta.index, task.subjects, {
        threshold: task.threshold,
        limit: task.limit,
        allowFor: (id) => allow.get(id),
      });
      return {
        alerts: r.alerts.map((a) => ({
          subjectId: a.subjectId,
          reason: a.reason,
          hit: a.hit,
          apiHit: toApiHit(a.hit, delta.listed.get(a.hit.entityId)),
        })),
        subjectsScreened: r.subjectsScreened,
      };
    }
    case 'delta.close':
      deltas.delete(task.delta);
      return {};
    case 'stats':
      return {
        indexes: Object.fromEntries([...indexes].map(([owner, m]) => [owner, [...m.keys()]])),
        uploads: uploads.size,
        deltas: deltas.size,
      };
  }
}

serveWorkerTasks<IndexTask, IndexTaskResult>(async (task) => ({ result: handle(task) }));
