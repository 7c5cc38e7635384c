import type { Db, Queryable } from './db.js';

/** Autovacuum's default analyze threshold: a table is due once changed by more than 50 rows + 10 % of its size. */
export const ANALYZE_BASE_ROWS = 50;
export const ANALYZE_SCALE_FACTOR = 0.1;

/**
 * ANALYZE the tables changed past autovacuum's default analyze threshold (ANALYZE_BASE_ROWS +
 * ANALYZE_SCALE_FACTOR × the table's rows at its last ANALYZE) since their last ANALYZE, as autovacuum's
 * analyze would. The embedded database has no autovacuum daemon, so without this its planner statistics never
 * refresh: a table that grew from nothing is still planned as empty (face search then scanned every enrolled
 * face instead of using the HNSW index: 96 ms instead of 8 ms at 10,000 faces; a PostgreSQL server with
 * autovacuum off, seen on a real machine, planned 1M-row lookups after an import sequentially).
 * The one place Verity decides that planner statistics are stale:
 * - the maintenance job (`changed` omitted): every table of this deployment's schemas, only where nothing
 *   else analyses (the embedded database has no autovacuum; a PostgreSQL server may have it turned off);
 * - after a bulk load (`changed`: table → rows the load just wrote, counted on top of the statistics
 *   counter, which lags up to a second on PostgreSQL), also where autovacuum runs: it comes round within a
 *   minute, and until then the freshly filled tables are planned as if empty. Tables with 0 rows changed
 *   are not looked at. Run it after the load's commit (the sample must see the rows); ANALYZE takes no
 *   lock that blocks writers.
 * `vacuum` (bulk loads read back index-only, e.g. the registry's name words): VACUUM (ANALYZE) instead, as
 * autovacuum's insert threshold would; it sets the visibility map of the new pages, without which an
 * index-only scan fetches every row from the heap (a 1M-record name search read 16,601 heap blocks, 445 ms,
 * against 13 ms once vacuumed). Not inside a transaction.
 * Rows changed are the statistics counter's `n_mod_since_analyze` or, when larger, the growth the table's size
 * shows: its pages now against `relpages` at its last ANALYZE, at the density that ANALYZE saw (the estimate the
 * planner itself makes). The counter does not survive a restart of the embedded database (nor a crash of a
 * server), so a table that grew before the restart without being analysed would otherwise keep its old
 * statistics until another 50 rows + 10 % changed (the platform bench's page query, planned as empty: 175
 * GETs/s against 981). A table with pages but none at its last ANALYZE (or never analysed) is due. Deleted rows
 * free no pages, so only the counter sees them.
 * Returns the tables analysed, schema-qualified (`schema.table`), in name order.
 */
export async function analyzeChangedTables(db: Db): Promise<string[]>;
export async function analyzeChangedTables(
  db: Queryable,
  changed: Readonly<Record<string, number>>,
  opts?: { vacuum?: boolean },
): Promise<string[]>;
export async function analyzeChangedTables(
  db: Queryable | Db,
  changed?: Readonly<Record<string, number>>,
  opts: { vacuum?: boolean } = {},
): Promise<string[]> {
  const named = changed ? Object.entries(changed).filter(([, n]) => n > 0) : null;
  if (named && named.length === 0) return [];
  if (!named && (db as Db).kind !== 'pglite') {
    const [s] = await db.query<{ on: boolean }>(`SELECT current_setting('autovacuum') = 'on' AS on`);
    if (s?.on) return [];
  }
  const params: unknown[] = [];
  let which = '';
  if (named) {
    params.push(named.map(([t]) => t));
    which = ' AND s.relid IN (SELECT to_regclass(t) FROM unnest($1::text[]) t)';
  }
  const stats = await db.query<TableSize>(
    `SELECT format('%I.%I', s.schemaname, s.relname) AS name, s.relname AS rel,
            greatest(c.reltuples, 0)::float8 AS tuples, coalesce(s.n_mod_since_analyze, 0)::float8 AS modified,
            c.relpages::float8 AS "analysedPages",
            (pg_relation_size(c.oid) / current_setting('block_size')::int)::float8 AS pages
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
      WHERE s.schemaname = ANY (current_schemas(false))${which}
      ORDER BY s.relname, s.schemaname`,
    params,
  );
  const due = stats.filter((r) => rowsChanged(r) + (changed?.[r.rel] ?? 0) > ANALYZE_BASE_ROWS + ANALYZE_SCALE_FACTOR * Number(r.tuples));
  for (const r of due) await db.query(`${opts.vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE'} ${r.name}`);
  return due.map((r) => r.name);
}

interface TableSize {
  name: string;
  rel: string;
  /** Rows at the last ANALYZE (or VACUUM); 0 if never. */
  tuples: number;
  /** The statistics counter's rows changed since then. */
  modified: number;
  /** Pages at the last ANALYZE (or VACUUM). */
  analysedPages: number;
  /** Pages now. */
  pages: number;
}

/** The larger of the counter's changed rows and the growth the table's pages show; Infinity if it has pages but had none. */
function rowsChanged(r: TableSize): number {
  const modified = Number(r.modified);
  const pages = Number(r.pages);
  const analysedPages = Number(r.analysedPages);
  if (pages <= analysedPages) return modified;
  if (analysedPages <= 0) return Number.POSITIVE_INFINITY;
  const grown = ((pages - analysedPages) * Number(r.tuples)) / analysedPages;
  return Math.max(modified, grown);
}
