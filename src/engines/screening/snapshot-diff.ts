import { createHash } from 'node:crypto';
import type { ListEntity } from './types.js';

// JSON with sorted keys, so the hash depends on content and not on property order.
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Stable hash of one entity's content. */
export function entityHash(e: ListEntity): string {
  return createHash('sha1').update(canonical(e)).digest('hex');
}

/** Stable hash of a whole snapshot (order-independent): the snapshot's version. */
export function contentHash(entities: readonly ListEntity[]): string {
  const h = createHash('sha256');
  for (const x of entities.map(entityHash).sort()) h.update(x);
  return h.digest('hex').slice(0, 32);
}

/**
 * A parsed list made ready to store: duplicates of an id dropped (the first occurrence stays), one
 * JSON text per entity and the content hash of what is kept. Built where the list was parsed (the
 * parse worker), so the main thread only moves strings into the database.
 */
export interface PreparedSnapshot {
  ids: string[];
  texts: string[];
  version: string;
  duplicatesDropped: number;
}

export function prepareSnapshot(entities: readonly ListEntity[]): PreparedSnapshot {
  const seen = new Set<string>();
  const kept = entities.filter((e) => !seen.has(e.id) && seen.add(e.id));
  return {
    ids: kept.map((e) => e.id),
    texts: kept.map((e) => JSON.stringify(e)),
    version: contentHash(kept),
    duplicatesDropped: entities.length - kept.length,
  };
}

export interface SnapshotDiff {
  added: ListEntity[];
  removed: ListEntity[];
  /** Entities present in both whose content changed (the new version). */
  changed: ListEntity[];
  unchanged: number;
}

/** Compares two snapshots of one source by entity id and content hash. */
export function diffSnapshots(prev: readonly ListEntity[], next: readonly ListEntity[]): SnapshotDiff {
  const before = new Map<string, string>();
  for (const e of prev) before.set(e.id, entityHash(e));
  const seen = new Set<string>();
  const added: ListEntity[] = [];
  const changed: ListEntity[] = [];
  let unchanged = 0;
  for (const e of next) {
    seen.add(e.id);
    const h = before.get(e.id);
    if (h === undefined) added.push(e);
    else if (h !== entityHash(e)) changed.push(e);
    else unchanged++;
  }
  const removed = prev.filter((e) => !seen.has(e.id));
  return { added, removed, changed, unchanged };
}
