import type { Resources } from '../../../platform/resources.js';
import type { Db } from '../../../platform/db.js';
import { runInOneOffWorker, workerFileUrl } from '../../../platform/worker-pool.js';
import type { PreparedSnapshot } from '../../../engines/screening/snapshot-diff.js';
import { listFormat } from '../../../providers/lists/formats.js';
import { checkParsedSize, downloadListInput, parseFailure, type Failure, type FetchFn } from '../../../providers/lists/sync.js';
import type { ListParseResult, ListParseTask } from './list-parse-worker.js';
import { activateSnapshot, recordFailedSnapshot, type ActivationResult } from './activate-snapshot.js';
import { snapshots } from './snapshot-repository.js';
import { SYNC_FORMATS, type ScreeningSettings } from './settings.js';

/** A hung parse is ended after this; a full official list parses in a few seconds. */
const PARSE_TIMEOUT_MS = 10 * 60_000;

/**
 * Reads and parses a list file (`{ path }`) or downloaded bytes (`{ input }`) in a worker thread, so
 * the seconds of CPU a full official list costs never stall the event loop. The worker also drops
 * duplicate ids, hashes the content (the snapshot's version) and serialises every entity, so the
 * main thread only moves strings into the database. Imports are rare: one worker per call, ended
 * after. Parser errors keep their messages.
 */
export function parseListOffThread(task: ListParseTask): Promise<PreparedSnapshot> {
  return runInOneOffWorker<ListParseTask, ListParseResult>(
    { file: workerFileUrl(import.meta.url, './list-parse-worker.js'), name: 'list-parse', taskTimeoutMs: PARSE_TIMEOUT_MS },
    task,
  );
}

export type ImportOutcome = ({ ok: true } & ActivationResult & { parseMs: number }) | { ok: false; error: string };

/**
 * `lists import FILE --format …`: offline. Reading and parsing happen first; a file that does not
 * parse, or parses to nothing, is recorded as a failed snapshot and activates nothing. Reading and
 * parsing run in a worker thread (parseListOffThread); the activation (activateSnapshot) runs here.
 */
export async function importListFile(
  db: Db,
  o: { path: string; format: string; source?: string },
  /** The process's resources, whose screening index is told of the switch. */
  resources?: Resources,
): Promise<ImportOutcome> {
  const format = listFormat(o.format);
  const source = o.source ?? format.sourceName;
  const t0 = Date.now();
  let prepared;
  try {
    prepared = await parseListOffThread({ format: o.format, path: o.path });
    if (prepared.ids.length === 0) throw new Error('the file holds no list entries');
  } catch (e) {
    const error = `import of ${o.path} as ${o.format} failed: ${(e as Error).message}`;
    await recordFailedSnapshot(db, { source, format: o.format, origin: 'import', error });
    return { ok: false, error };
  }
  const parseMs = Date.now() - t0;
  return { ok: true, parseMs, ...(await activateSnapshot(db, { source, format: o.format, origin: 'import', prepared }, resources)) };
}

export type SyncOutcome =
  | { source: string; ok: true; unchanged: boolean; snapshotId: string; version: string; entities: number }
  | { source: string; ok: false; reason: string; transient: boolean };

/** URLs of one source: an operator mirror (for multi-file formats a base URL + file names), or the official ones. */
function urlsFor(source: string, settings: ScreeningSettings): string | Record<string, string> | undefined {
  const override = settings.syncUrls[source];
  const official = listFormat(SYNC_FORMATS[source]!).officialUrl;
  if (!override) return official;
  if (typeof official === 'object')
    return Object.fromEntries(
      Object.keys(official).map((f) => [f, new URL(f, override.endsWith('/') ? override : `${override}/`).toString()]),
    );
  return override;
}

/**
 * One source's download, parse (in a worker thread) and size checks. The rules and messages are
 * providers/lists/sync.ts's; only the previous snapshot's entity count is needed, never its entities.
 */
async function syncOffThread(o: {
  formatName: string;
  urls: string | Record<string, string> | undefined;
  fetch?: FetchFn;
  previousCount: number;
  minEntities: number;
}): Promise<{ ok: true; prepared: PreparedSnapshot } | Failure> {
  const downloaded = await downloadListInput({ source: listFormat(o.formatName), urls: o.urls, fetch: o.fetch });
  if (!downloaded.ok) return downloaded;
  let prepared: PreparedSnapshot;
  try {
    prepared = await parseListOffThread({ format: o.formatName, input: downloaded.input });
  } catch (e) {
    return parseFailure(e);
  }
  return (
    checkParsedSize({ count: prepared.ids.length, previousCount: o.previousCount, minEntities: o.minEntities }) ?? { ok: true, prepared }
  );
}

/**
 * `lists sync` and the `lists.sync` job: downloads each enabled source, validates it (parse, a
 * minimum size, no drop of more than 20 % against the active snapshot) and only then activates
 * it. A failed or partial download is recorded as a failed snapshot; the active one stays.
 */
export async function syncLists(
  db: Db,
  o: { settings: ScreeningSettings; only?: string; fetch?: FetchFn },
  resources?: Resources,
): Promise<SyncOutcome[]> {
  const settings = o.settings;
  if (settings.syncSources.length === 0)
    throw new Error('list sync is disabled: set LIST_SYNC_SOURCES (e.g. ofac_sdn,un) to the sources to download');
  if (o.only && !settings.syncSources.includes(o.only))
    throw new Error(`source ${o.only} is not enabled for sync; LIST_SYNC_SOURCES=${settings.syncSources.join(',')}`);
  const out: SyncOutcome[] = [];
  for (const source of o.only ? [o.only] : settings.syncSources) {
    const formatName = SYNC_FORMATS[source]!;
    const active = await snapshots.activeFor(db, source);
    const r = await syncOffThread({
      formatName,
      urls: urlsFor(source, settings),
      fetch: o.fetch,
      previousCount: active?.entity_count ?? 0,
      minEntities: 10,
    });
    if (!r.ok) {
      await recordFailedSnapshot(db, { source, format: formatName, origin: 'sync', error: r.reason });
      out.push({ source, ok: false, reason: r.reason, transient: r.transient });
      continue;
    }
    const a = await activateSnapshot(db, { source, format: formatName, origin: 'sync', prepared: r.prepared }, resources);
    out.push({
      source,
      ok: true,
      unchanged: a.unchanged,
      snapshotId: a.snapshot.id,
      version: a.snapshot.version!,
      entities: a.snapshot.entity_count,
    });
  }
  return out;
}
