import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Db } from '../../platform/db.js';
import { createWorkerPool, workerFileUrl } from '../../platform/worker-pool.js';
import type { ListEntity } from '../../engines/screening/types.js';
import { listFormat } from '../../providers/lists/formats.js';
import type { ListInput, ListSource } from '../../providers/lists/list-source.js';
import { syncList, type FetchFn } from '../../providers/lists/sync.js';
import type { ListParseResult, ListParseTask } from './list-parse-worker.js';
import { activateSnapshot, recordFailedSnapshot, type ActivationResult } from './activate-snapshot.js';
import { snapshots } from './snapshot-repository.js';
import { loadScreeningSettings, SYNC_FORMATS, type ScreeningSettings } from './settings.js';

/** A hung parse is ended after this; a full official list parses in a few seconds. */
const PARSE_TIMEOUT_MS = 10 * 60_000;
/** Entities turned back into objects per event-loop turn on the main thread (a few milliseconds each). */
const REVIVE_SLICE = 1000;

/**
 * Reads and parses a list file (`{ path }`) or downloaded bytes (`{ input }`) in a worker thread, so
 * the seconds of CPU a full official list costs never stall the event loop. Imports are rare: one
 * worker per call, ended after. The entities come back as JSON texts and are revived in slices,
 * yielding to the event loop between slices. Parser errors keep their messages.
 */
export async function parseListOffThread(task: ListParseTask): Promise<ListEntity[]> {
  const pool = createWorkerPool<ListParseTask, ListParseResult>({ file: workerFileUrl(import.meta.url, './list-parse-worker.js'), size: 1, name: 'list-parse', taskTimeoutMs: PARSE_TIMEOUT_MS, maxConsecutiveCrashes: 0 });
  let texts: string[];
  try {
    ({ entities: texts } = await pool.run(task));
  } finally {
    await pool.close();
  }
  const entities: ListEntity[] = new Array(texts.length);
  for (let i = 0; i < texts.length; i += REVIVE_SLICE) {
    if (i > 0) await yieldToLoop();
    const end = Math.min(i + REVIVE_SLICE, texts.length);
    for (let j = i; j < end; j++) entities[j] = JSON.parse(texts[j]!) as ListEntity;
  }
  return entities;
}

export type ImportOutcome = ({ ok: true } & ActivationResult & { parseMs: number }) | { ok: false; error: string };

/**
 * `lists import FILE --format …`: offline. Reading and parsing happen first; a file that does not
 * parse, or parses to nothing, is recorded as a failed snapshot and activates nothing. Reading and
 * parsing run in a worker thread (parseListOffThread); the activation runs here, in its transaction.
 */
export async function importListFile(db: Db, o: { path: string; format: string; source?: string }): Promise<ImportOutcome> {
  const format = listFormat(o.format);
  const source = o.source ?? format.sourceName;
  const t0 = Date.now();
  let entities;
  try {
    entities = await parseListOffThread({ format: o.format, path: o.path });
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

type Download = Awaited<ReturnType<FetchFn>>;

/**
 * `syncList` with the parse in a worker thread. `syncList` (providers/lists/sync.ts) owns the
 * download's and the validation's rules and messages but parses synchronously, so it runs twice:
 * first to download (its parser only captures the input and stops it), then — after the worker parsed the
 * input — on the captured responses (no network) with a parser that hands over the entities, for
 * the size and drop checks and the snapshot. A parse error gets syncList's own reason text.
 */
async function syncOffThread(o: { formatName: string; sourceName: string; urls: string | Record<string, string> | undefined; fetch?: FetchFn; previous: Parameters<typeof syncList>[0]['previous']; minEntities: number }): ReturnType<typeof syncList> {
  const format = listFormat(o.formatName);
  const fetchFn = o.fetch ?? (globalThis.fetch as unknown as FetchFn);
  const responses = new Map<string, Download>();
  const recording: FetchFn = async (url, init) => {
    const res = await fetchFn(url, init);
    if (!res.ok) return res;
    const bytes = await res.arrayBuffer();
    const kept: Download = { ok: true, status: res.status, arrayBuffer: async () => bytes };
    responses.set(url, kept);
    return kept;
  };
  let input: ListInput | undefined;
  const capture: ListSource = {
    ...format,
    parse: (downloaded) => {
      input = downloaded;
      throw new Error('downloaded');
    },
  };
  const first = await syncList({ source: capture, sourceName: o.sourceName, urls: o.urls, fetch: recording, previous: o.previous, minEntities: o.minEntities });
  // No input captured: the download failed (or there is no URL); syncList's reason stands.
  if (input === undefined) return first;
  let entities: ListEntity[];
  try {
    entities = await parseListOffThread({ format: o.formatName, input });
  } catch (e) {
    return { ok: false, reason: `parse failed: ${(e as Error).message}`, transient: false };
  }
  const replay: FetchFn = async (url) => {
    const res = responses.get(url);
    if (!res) throw new Error(`no downloaded response for ${url}`);
    return res;
  };
  const handOver: ListSource = { ...format, parse: () => entities };
  return syncList({ source: handOver, sourceName: o.sourceName, urls: o.urls, fetch: replay, previous: o.previous, minEntities: o.minEntities });
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
    const r = await syncOffThread({ formatName, sourceName: source, urls: urlsFor(source, settings), fetch: o.fetch, previous, minEntities: 10 });
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
