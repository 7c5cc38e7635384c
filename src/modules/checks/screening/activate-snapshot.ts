import { QUEUES } from '../../../platform/queues.js';
import type { Db } from '../../../platform/db.js';
import { enqueueJob } from '../../../platform/jobs.js';
import { prepareSnapshot, type PreparedSnapshot } from '../../../engines/screening/snapshot-diff.js';
import { sandboxList } from '../../../providers/lists/sandbox-list.js';
import { newId } from '../../../platform/ids.js';
import { snapshots, type SnapshotRow } from './snapshot-repository.js';
import { notifySnapshotsChanged } from './index-cache.js';
import type { Resources } from '../../../platform/resources.js';

export const RESCREEN_QUEUE = QUEUES.rescreen;

export interface ActivationResult {
  snapshot: SnapshotRow;
  previous: SnapshotRow | null;
  /** The content equals the active snapshot's: nothing was written. */
  unchanged: boolean;
  duplicatesDropped: number;
}

/** A staging snapshot this old is a crashed import's leftover (a 1,000,000-entity write takes minutes). */
const STAGING_LEFTOVER_MS = 6 * 3600_000;

/**
 * Stores a prepared list (see prepareSnapshot) as a new snapshot of its source and makes it the
 * active one. The entities are written first, in short statements, under a `staging` snapshot that
 * nothing screens against, so an embedded database keeps serving other requests between batches
 * instead of being held by one long transaction. Then one short transaction makes the switch
 * (old → superseded, staging → active) and enqueues the re-screening job: screening never sees half
 * a list and monitoring never misses an update. Content equal to the active snapshot's writes
 * nothing. A failure while staging deletes what was written; a crash leaves a staging snapshot
 * that the source's next activation deletes. Parsing and downloading happen before this.
 */
export async function activateSnapshot(
  db: Db,
  args: { source: string; format: string | null; origin: SnapshotRow['origin']; prepared: PreparedSnapshot },
  /** This process's resources: its screening index is told of the switch. */
  resources?: Resources,
): Promise<ActivationResult> {
  const p = args.prepared;
  if (p.ids.length === 0) throw new Error(`refusing to activate an empty snapshot of ${args.source}`);
  const current = await snapshots.activeFor(db, args.source);
  if (current?.version === p.version)
    return { snapshot: current, previous: current, unchanged: true, duplicatesDropped: p.duplicatesDropped };
  await snapshots.deleteStaging(db, { source: args.source, olderThanMs: STAGING_LEFTOVER_MS });
  const staging = await snapshots.insert(db, {
    id: newId('listSnapshot'),
    source: args.source,
    format: args.format,
    version: p.version,
    entity_count: p.ids.length,
    state: 'staging',
    origin: args.origin,
    error: null,
  });
  try {
    await snapshots.insertEntities(db, staging.id, p.ids, p.texts);
    const result = await db.transaction(async (tx) => {
      await snapshots.lockSource(tx, args.source);
      const previous = await snapshots.activeFor(tx, args.source);
      // Another process activated the same content meanwhile.
      if (previous?.version === p.version) return { snapshot: previous, previous, unchanged: true };
      if (previous) await snapshots.supersede(tx, previous.id);
      const snapshot = await snapshots.activate(tx, staging.id);
      if (!snapshot) throw new Error(`staging snapshot ${staging.id} of ${args.source} vanished before activation`);
      await enqueueJob(tx, RESCREEN_QUEUE, { source: args.source, snapshot_id: snapshot.id, previous_snapshot_id: previous?.id ?? null });
      return { snapshot, previous, unchanged: false };
    });
    if (result.unchanged) await snapshots.deleteStaging(db, { id: staging.id });
    else notifySnapshotsChanged(resources);
    return { ...result, duplicatesDropped: p.duplicatesDropped };
  } catch (e) {
    await snapshots.deleteStaging(db, { id: staging.id }).catch(() => undefined);
    throw e;
  }
}

/** Records a failed import or sync for the operator; the active snapshot stays as it was. */
export async function recordFailedSnapshot(
  db: Db,
  args: { source: string; format: string | null; origin: SnapshotRow['origin']; error: string },
): Promise<SnapshotRow> {
  return snapshots.insert(db, {
    id: newId('listSnapshot'),
    source: args.source,
    format: args.format,
    version: null,
    entity_count: 0,
    state: 'failed',
    origin: args.origin,
    error: args.error.slice(0, 2000),
  });
}

export const SANDBOX_SOURCE = 'sandbox';

/**
 * Installs the built-in sandbox list on first start (no snapshot of source `sandbox` yet), so
 * sandbox keys can screen offline from the first request.
 */
export async function ensureSandboxSnapshot(db: Db): Promise<void> {
  if (await snapshots.anyFor(db, SANDBOX_SOURCE)) return;
  await activateSnapshot(db, { source: SANDBOX_SOURCE, format: null, origin: 'builtin', prepared: prepareSnapshot(sandboxList()) });
}
