import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Db, Queryable } from '../../../platform/db.js';
import type { ListEntity } from '../../../engines/screening/types.js';

export interface SnapshotRow {
  id: string;
  source: string;
  format: string | null;
  version: string | null;
  entity_count: number;
  state: 'staging' | 'active' | 'superseded' | 'failed';
  origin: 'import' | 'sync' | 'builtin';
  error: string | null;
  imported_at: Date;
  superseded_at: Date | null;
}

/**
 * Rows per INSERT when writing entities. On the embedded database every statement runs on the
 * event loop, so this bounds how long one batch holds it (≈20–60 ms for 500 official-list entities).
 */
const ENTITY_BATCH = 500;

/** List snapshots are global operator data: no tenant columns, never reachable through the tenant API. */
export const snapshots = {
  async active(db: Queryable): Promise<SnapshotRow[]> {
    return db.query<SnapshotRow>("SELECT * FROM list_snapshots WHERE state = 'active' ORDER BY source");
  },

  async activeFor(db: Queryable, source: string): Promise<SnapshotRow | null> {
    const rows = await db.query<SnapshotRow>("SELECT * FROM list_snapshots WHERE state = 'active' AND source = $1", [source]);
    return rows[0] ?? null;
  },

  /** A snapshot's entities that carry a crypto identifier (wallet screening's address index; the rest cannot name a wallet). */
  async cryptoEntities(db: Queryable, snapshotId: string): Promise<ListEntity[]> {
    const rows = await db.query<{ entity: ListEntity | string }>(
      `SELECT entity FROM list_snapshot_entities WHERE snapshot_id = $1
         AND jsonb_path_exists(entity, '$.identifiers[*] ? (@.type starts with "crypto:")') ORDER BY entity_id`,
      [snapshotId],
    );
    return rows.map((r) => (typeof r.entity === 'string' ? (JSON.parse(r.entity) as ListEntity) : r.entity));
  },

  async get(db: Queryable, id: string): Promise<SnapshotRow | null> {
    const rows = await db.query<SnapshotRow>('SELECT * FROM list_snapshots WHERE id = $1', [id]);
    return rows[0] ?? null;
  },

  async recent(db: Queryable, limit = 50): Promise<SnapshotRow[]> {
    return db.query<SnapshotRow>('SELECT * FROM list_snapshots ORDER BY imported_at DESC, id DESC LIMIT $1', [limit]);
  },

  /**
   * One page of finished snapshots (staging ones are imports in progress), newest first, after the
   * id `before` (keyset on the primary key: a page is an index scan that stops at the limit).
   */
  async page(
    db: Queryable,
    o: { source?: string; notSource?: string; state?: 'active' | 'superseded' | 'failed'; before?: string; limit: number },
  ): Promise<SnapshotRow[]> {
    const params: unknown[] = [];
    const where = ["state <> 'staging'"];
    if (o.source !== undefined) where.push(`source = $${params.push(o.source)}`);
    if (o.notSource !== undefined) where.push(`source <> $${params.push(o.notSource)}`);
    if (o.state !== undefined) where.push(`state = $${params.push(o.state)}`);
    if (o.before !== undefined) where.push(`id < $${params.push(o.before)}`);
    return db.query<SnapshotRow>(
      `SELECT * FROM list_snapshots WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${params.push(o.limit)}`,
      params,
    );
  },

  async anyFor(db: Queryable, source: string): Promise<boolean> {
    const rows = await db.query<{ ok: boolean }>('SELECT EXISTS (SELECT 1 FROM list_snapshots WHERE source = $1) AS ok', [source]);
    return rows[0]?.ok === true;
  },

  /** Ids of the active snapshots, in order: changes exactly when the active set changes. */
  async fingerprint(db: Queryable): Promise<string> {
    const rows = await db.query<{ f: string | null }>(
      "SELECT string_agg(id, ',' ORDER BY id) AS f FROM list_snapshots WHERE state = 'active'",
    );
    return rows[0]?.f ?? '';
  },

  async entities(db: Queryable, snapshotId: string): Promise<ListEntity[]> {
    const rows = await db.query<{ entity: ListEntity | string }>(
      'SELECT entity FROM list_snapshot_entities WHERE snapshot_id = $1 ORDER BY entity_id',
      [snapshotId],
    );
    return rows.map((r) => (typeof r.entity === 'string' ? (JSON.parse(r.entity) as ListEntity) : r.entity));
  },

  /**
   * One page of a snapshot's entities as the database's JSON text, after `after` in id order (the
   * screening worker's upload). A page must be an index range scan that stops at the limit. Without
   * statistics (the embedded database right after an import) the planner picks a bitmap scan and
   * sorts the whole rest of the snapshot for every page: 1 s per page at 100,000 entities.
   */
  async entityPage(db: Db, snapshotId: string, after: string, limit: number): Promise<{ entity_id: string; entity: string }[]> {
    return db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_bitmapscan = off');
      await tx.query('SET LOCAL enable_sort = off');
      // Text, not jsonb: the worker parses it, and the driver has nothing to convert.
      return tx.query<{ entity_id: string; entity: string }>(
        'SELECT entity_id, entity::text AS entity FROM list_snapshot_entities WHERE snapshot_id = $1 AND entity_id > $2 ORDER BY snapshot_id, entity_id LIMIT $3',
        [snapshotId, after, limit],
      );
    });
  },

  /** Serialises activations of one source across processes for the rest of the transaction. */
  async lockSource(tx: Queryable, source: string): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(7312004, hashtext($1))', [source]);
  },

  async insert(tx: Queryable, row: Omit<SnapshotRow, 'imported_at' | 'superseded_at'>): Promise<SnapshotRow> {
    const rows = await tx.query<SnapshotRow>(
      `INSERT INTO list_snapshots (id, source, format, version, entity_count, state, origin, error) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [row.id, row.source, row.format, row.version, row.entity_count, row.state, row.origin, row.error],
    );
    return rows[0]!;
  },

  /**
   * Writes entities given as JSON texts (see PreparedSnapshot), one short statement per batch. The
   * embedded database's statements can resolve without returning to the event loop, so each batch
   * waits for one turn of it: timers and other requests run between batches.
   */
  async insertEntities(db: Queryable, snapshotId: string, ids: readonly string[], texts: readonly string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += ENTITY_BATCH) {
      if (i > 0) await yieldToLoop();
      await db.query(
        `INSERT INTO list_snapshot_entities (snapshot_id, entity_id, entity)
         SELECT $1, u.id, u.entity::jsonb FROM unnest($2::text[], $3::text[]) AS u(id, entity)`,
        [snapshotId, ids.slice(i, i + ENTITY_BATCH), texts.slice(i, i + ENTITY_BATCH)],
      );
    }
  },

  /** Staging → active (the caller superseded the previous one in the same transaction). */
  async activate(tx: Queryable, id: string): Promise<SnapshotRow | null> {
    const rows = await tx.query<SnapshotRow>(
      "UPDATE list_snapshots SET state = 'active', imported_at = now() WHERE id = $1 AND state = 'staging' RETURNING *",
      [id],
    );
    return rows[0] ?? null;
  },

  /** Deletes staging snapshots (and their entities): one, or a source's leftovers older than `olderThanMs`. */
  async deleteStaging(db: Queryable, o: { id: string } | { source: string; olderThanMs: number }): Promise<number> {
    const rows =
      'id' in o
        ? await db.query<{ id: string }>("DELETE FROM list_snapshots WHERE id = $1 AND state = 'staging' RETURNING id", [o.id])
        : await db.query<{ id: string }>(
            "DELETE FROM list_snapshots WHERE source = $1 AND state = 'staging' AND imported_at < now() - make_interval(secs => $2::double precision / 1000) RETURNING id",
            [o.source, o.olderThanMs],
          );
    return rows.length;
  },

  async supersede(tx: Queryable, id: string): Promise<void> {
    await tx.query("UPDATE list_snapshots SET state = 'superseded', superseded_at = now() WHERE id = $1 AND state = 'active'", [id]);
  },
};
