// Import of one registry file (or one live registry answer) as one batch: records arrive in chunks and are
// written inside one transaction, so a file that fails half-way leaves the registry data as it was (the
// failure is recorded as a failed batch afterwards). A file already imported (same source, format and
// SHA-256) changes nothing. Files are hashed and parsed in a one-shot worker thread (registry-parse-worker.ts):
// the main thread only writes rows, so an import over the API or the admin socket does not stall the server.

import { basename } from 'node:path';
import type { Db } from '../../platform/db.js';
import { newId } from '../../platform/ids.js';
import { createWorkerPool, workerFileUrl } from '../../platform/worker-pool.js';
import {
  newStats,
  registryFormats,
  type EntityRecord,
  type ExceptionRecord,
  type ParseStats,
  type PersonRecord,
  type RegistryRecord,
  type RelationshipRecord,
} from '../../providers/registries/index.js';
import { entityTokens } from './name-tokens.js';
import type { RegistryParseResult, RegistryParseTask } from './registry-parse-worker.js';
import { registryBatches, registryRecords, type BatchRow, type RegistryTable } from './registry-repository.js';

export { nameTokens, entityTokens } from './name-tokens.js';

const CHUNK = 1000;
/** One chunk taking longer than this to parse means a hung reader: the worker is ended. */
const CHUNK_TIMEOUT_MS = 10 * 60_000;

export interface ImportOutcome {
  ok: boolean;
  unchanged: boolean;
  batch: BatchRow | undefined;
  error?: string;
  counts: ImportCounts;
  /** Registry subjects whose owners or reporting exceptions changed in this import. */
  ownershipChanged: { source: string; refs: string[] };
}

export interface ImportCounts {
  read: number;
  entities: number;
  persons: number;
  relationships: number;
  exceptions: number;
  changed: number;
  /** Relationships and reporting exceptions this batch ended (withdrawn in a delta, or absent from a full file). */
  ended: number;
  /** `full`: the file states every record of its kind (what it no longer carries ends); `delta`: adds and updates. */
  mode: ImportMode;
  skipped: Record<string, number>;
}

export type ImportMode = 'full' | 'delta';

/**
 * Full or delta. Asked for explicitly (`--full` / `--delta`, the `mode` option), else from GLEIF's file names:
 * a golden copy is `…-gleif-goldencopy-rr-golden-copy.csv.zip`, its deltas `…-intra-day`, `…-last-day`,
 * `…-last-week`, `…-last-month`. Anything else is a delta (it adds and updates only), so a file of unknown
 * completeness never ends anything. Only formats that declare `fullFileOf` can be full.
 */
export function importMode(format: string, fileName: string, asked?: ImportMode): ImportMode {
  const f = registryFormats[format];
  const mode = asked ?? (/-golden-copy\.[a-z.]+$/i.test(fileName) ? 'full' : 'delta');
  if (mode === 'full' && !f?.fullFileOf)
    throw new Error(
      `format "${format}" cannot be imported as a full file (only ${Object.keys(registryFormats)
        .filter((k) => registryFormats[k]!.fullFileOf)
        .join(', ')})`,
    );
  return mode;
}

/** Records of a batch in chunks, each with the reader's statistics so far and (from the worker) entity name words. */
interface Chunk {
  records: RegistryRecord[];
  tokens?: Record<string, string[]>;
  stats: ParseStats;
}

interface BatchMeta {
  source: string;
  format: string;
  fileName: string;
  sha: string;
  mode: ImportMode;
}

const emptyCounts = (mode: ImportMode = 'delta'): ImportCounts => ({
  read: 0,
  entities: 0,
  persons: 0,
  relationships: 0,
  exceptions: 0,
  changed: 0,
  ended: 0,
  mode,
  skipped: {},
});

const WITHDRAWABLE = { relationship: 'registry_relationships', exception: 'registry_exceptions' } as const;
const endOf = (r: RelationshipRecord | ExceptionRecord) => ({ ref: r.ref, on: r.withdrawn?.on ?? null });

/** The same content already imported (completed batch): nothing to do. */
async function previousImport(db: Db, m: BatchMeta): Promise<ImportOutcome | undefined> {
  const previous = await registryBatches.completedFor(db, m.source, m.format, m.sha);
  if (!previous) return undefined;
  return {
    ok: true,
    unchanged: true,
    batch: previous,
    counts: { ...emptyCounts(m.mode), ...(previous.counts as object) },
    ownershipChanged: { source: m.source, refs: [] },
  };
}

/** Writes every chunk in one transaction; on any failure records a failed batch and changes nothing else. */
async function writeBatch(
  db: Db,
  m: BatchMeta,
  chunks: AsyncIterable<Chunk>,
  progress?: (counts: ImportCounts) => void,
): Promise<ImportOutcome> {
  const { source } = m;
  const counts = emptyCounts(m.mode);
  const full = m.mode === 'full' ? WITHDRAWABLE[registryFormats[m.format]!.fullFileOf!] : undefined;
  let stats = newStats();
  const id = newId('registryImport');
  const startedAt = new Date();
  const changedSubjects = new Set<string>();
  const changedRows = { entities: 0, persons: 0, relationships: 0, exceptions: 0 };
  try {
    await db.transaction(async (tx) => {
      await registryBatches.insert(tx, {
        id,
        source,
        format: m.format,
        file_name: m.fileName,
        file_sha256: m.sha,
        publish_date: null,
        state: 'completed',
        counts: {},
        error: null,
        started_at: startedAt,
      });
      let lastProgress = 0;
      for await (const chunk of chunks) {
        stats = chunk.stats;
        const es: EntityRecord[] = [],
          ps: PersonRecord[] = [],
          rs: RelationshipRecord[] = [],
          xs: ExceptionRecord[] = [];
        for (const rec of chunk.records) {
          if (rec.kind === 'entity') (es.push(rec), counts.entities++);
          else if (rec.kind === 'person') (ps.push(rec), counts.persons++);
          else if (rec.kind === 'relationship') (rs.push(rec), counts.relationships++);
          else (xs.push(rec), counts.exceptions++);
        }
        const tokens = (e: EntityRecord) => chunk.tokens?.[e.ref] ?? entityTokens(e);
        const e = await registryRecords.upsertEntities(tx, source, id, es, tokens);
        const p = await registryRecords.upsertPersons(tx, source, id, ps);
        const liveRs = rs.filter((rel) => !rel.withdrawn),
          liveXs = xs.filter((ex) => !ex.withdrawn);
        const r = await registryRecords.upsertRelationships(tx, source, id, liveRs);
        const x = await registryRecords.upsertExceptions(tx, source, id, liveXs);
        const ended = [
          ...(await registryRecords.endRows(tx, 'registry_relationships', source, id, rs.filter((rel) => rel.withdrawn).map(endOf))),
          ...(await registryRecords.endRows(tx, 'registry_exceptions', source, id, xs.filter((ex) => ex.withdrawn).map(endOf))),
        ];
        if (full)
          await registryRecords.noteStated(
            tx,
            (full === 'registry_relationships' ? liveRs : liveXs).map((rec) => rec.ref),
          );
        counts.changed += e.length + p.length + r.length + x.length + ended.length;
        counts.ended += ended.length;
        changedRows.entities += e.length;
        changedRows.persons += p.length;
        changedRows.relationships += r.length;
        changedRows.exceptions += x.length;
        for (const s of [...r, ...x, ...ended]) changedSubjects.add(s);
        counts.read = stats.read;
        counts.skipped = stats.skipped;
        if (progress && counts.read - lastProgress >= 10_000) {
          lastProgress = counts.read;
          progress(counts);
        }
      }
      counts.read = stats.read;
      counts.skipped = stats.skipped;
      if (full) {
        const gone = await registryRecords.endUnstated(tx, full, source, id, stats.publishDate ?? null);
        gone.forEach((s) => changedSubjects.add(s));
        counts.ended += gone.length;
        counts.changed += gone.length;
        changedRows[full === 'registry_relationships' ? 'relationships' : 'exceptions'] += gone.length;
      }
      await registryBatches.finish(tx, id, stats.publishDate ?? null, { ...counts });
    });
  } catch (e) {
    const err = e as Error;
    // A reader's own error names file and line already (RegistryFileError, also when revived from the worker).
    const message = err.name === 'RegistryFileError' ? err.message : `${m.fileName}: ${err.message}`;
    const failedId = newId('registryImport');
    await registryBatches.insert(db, {
      id: failedId,
      source,
      format: m.format,
      file_name: m.fileName,
      file_sha256: m.sha,
      publish_date: stats.publishDate ?? null,
      state: 'failed',
      counts: { ...counts, read: stats.read, skipped: stats.skipped },
      error: message,
      started_at: startedAt,
    });
    const [batch] = await registryBatches.byIds(db, [failedId]);
    return { ok: false, unchanged: false, batch, error: message, counts, ownershipChanged: { source, refs: [] } };
  }
  // Statistics only steer the planner: the batch stands if refreshing them fails (autovacuum would catch up).
  await registryRecords.analyze(db, changedTables(changedRows)).catch(() => undefined);
  const [batch] = await registryBatches.byIds(db, [id]);
  return { ok: true, unchanged: false, batch, counts, ownershipChanged: { source, refs: [...changedSubjects] } };
}

/** The rows a batch wrote per table (each entity has at least one name token): whose statistics may be stale. */
function changedTables(rows: {
  entities: number;
  persons: number;
  relationships: number;
  exceptions: number;
}): Partial<Record<RegistryTable, number>> {
  return {
    registry_entities: rows.entities,
    registry_name_tokens: rows.entities,
    registry_persons: rows.persons,
    registry_relationships: rows.relationships,
    registry_exceptions: rows.exceptions,
  };
}

export async function importRegistryFile(
  db: Db,
  o: { path: string; format: string; mode?: ImportMode; progress?: (counts: ImportCounts) => void },
): Promise<ImportOutcome> {
  const format = registryFormats[o.format];
  if (!format) throw new Error(`unknown registry format "${o.format}"`);
  const source = format.source;
  const fileName = basename(o.path);
  const mode = importMode(o.format, fileName, o.mode);
  const pool = createWorkerPool<RegistryParseTask, RegistryParseResult>({
    file: workerFileUrl(import.meta.url, './registry-parse-worker.js'),
    size: 1,
    name: 'registry-parse',
    taskTimeoutMs: CHUNK_TIMEOUT_MS,
    maxConsecutiveCrashes: 0,
  });
  try {
    let sha: string;
    try {
      ({ sha } = (await pool.run({ op: 'open', path: o.path, format: o.format })) as { sha: string });
    } catch (e) {
      return {
        ok: false,
        unchanged: false,
        batch: undefined,
        error: `${fileName}: cannot read: ${(e as Error).message}`,
        counts: emptyCounts(mode),
        ownershipChanged: { source, refs: [] },
      };
    }
    const meta = { source, format: o.format, fileName, sha, mode };
    const previous = await previousImport(db, meta);
    if (previous) return previous;
    const ask = () => {
      const p = pool.run({ op: 'next', size: CHUNK });
      p.catch(() => undefined); // awaited below; a write that failed first leaves it unawaited
      return p;
    };
    async function* chunks(): AsyncGenerator<Chunk> {
      // The next chunk is parsed while this one is written.
      let pending = ask();
      for (;;) {
        const c = (await pending) as Extract<RegistryParseResult, { records: unknown }>;
        if (!c.done) pending = ask();
        yield c;
        if (c.done) return;
      }
    }
    return await writeBatch(db, meta, chunks(), o.progress);
  } finally {
    await pool.close();
  }
}

/** Records read from a live registry API, written as one batch (same digest again: nothing changes). */
export async function importLiveRecords(
  db: Db,
  o: { source: string; format: string; label: string; digest: string; records: RegistryRecord[]; stats: ParseStats },
): Promise<ImportOutcome> {
  const meta = { source: o.source, format: o.format, fileName: o.label.slice(0, 300), sha: o.digest, mode: 'delta' as const };
  const previous = await previousImport(db, meta);
  if (previous) return previous;
  async function* one(): AsyncGenerator<Chunk> {
    yield { records: o.records, stats: o.stats };
  }
  return writeBatch(db, meta, one());
}
