import type { Db, Queryable } from './db.js';

/** Autovacuum's default analyze threshold: a table is due once changed by more than 50 rows + 10 % of its size. */
export const ANALYZE_BASE_ROWS = 50;
export const ANALYZE_SCALE_FACTOR = 0.1;

/** Autovacuum's default vacuum thresholds: dead rows past 50 + 20 %, or rows inserted past 1,000 + 20 %, of the table's rows. */
export const VACUUM_BASE_ROWS = 50;
export const VACUUM_SCALE_FACTOR = 0.2;
export const VACUUM_INSERT_BASE_ROWS = 1000;
export const VACUUM_INSERT_SCALE_FACTOR = 0.2;
/** autovacuum_freeze_max_age's default: a table whose oldest unfrozen transaction id is older is vacuumed whatever else. */
export const FREEZE_MAX_AGE = 200_000_000;

/**
 * The maintenance job's upkeep of planner statistics and table space, as autovacuum would with its defaults, only
 * where nothing else does it: the embedded database has no autovacuum daemon, and a PostgreSQL server may have it
 * turned off (with it on, this does nothing).
 * - ANALYZE a table changed past autovacuum's analyze threshold (ANALYZE_BASE_ROWS + ANALYZE_SCALE_FACTOR × its
 *   rows at its last ANALYZE). Without it the embedded database's statistics never refresh: a table that grew
 *   from nothing is still planned as empty (face search then scanned every enrolled face instead of using the HNSW
 *   index: 96 ms instead of 8 ms at 10,000 faces; a PostgreSQL server with autovacuum off, seen on a real machine,
 *   planned 1M-row lookups after an import sequentially).
 * - VACUUM a table past autovacuum's vacuum thresholds (dead rows, rows inserted) or whose oldest unfrozen
 *   transaction id is older than FREEZE_MAX_AGE. Without it the embedded database never reclaimed the space of
 *   updated and deleted rows (jobs, outbox, idempotency keys, sessions: every job run updates its row), never set
 *   the visibility map that index-only scans need, and never froze old rows: it would stop taking writes once its
 *   transaction ids wrapped around (about 2 billion writing transactions), as PostgreSQL does to protect its data.
 *   The embedded database runs one statement at a time, so a VACUUM holds other queries for its duration: small
 *   and often (this job runs every minute) rather than large and seldom.
 * Rows changed since the last ANALYZE are the statistics counter's `n_mod_since_analyze` or, when larger, the
 * growth the table's size shows: its pages now against `relpages` at its last ANALYZE or VACUUM, at the density seen
 * then (the estimate the planner itself makes). The counters do not survive a restart of the embedded database
 * (nor a crash of a server), so a table that grew before the restart without being analysed would otherwise keep
 * its old statistics until another 50 rows + 10 % changed (the platform bench's page query, planned as empty: 175
 * GETs/s against 981). A table with pages but none at its last ANALYZE (or never analysed) is due. Deleted rows
 * free no pages, so only the counter sees them; dead rows counted before a restart are found again once new ones
 * pass the threshold.
 * Returns the tables analysed and vacuumed, schema-qualified (`schema.table`), in name order.
 */
export async function maintainTables(db: Db): Promise<{ analysed: string[]; vacuumed: string[] }> {
  if (db.kind !== 'pglite') {
    const [s] = await db.query<{ on: boolean }>(`SELECT current_setting('autovacuum') = 'on' AS on`);
    if (s?.on) return { analysed: [], vacuumed: [] };
  }
  const analysed: string[] = [];
  const vacuumed: string[] = [];
  for (const r of await tableStats(db, null)) {
    const due = upkeepDue(r);
    if (due.vacuum) {
      await db.query(`${due.analyse ? 'VACUUM (ANALYZE)' : 'VACUUM'} ${r.name}`);
      vacuumed.push(r.name);
    } else if (due.analyse) await db.query(`ANALYZE ${r.name}`);
    if (due.analyse) analysed.push(r.name);
  }
  return { analysed, vacuumed };
}

/**
 * After a bulk load: ANALYZE the named tables (`changed`: table → rows the load just wrote, counted on top of the
 * statistics counter, which lags up to a second on PostgreSQL) changed past autovacuum's analyze threshold
 * (see maintainTables), also where autovacuum runs: it comes round within a minute, and until then the freshly
 * filled tables are planned as if empty. Tables with 0 rows changed are not looked at. Run it after the load's
 * commit (the sample must see the rows); ANALYZE takes no lock that blocks writers.
 * `vacuum` (bulk loads read back index-only, e.g. the registry's name words): VACUUM (ANALYZE) instead, as
 * autovacuum's insert threshold would; it sets the visibility map of the new pages, without which an
 * index-only scan fetches every row from the heap (a 1M-record name search read 16,601 heap blocks, 445 ms,
 * against 13 ms once vacuumed). Not inside a transaction.
 * Returns the tables analysed, schema-qualified (`schema.table`), in name order.
 */
export async function analyzeChangedTables(
  db: Queryable,
  changed: Readonly<Record<string, number>>,
  opts: { vacuum?: boolean } = {},
): Promise<string[]> {
  const named = Object.entries(changed).filter(([, n]) => n > 0);
  if (named.length === 0) return [];
  const stats = await tableStats(
    db,
    named.map(([t]) => t),
  );
  // The load's own count, not the pages' growth: the rows written before it are the maintenance job's.
  const due = stats.filter((r) => Number(r.modified) + (changed[r.rel] ?? 0) > ANALYZE_BASE_ROWS + ANALYZE_SCALE_FACTOR * Number(r.tuples));
  for (const r of due) await db.query(`${opts.vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE'} ${r.name}`);
  return due.map((r) => r.name);
}

/** Which upkeep a table is due for, by autovacuum's default thresholds (see maintainTables). */
export function upkeepDue(r: TableStats): { analyse: boolean; vacuum: boolean } {
  const tuples = Number(r.tuples);
  return {
    analyse: rowsChanged(r) > ANALYZE_BASE_ROWS + ANALYZE_SCALE_FACTOR * tuples,
    vacuum:
      Number(r.dead) > VACUUM_BASE_ROWS + VACUUM_SCALE_FACTOR * tuples ||
      Number(r.inserted) > VACUUM_INSERT_BASE_ROWS + VACUUM_INSERT_SCALE_FACTOR * tuples ||
      Number(r.xidAge) > FREEZE_MAX_AGE,
  };
}

/** The user tables of this deployment's schemas (only `named` ones when given), with their counters and sizes. */
async function tableStats(db: Queryable, named: string[] | null): Promise<TableStats[]> {
  return db.query<TableStats>(
    `SELECT format('%I.%I', s.schemaname, s.relname) AS name, s.relname AS rel,
            greatest(c.reltuples, 0)::float8 AS tuples, coalesce(s.n_mod_since_analyze, 0)::float8 AS modified,
            c.relpages::float8 AS "analysedPages",
            (pg_relation_size(c.oid) / current_setting('block_size')::int)::float8 AS pages,
            coalesce(s.n_dead_tup, 0)::float8 AS dead, coalesce(s.n_ins_since_vacuum, 0)::float8 AS inserted,
            age(c.relfrozenxid)::float8 AS "xidAge"
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
      WHERE s.schemaname = ANY (current_schemas(false))${named ? ' AND s.relid IN (SELECT to_regclass(t) FROM unnest($1::text[]) t)' : ''}
      ORDER BY s.relname, s.schemaname`,
    named ? [named] : [],
  );
}

export interface TableStats {
  name: string;
  rel: string;
  /** Rows at the last ANALYZE (or VACUUM); 0 if never. */
  tuples: number;
  /** The statistics counter's rows changed since then. */
  modified: number;
  /** Pages at the last ANALYZE or VACUUM. */
  analysedPages: number;
  /** Pages now. */
  pages: number;
  /** Dead rows (updated or deleted, not yet vacuumed), by the statistics counter. */
  dead: number;
  /** Rows inserted since the last VACUUM, by the statistics counter. */
  inserted: number;
  /** Age of the table's oldest unfrozen transaction id. */
  xidAge: number;
}

/** The larger of the counter's changed rows and the growth the table's pages show; Infinity if it has pages but had none. */
function rowsChanged(r: TableStats): number {
  const modified = Number(r.modified);
  const pages = Number(r.pages);
  const analysedPages = Number(r.analysedPages);
  if (pages <= analysedPages) return modified;
  if (analysedPages <= 0) return Number.POSITIVE_INFINITY;
  const grown = ((pages - analysedPages) * Number(r.tuples)) / analysedPages;
  return Math.max(modified, grown);
}
