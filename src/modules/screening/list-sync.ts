import type { Db } from '../../platform/db.js';
import { listFormat } from '../../providers/lists/formats.js';
import { readListInput } from '../../providers/lists/list-files.js';
import { syncList, type FetchFn } from '../../providers/lists/sync.js';
import { activateSnapshot, recordFailedSnapshot, type ActivationResult } from './activate-snapshot.js';
import { snapshots } from './snapshot-repository.js';
import { loadScreeningSettings, SYNC_FORMATS, type ScreeningSettings } from './settings.js';

export type ImportOutcome = ({ ok: true } & ActivationResult & { parseMs: number }) | { ok: false; error: string };

/**
 * `lists import FILE --format …`: offline. Reading and parsing happen first; a file that does not
 * parse, or parses to nothing, is recorded as a failed snapshot and activates nothing.
 */
export async function importListFile(db: Db, o: { path: string; format: string; source?: string }): Promise<ImportOutcome> {
  const format = listFormat(o.format);
  const source = o.source ?? format.sourceName;
  const t0 = Date.now();
  let entities;
  try {
    entities = format.parse(readListInput(o.path));
    if (entities.length === 0) throw new Error('the file holds no list entries');
  } catch (e) {
    const error = `import of ${o.path} as ${o.format} failed: ${(e as Error).message}`;
    await recordFailedSnapshot(db, { source, format: o.format, origin: 'import', error });
    return { ok: false, error };
  }
  const parseMs = Date.now() - t0;
  return { ok: true, parseMs, ...(await activateSnapshot(db, { source, format: o.format, origin: 'import', entities })) };
}

export type SyncOutcome =
  | { source: string; ok: true; unchanged: boolean; snapshotId: string; version: string; entities: number }
  | { source: string; ok: false; reason: string; transient: boolean };

/** URLs of one source: an operator mirror (for multi-file formats a base URL + file names), or the official ones. */
function urlsFor(source: string, settings: ScreeningSettings): string | Record<string, string> | undefined {
  const override = settings.syncUrls[source];
  const official = listFormat(SYNC_FORMATS[source]!).officialUrl;
  if (!override) return official;
  if (typeof official === 'object') return Object.fromEntries(Object.keys(official).map((f) => [f, new URL(f, override.endsWith('/') ? override : `${override}/`).toString()]));
  return override;
}

/**
 * `lists sync` and the `lists.sync` job: downloads each enabled source, validates it (parse, a
 * minimum size, no drop of more than 20 % against the active snapshot) and only then activates
 * it. A failed or partial download is recorded as a failed snapshot; the active one stays.
 */
export async function syncLists(db: Db, o: { only?: string; fetch?: FetchFn; settings?: ScreeningSettings } = {}): Promise<SyncOutcome[]> {
  const settings = o.settings ?? loadScreeningSettings();
  if (settings.syncSources.length === 0) throw new Error('list sync is disabled: set LIST_SYNC_SOURCES (e.g. ofac_sdn,un) to the sources to download');
  if (o.only && !settings.syncSources.includes(o.only)) throw new Error(`source ${o.only} is not enabled for sync; LIST_SYNC_SOURCES=${settings.syncSources.join(',')}`);
  const out: SyncOutcome[] = [];
  for (const source of o.only ? [o.only] : settings.syncSources) {
    const formatName = SYNC_FORMATS[source]!;
    const active = await snapshots.activeFor(db, source);
    const previous = active?.version ? { source, version: active.version, fetchedAt: active.imported_at.toISOString(), entities: await snapshots.entities(db, active.id) } : undefined;
    const r = await syncList({ source: listFormat(formatName), sourceName: source, urls: urlsFor(source, settings), fetch: o.fetch, previous, minEntities: 10 });
    if (!r.ok) {
      await recordFailedSnapshot(db, { source, format: formatName, origin: 'sync', error: r.reason });
      out.push({ source, ok: false, reason: r.reason, transient: r.transient });
      continue;
    }
    if (r.unchanged && active) {
      out.push({ source, ok: true, unchanged: true, snapshotId: active.id, version: active.version!, entities: active.entity_count });
      continue;
    }
    const a = await activateSnapshot(db, { source, format: formatName, origin: 'sync', entities: r.snapshot.entities });
    out.push({ source, ok: true, unchanged: a.unchanged, snapshotId: a.snapshot.id, version: a.snapshot.version!, entities: a.snapshot.entity_count });
  }
  return out;
}
