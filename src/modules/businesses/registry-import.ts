// Offline import of one registry file as one batch: parsed as a stream, written in chunks inside one
// transaction, so a file that fails half-way leaves the registry data as it was (the failure is recorded
// as a failed batch afterwards). A file already imported (same source, format and SHA-256) changes nothing.

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { Db } from '../../platform/db.js';
import { newId } from '../../platform/ids.js';
import { prepareName } from '../../engines/screening/normalize.js';
import {
  newStats,
  registryFormats,
  RegistryFileError,
  type EntityRecord,
  type ExceptionRecord,
  type PersonRecord,
  type RegistryRecord,
  type RelationshipRecord,
} from '../../providers/registries/index.js';
import { registryBatches, registryRecords, type BatchRow } from './registry-repository.js';

const CHUNK = 1000;

/** The words a name is found by: the screening engine's normalised words, legal forms left out. */
export function nameTokens(names: string[]): string[] {
  const out = new Set<string>();
  for (const n of names)
    for (const t of prepareName(n, 'organization', false).tokens) if (t.kind !== 'legal' && t.text.length > 0) out.add(t.text);
  return [...out];
}

export const entityTokens = (e: EntityRecord): string[] => nameTokens([e.name, ...e.otherNames]);

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
  skipped: Record<string, number>;
}

async function sha256(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

export async function importRegistryFile(
  db: Db,
  o: { path: string; format: string; progress?: (counts: ImportCounts) => void },
): Promise<ImportOutcome> {
  const format = registryFormats[o.format];
  if (!format) throw new Error(`unknown registry format "${o.format}"`);
  const source = format.source;
  const counts: ImportCounts = { read: 0, entities: 0, persons: 0, relationships: 0, exceptions: 0, changed: 0, skipped: {} };
  const stats = newStats();
  let sha: string;
  try {
    sha = await sha256(o.path);
  } catch (e) {
    return {
      ok: false,
      unchanged: false,
      batch: undefined,
      error: `${basename(o.path)}: cannot read: ${(e as Error).message}`,
      counts,
      ownershipChanged: { source, refs: [] },
    };
  }
  const previous = await registryBatches.completedFor(db, source, o.format, sha);
  if (previous)
    return {
      ok: true,
      unchanged: true,
      batch: previous,
      counts: { ...counts, ...(previous.counts as object) },
      ownershipChanged: { source, refs: [] },
    };

  const id = newId('registryImport');
  const startedAt = new Date();
  const changedSubjects = new Set<string>();
  try {
    await db.transaction(async (tx) => {
      await registryBatches.insert(tx, {
        id,
        source,
        format: o.format,
        file_name: basename(o.path),
        file_sha256: sha,
        publish_date: null,
        state: 'completed',
        counts: {},
        error: null,
        started_at: startedAt,
      });
      let es: EntityRecord[] = [],
        ps: PersonRecord[] = [],
        rs: RelationshipRecord[] = [],
        xs: ExceptionRecord[] = [];
      let lastProgress = 0;
      const flush = async () => {
        counts.changed += (await registryRecords.upsertEntities(tx, source, id, es, entityTokens)).length;
        counts.changed += (await registryRecords.upsertPersons(tx, source, id, ps)).length;
        const r = await registryRecords.upsertRelationships(tx, source, id, rs);
        const x = await registryRecords.upsertExceptions(tx, source, id, xs);
        counts.changed += r.length + x.length;
        for (const s of [...r, ...x]) changedSubjects.add(s);
        es = [];
        ps = [];
        rs = [];
        xs = [];
        counts.read = stats.read;
        counts.skipped = stats.skipped;
        if (o.progress && counts.read - lastProgress >= 10_000) {
          lastProgress = counts.read;
          o.progress(counts);
        }
      };
      for await (const rec of format.parse(o.path, stats) as AsyncIterable<RegistryRecord>) {
        if (rec.kind === 'entity') (es.push(rec), counts.entities++);
        else if (rec.kind === 'person') (ps.push(rec), counts.persons++);
        else if (rec.kind === 'relationship') (rs.push(rec), counts.relationships++);
        else (xs.push(rec), counts.exceptions++);
        if (es.length + ps.length + rs.length + xs.length >= CHUNK) await flush();
      }
      await flush();
      counts.read = stats.read;
      counts.skipped = stats.skipped;
      await registryBatches.finish(tx, id, stats.publishDate ?? null, { ...counts });
    });
  } catch (e) {
    const message = e instanceof RegistryFileError ? e.message : `${basename(o.path)}: ${(e as Error).message}`;
    const failedId = newId('registryImport');
    await registryBatches.insert(db, {
      id: failedId,
      source,
      format: o.format,
      file_name: basename(o.path),
      file_sha256: sha,
      publish_date: stats.publishDate ?? null,
      state: 'failed',
      counts: { ...counts, read: stats.read, skipped: stats.skipped },
      error: message,
      started_at: startedAt,
    });
    const [batch] = await registryBatches.byIds(db, [failedId]);
    return { ok: false, unchanged: false, batch, error: message, counts, ownershipChanged: { source, refs: [] } };
  }
  const [batch] = await registryBatches.byIds(db, [id]);
  return { ok: true, unchanged: false, batch, counts, ownershipChanged: { source, refs: [...changedSubjects] } };
}
