import type { Db } from '../../platform/db.js';
import { enqueueJob } from '../../platform/jobs.js';
import { contentHash } from '../../engines/screening/snapshot-diff.js';
import type { ListEntity } from '../../engines/screening/types.js';
import { sandboxList } from '../../providers/lists/sandbox-list.js';
import { newId } from '../../platform/ids.js';
import { snapshots, type SnapshotRow } from './snapshot-repository.js';
import { notifySnapshotsChanged } from './index-cache.js';

export const RESCREEN_QUEUE = 'screening.rescreen';

export interface ActivationResult {
  snapshot: SnapshotRow;
  previous: SnapshotRow | null;
  /** The content equals the active snapshot's: nothing was written. */
  unchanged: boolean;
  duplicatesDropped: number;
}

/**
 * Stores a parsed list as a new snapshot of its source and makes it the active one, in one
 * transaction: the entities, the switch (old → superseded, new → active) and the re-screening job
 * commit together, so screening never sees half a list and monitoring never misses an update.
 * Parsing and downloading happen before this; a failure there never reaches it.
 */
export async function activateSnapshot(db: Db, args: { source: string; format: string | null; origin: SnapshotRow['origin']; entities: readonly ListEntity[] }): Promise<ActivationResult> {
  if (args.entities.length === 0) throw new Error(`refusing to activate an empty snapshot of ${args.source}`);
  // Ids are the entity key: a source that repeats one keeps its first occurrence.
  const seen = new Set<string>();
  const entities = args.entities.filter((e) => !seen.has(e.id) && seen.add(e.id));
  const version = contentHash(entities);
  const result = await db.transaction(async (tx) => {
    await snapshots.lockSource(tx, args.source);
    const previous = await snapshots.activeFor(tx, args.source);
    if (previous?.version === version) return { snapshot: previous, previous, unchanged: true };
    if (previous) await snapshots.supersede(tx, previous.id);
    const snapshot = await snapshots.insert(tx, { id: newId('listSnapshot'), source: args.source, format: args.format, version, entity_count: entities.length, state: 'active', origin: args.origin, error: null });
    await snapshots.insertEntities(tx, snapshot.id, entities);
    await enqueueJob(tx, RESCREEN_QUEUE, { source: args.source, snapshot_id: snapshot.id, previous_snapshot_id: previous?.id ?? null });
    return { snapshot, previous, unchanged: false };
  });
  if (!result.unchanged) notifySnapshotsChanged(db);
  return { ...result, duplicatesDropped: args.entities.length - entities.length };
}

/** Records a failed import or sync for the operator; the active snapshot stays as it was. */
export async function recordFailedSnapshot(db: Db, args: { source: string; format: string | null; origin: SnapshotRow['origin']; error: string }): Promise<SnapshotRow> {
  return snapshots.insert(db, { id: newId('listSnapshot'), source: args.source, format: args.format, version: null, entity_count: 0, state: 'failed', origin: args.origin, error: args.error.slice(0, 2000) });
}

export const SANDBOX_SOURCE = 'sandbox';

/**
 * Installs the built-in sandbox list on first start (no snapshot of source `sandbox` yet), so
 * sandbox keys can screen offline from the first request.
 */
export async function ensureSandboxSnapshot(db: Db): Promise<void> {
  if (await snapshots.anyFor(db, SANDBOX_SOURCE)) return;
  await activateSnapshot(db, { source: SANDBOX_SOURCE, format: null, origin: 'builtin', entities: sandboxList() });
}
