import type { Db } from '../../platform/db.js';
import { registryFormats } from '../../providers/registries/index.js';
import { importMode, importRegistryFile, type ImportCounts, type ImportMode } from './registry-import.js';
import { registryBatches, type BatchRow } from './registry-repository.js';
import { notifyOwnershipChanges } from './ownership-events.js';

interface Io {
  out(line: string): void;
  err(line: string): void;
}

export const REGISTRIES_USAGE = `  registries import FILE --format FORMAT [--full|--delta] [--json]
                                            import a registry file (plain, .gz or .zip) offline as one batch;
                                            --full: the file states every GLEIF relationship or reporting
                                            exception (what it no longer carries ends); default from the name
                                            (…-golden-copy.csv[.zip] is full), else a delta (adds and updates)
                                            formats: ${Object.keys(registryFormats).join(', ')}
  registries list [--json]                  recent registry import batches`;

const skipped = (s: Record<string, number>): string =>
  Object.entries(s)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ') || 'none';

const line = (b: BatchRow): string =>
  `${b.id}  ${b.source.padEnd(7)} ${b.format.padEnd(22)} ${b.state.padEnd(9)} ${b.file_name}  published ${b.publish_date ?? '-'}  ${JSON.stringify(b.counts)}${b.error ? `  ${b.error}` : ''}`;

/** `verity registries …`. Returns the exit code (0 ok, 1 failed, 64 usage). */
export async function runRegistriesCommand(
  db: Db,
  action: string,
  o: { positionals: string[]; format?: string; json: boolean; mode?: ImportMode },
  io: Io,
): Promise<number> {
  switch (action) {
    case 'import': {
      const path = o.positionals[0];
      if (!path || !o.format || !registryFormats[o.format]) {
        io.err(`error: registries import needs FILE and --format (${Object.keys(registryFormats).join(', ')})`);
        return 64;
      }
      try {
        importMode(o.format, path, o.mode);
      } catch (e) {
        io.err(`error: ${(e as Error).message}`);
        return 64;
      }
      const progress = (c: ImportCounts) => {
        if (!o.json) io.out(`… ${c.read} records read, ${c.changed} rows changed`);
      };
      const r = await importRegistryFile(db, { path, format: o.format, ...(o.mode ? { mode: o.mode } : {}), progress });
      if (!r.ok) {
        if (o.json) io.out(JSON.stringify({ ok: false, error: r.error, batch: r.batch?.id ?? null, counts: r.counts }));
        io.err(`error: ${r.error}; nothing was imported from this file (registry data unchanged)`);
        return 1;
      }
      const events = r.unchanged ? 0 : await notifyOwnershipChanges(db, { ...r.ownershipChanged, batchId: r.batch!.id });
      const b = r.batch!;
      if (o.json)
        io.out(
          JSON.stringify({
            ok: true,
            unchanged: r.unchanged,
            batch: b.id,
            source: b.source,
            publish_date: b.publish_date,
            counts: r.counts,
            ownership_events: events,
          }),
        );
      else if (r.unchanged) io.out(`${b.file_name}: already imported as batch ${b.id}; nothing changed`);
      else
        io.out(
          `imported ${b.file_name} as batch ${b.id} (${b.source}, published ${b.publish_date ?? 'unknown'}): ${r.counts.read} records read; ` +
            `${r.counts.entities} entities, ${r.counts.persons} persons, ${r.counts.relationships} relationships, ${r.counts.exceptions} exceptions; ` +
            `${r.counts.changed} rows changed; ${r.counts.mode} file, ${r.counts.ended} ended; skipped: ${skipped(r.counts.skipped)}${events ? `; ${events} business.ownership_changed events` : ''}`,
        );
      return 0;
    }
    case 'list': {
      const rows = await registryBatches.recent(db);
      if (o.json) io.out(JSON.stringify(rows));
      else if (!rows.length) io.out('no registry imports');
      else rows.forEach((b) => io.out(line(b)));
      return 0;
    }
    default:
      io.err(`error: unknown command "registries ${action}"\n${REGISTRIES_USAGE}`);
      return 64;
  }
}
