import type { Db } from '../../../platform/db.js';
import type { Resources } from '../../../platform/resources.js';
import { listFormats } from '../../../providers/lists/formats.js';
import { importListFile, syncLists } from './list-sync.js';
import type { ScreeningSettings } from './settings.js';
import { snapshots, type SnapshotRow } from './snapshot-repository.js';

interface Io {
  out(line: string): void;
  err(line: string): void;
}

export const LISTS_USAGE = `  lists import FILE --format FORMAT [--source NAME] [--json]
                                            import a list file (or OFAC CSV directory) offline as a new active snapshot
                                            formats: ${Object.keys(listFormats).join(', ')}
  lists list [--all] [--json]               active snapshots (--all: recent imports, syncs and failures)
  lists sync [--source NAME] [--json]       download the sources enabled in LIST_SYNC_SOURCES`;

function line(s: SnapshotRow): string {
  return `${s.id}  ${s.source.padEnd(14)} ${s.state.padEnd(10)} ${String(s.entity_count).padStart(6)} entities  ${s.version ?? '-'}  ${s.origin}  ${s.imported_at.toISOString()}${s.error ? `  ${s.error}` : ''}`;
}

/** `verity lists …`. Returns the exit code (0 ok, 1 failed, 64 usage). */
export async function runListsCommand(
  db: Db,
  action: string,
  o: { positionals: string[]; format?: string; source?: string; all?: boolean; json: boolean; settings: ScreeningSettings },
  io: Io,
  /** The server's resources over the admin socket: its screening index sees an import at once. */
  resources?: Resources,
): Promise<number> {
  const emit = (obj: unknown, text: string) => io.out(o.json ? JSON.stringify(obj) : text);
  switch (action) {
    case 'import': {
      const path = o.positionals[0];
      if (!path || !o.format) {
        io.err(`error: lists import needs FILE and --format (${Object.keys(listFormats).join(', ')})`);
        return 64;
      }
      if (!listFormats[o.format]) {
        io.err(`error: unknown list format "${o.format}"; known: ${Object.keys(listFormats).join(', ')}`);
        return 64;
      }
      const r = await importListFile(db, { path, format: o.format, source: o.source }, resources);
      if (!r.ok) {
        io.err(`error: ${r.error}; the active snapshot is unchanged`);
        return 1;
      }
      const s = r.snapshot;
      emit(
        {
          id: s.id,
          source: s.source,
          version: s.version,
          entities: s.entity_count,
          unchanged: r.unchanged,
          previous: r.previous?.id ?? null,
          duplicates_dropped: r.duplicatesDropped,
          parse_ms: r.parseMs,
        },
        r.unchanged
          ? `${s.source}: content equals the active snapshot ${s.id} (version ${s.version}); nothing changed`
          : `imported ${s.source} snapshot ${s.id}: ${s.entity_count} entities, version ${s.version}${r.previous ? ` (replaces ${r.previous.id}, ${r.previous.entity_count} entities)` : ''}; re-screening of monitored subjects queued`,
      );
      return 0;
    }
    case 'list': {
      const rows = o.all ? await snapshots.recent(db) : await snapshots.active(db);
      if (o.json) io.out(JSON.stringify(rows));
      else if (rows.length === 0) io.out('no list snapshots');
      else for (const s of rows) io.out(line(s));
      return 0;
    }
    case 'sync': {
      let results;
      try {
        results = await syncLists(db, { only: o.source, settings: o.settings }, resources);
      } catch (e) {
        io.err(`error: ${(e as Error).message}`);
        return 64;
      }
      if (o.json) io.out(JSON.stringify(results));
      else
        for (const r of results)
          io.out(
            r.ok
              ? `${r.source}: ${r.unchanged ? 'up to date' : 'activated'} ${r.snapshotId} (${r.entities} entities, version ${r.version})`
              : `${r.source}: FAILED (${r.transient ? 'transient' : 'bad data'}): ${r.reason}; the active snapshot is unchanged`,
          );
      return results.every((r) => r.ok) ? 0 : 1;
    }
    default:
      io.err(`error: unknown command "lists ${action}"\n${LISTS_USAGE}`);
      return 64;
  }
}
