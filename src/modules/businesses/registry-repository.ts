// All SQL on the registry tables (registry_import_batches, registry_entities, registry_name_tokens,
// registry_persons, registry_relationships, registry_exceptions). Registry data is shared by every tenant.

import type { Queryable } from '../../platform/db.js';
import { analyzeChangedTables } from '../../platform/analyze.js';
import { pairToken } from './name-tokens.js';
import type {
  EntityRecord,
  ExceptionRecord,
  PersonRecord,
  RelationshipRecord,
  RegistrySourceName,
} from '../../providers/registries/index.js';

export interface BatchRow {
  id: string;
  source: string;
  format: string;
  file_name: string;
  file_sha256: string;
  publish_date: string | null;
  state: 'completed' | 'failed';
  counts: Record<string, unknown>;
  error: string | null;
  started_at: Date;
  finished_at: Date | null;
}

export interface StoredRecord<T> {
  source: RegistrySourceName;
  ref: string;
  batch_id: string;
  data: T;
  /** Relationships and reporting exceptions: the batch that withdrew it (it no longer counts), else null. */
  ended_batch_id?: string | null;
}

const batchCols = 'id, source, format, file_name, file_sha256, publish_date, state, counts, error, started_at, finished_at';

export const registryBatches = {
  async completedFor(db: Queryable, source: string, format: string, sha: string): Promise<BatchRow | undefined> {
    const rows = await db.query<BatchRow>(
      `SELECT ${batchCols} FROM registry_import_batches WHERE source = $1 AND format = $2 AND file_sha256 = $3 AND state = 'completed'`,
      [source, format, sha],
    );
    return rows[0];
  },
  async insert(db: Queryable, b: Omit<BatchRow, 'started_at' | 'finished_at'> & { started_at: Date }): Promise<void> {
    await db.query(
      `INSERT INTO registry_import_batches (id, source, format, file_name, file_sha256, publish_date, state, counts, error, started_at, finished_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, now())`,
      [
        b.id,
        b.source,
        b.format,
        b.file_name,
        b.file_sha256,
        b.publish_date,
        b.state,
        JSON.stringify(b.counts),
        b.error,
        b.started_at.toISOString(),
      ],
    );
  },
  async finish(db: Queryable, id: string, publishDate: string | null, counts: Record<string, unknown>): Promise<void> {
    await db.query(`UPDATE registry_import_batches SET publish_date = $2, counts = $3::jsonb, finished_at = now() WHERE id = $1`, [
      id,
      publishDate,
      JSON.stringify(counts),
    ]);
  },
  async recent(db: Queryable, limit = 50): Promise<BatchRow[]> {
    return db.query<BatchRow>(`SELECT ${batchCols} FROM registry_import_batches ORDER BY id DESC LIMIT $1`, [limit]);
  },
  async byIds(db: Queryable, ids: string[]): Promise<BatchRow[]> {
    if (!ids.length) return [];
    return db.query<BatchRow>(`SELECT ${batchCols} FROM registry_import_batches WHERE id = ANY($1::text[])`, [ids]);
  },
};

/** Upserts that only touch a row whose content changed, returning the refs that changed. */
async function upsert(
  tx: Queryable,
  table: string,
  extraCols: string[],
  rows: Record<string, unknown>[],
  /** Tables with withdrawals: a row stated again applies again, even where its content is unchanged. */
  revives = false,
): Promise<{ ref: string; inserted: boolean }[]> {
  if (!rows.length) return [];
  const cols = ['source', 'ref', 'batch_id', ...extraCols, 'data'];
  const defs = cols.map((c) => `${c} ${c === 'data' ? 'jsonb' : 'text'}`).join(', ');
  const updates = cols
    .filter((c) => c !== 'source' && c !== 'ref')
    .map((c) => `${c} = excluded.${c}`)
    .concat(revives ? ['ended_batch_id = NULL', 'ended_on = NULL'] : [])
    .join(', ');
  const changed = `${table}.data IS DISTINCT FROM excluded.data${revives ? ` OR ${table}.ended_batch_id IS NOT NULL` : ''}`;
  return tx.query<{ ref: string; inserted: boolean }>(
    `INSERT INTO ${table} (${cols.join(', ')})
     SELECT ${cols.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS x(${defs})
     ON CONFLICT (source, ref) DO UPDATE SET ${updates} WHERE ${changed}
     RETURNING ref, (xmax = 0) AS inserted`,
    [JSON.stringify(rows)],
  );
}

export const registryRecords = {
  async upsertEntities(tx: Queryable, source: string, batchId: string, es: EntityRecord[], tokens: (e: EntityRecord) => string[]) {
    // The last record for a ref in one chunk wins (a file may state a record twice).
    const byRef = new Map(es.map((e) => [e.ref, e]));
    const rows = [...byRef.values()].map((e) => ({
      source,
      ref: e.ref,
      batch_id: batchId,
      name: e.name,
      lei: e.lei ?? null,
      registration_number: e.registrationNumber ?? null,
      country: e.country ?? e.jurisdiction ?? null,
      status: e.status ?? null,
      data: e,
    }));
    const result = await upsert(tx, 'registry_entities', ['name', 'lei', 'registration_number', 'country', 'status'], rows);
    const changed = result.map((r) => r.ref);
    // A new row has no tokens yet: only updated rows need their old words removed.
    const updated = result.filter((r) => !r.inserted).map((r) => r.ref);
    if (updated.length) await tx.query(`DELETE FROM registry_name_tokens WHERE source = $1 AND ref = ANY($2::text[])`, [source, updated]);
    if (changed.length) {
      const toks: { token: string; ref: string }[] = [];
      for (const ref of changed) for (const token of new Set(tokens(byRef.get(ref)!))) toks.push({ token, ref });
      if (toks.length)
        await tx.query(
          `INSERT INTO registry_name_tokens (token, source, ref) SELECT token, $2, ref FROM jsonb_to_recordset($1::jsonb) AS x(token text, ref text)`,
          [JSON.stringify(toks), source],
        );
    }
    return changed;
  },
  async upsertPersons(tx: Queryable, source: string, batchId: string, ps: PersonRecord[]) {
    const rows = [...new Map(ps.map((p) => [p.ref, p])).values()].map((p) => ({
      source,
      ref: p.ref,
      batch_id: batchId,
      name: p.name,
      data: p,
    }));
    return (await upsert(tx, 'registry_persons', ['name'], rows)).map((r) => r.ref);
  },
  /** Returns the subject refs whose ownership changed. */
  async upsertRelationships(tx: Queryable, source: string, batchId: string, rs: RelationshipRecord[]) {
    const byRef = new Map(rs.map((r) => [r.ref, r]));
    const rows = [...byRef.values()].map((r) => ({
      source,
      ref: r.ref,
      batch_id: batchId,
      subject_ref: r.subject,
      interested_ref: typeof r.interestedParty === 'string' ? r.interestedParty : null,
      data: r,
    }));
    const changed = await upsert(tx, 'registry_relationships', ['subject_ref', 'interested_ref'], rows, true);
    return changed.map(({ ref }) => byRef.get(ref)!.subject);
  },
  async upsertExceptions(tx: Queryable, source: string, batchId: string, xs: ExceptionRecord[]) {
    const byRef = new Map(xs.map((x) => [x.ref, x]));
    const rows = [...byRef.values()].map((x) => ({ source, ref: x.ref, batch_id: batchId, subject_ref: x.subject, data: x }));
    const changed = await upsert(tx, 'registry_exceptions', ['subject_ref'], rows, true);
    return changed.map(({ ref }) => byRef.get(ref)!.subject);
  },
  /** Withdrawals of a delta file: the rows stop applying from this batch on (kept as history). Returns the subjects. */
  async endRows(tx: Queryable, table: WithdrawableTable, source: string, batchId: string, ends: { ref: string; on: string | null }[]) {
    if (!ends.length) return [];
    const rows = await tx.query<{ subject_ref: string }>(
      `UPDATE ${table} t SET ended_batch_id = $2, ended_on = x.ended_on
       FROM jsonb_to_recordset($3::jsonb) AS x(ref text, ended_on text)
       WHERE t.source = $1 AND t.ref = x.ref AND t.ended_batch_id IS NULL
       RETURNING t.subject_ref`,
      [source, batchId, JSON.stringify(ends.map((e) => ({ ref: e.ref, ended_on: e.on })))],
    );
    return rows.map((r) => r.subject_ref);
  },
  /**
   * A full file: the refs it states are noted in a table of the transaction (dropped at its end), so what it no
   * longer carries is found without holding millions of refs in memory.
   */
  async noteStated(tx: Queryable, refs: string[]): Promise<void> {
    await tx.query(`CREATE TEMP TABLE IF NOT EXISTS registry_stated (ref text PRIMARY KEY) ON COMMIT DROP`);
    if (refs.length)
      await tx.query(`INSERT INTO registry_stated (ref) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`, [[...new Set(refs)]]);
  },
  /** After a full file: every live row of its kind it did not state ends with this batch. Returns the subjects. */
  async endUnstated(tx: Queryable, table: WithdrawableTable, source: string, batchId: string, on: string | null): Promise<string[]> {
    await this.noteStated(tx, []);
    const rows = await tx.query<{ subject_ref: string }>(
      `UPDATE ${table} t SET ended_batch_id = $2, ended_on = $3
       WHERE t.source = $1 AND t.ended_batch_id IS NULL AND NOT EXISTS (SELECT 1 FROM registry_stated s WHERE s.ref = t.ref)
       RETURNING t.subject_ref`,
      [source, batchId, on],
    );
    return rows.map((r) => r.subject_ref);
  },

  async entity(db: Queryable, source: string, ref: string): Promise<StoredRecord<EntityRecord> | undefined> {
    const rows = await db.query<StoredRecord<EntityRecord>>(
      `SELECT source, ref, batch_id, data FROM registry_entities WHERE source = $1 AND ref = $2`,
      [source, ref],
    );
    return rows[0];
  },
  async entities(db: Queryable, keys: { source: string; ref: string }[]): Promise<StoredRecord<EntityRecord>[]> {
    if (!keys.length) return [];
    return db.query<StoredRecord<EntityRecord>>(
      `SELECT e.source, e.ref, e.batch_id, e.data FROM registry_entities e
       JOIN jsonb_to_recordset($1::jsonb) AS k(source text, ref text) ON k.source = e.source AND k.ref = e.ref`,
      [JSON.stringify(keys)],
    );
  },
  async persons(db: Queryable, source: string, refs: string[]): Promise<StoredRecord<PersonRecord>[]> {
    if (!refs.length) return [];
    return db.query<StoredRecord<PersonRecord>>(
      `SELECT source, ref, batch_id, data FROM registry_persons WHERE source = $1 AND ref = ANY($2::text[])`,
      [source, refs],
    );
  },
  async relationshipsOf(db: Queryable, source: string, subjects: string[]): Promise<StoredRecord<RelationshipRecord>[]> {
    if (!subjects.length) return [];
    return db.query<StoredRecord<RelationshipRecord>>(
      `SELECT source, ref, batch_id, data, ended_batch_id FROM registry_relationships WHERE source = $1 AND subject_ref = ANY($2::text[])`,
      [source, subjects],
    );
  },
  /** The subjects that any of these parties holds an interest in (walking an import's changes downwards). */
  async subjectsOwnedBy(db: Queryable, source: string, interested: string[]): Promise<string[]> {
    if (!interested.length) return [];
    const rows = await db.query<{ subject_ref: string }>(
      `SELECT DISTINCT subject_ref FROM registry_relationships WHERE source = $1 AND interested_ref = ANY($2::text[])`,
      [source, interested],
    );
    return rows.map((r) => r.subject_ref);
  },
  async relationshipsByRef(db: Queryable, source: string, refs: string[]): Promise<StoredRecord<RelationshipRecord>[]> {
    if (!refs.length) return [];
    return db.query<StoredRecord<RelationshipRecord>>(
      `SELECT source, ref, batch_id, data, ended_batch_id FROM registry_relationships WHERE source = $1 AND ref = ANY($2::text[])`,
      [source, refs],
    );
  },
  async exceptionsOf(db: Queryable, source: string, subjects: string[]): Promise<StoredRecord<ExceptionRecord>[]> {
    if (!subjects.length) return [];
    return db.query<StoredRecord<ExceptionRecord>>(
      `SELECT source, ref, batch_id, data, ended_batch_id FROM registry_exceptions WHERE source = $1 AND subject_ref = ANY($2::text[])`,
      [source, subjects],
    );
  },

  /** Entities by exact LEI or registration number (any source); see identifierQuery. */
  async byIdentifier(db: Queryable, lei: string | undefined, number: string | undefined, limit: number) {
    const q = identifierQuery(lei, number, limit);
    return q ? db.query<StoredRecord<EntityRecord>>(q.sql, q.params) : [];
  },
  /** Entities of other sources than `except` registered under any of these numbers (same-entity links). */
  async byRegistrationNumbers(db: Queryable, numbers: string[], except: string): Promise<StoredRecord<EntityRecord>[]> {
    if (!numbers.length) return [];
    return db.query<StoredRecord<EntityRecord>>(
      `WITH m AS MATERIALIZED (
         SELECT source, ref, batch_id, data FROM registry_entities WHERE registration_number = ANY($1::text[]) AND source <> $2
       ) SELECT * FROM m ORDER BY source, ref LIMIT 1000`,
      [numbers, except],
    );
  },
  /** Candidates sharing the most name words with the query (rarest words first is left to the scorer). */
  async byTokens(db: Queryable, tokens: string[], sources: string[] | null, limit: number) {
    if (!tokens.length) return [];
    const df = await db.query<{ token: string; df: number; share: number | null }>(tokenFrequencyQuery.sql, [tokens, sources, COMMON_WORD]);
    const q = tokenQuery(df, sources, limit);
    return q ? db.query<StoredRecord<EntityRecord> & { hits: number }>(q.sql, q.params) : [];
  },

  /**
   * VACUUM (ANALYZE) of the registry tables a batch changed past autovacuum's threshold (`changed`: table → rows the
   * batch wrote; platform/analyze.ts). A large import otherwise leaves the planner without statistics until
   * autovacuum comes round (never, where it is off), and the first searches are planned blind. Runs after the
   * batch commits (not inside its transaction: nothing to roll back). Returns the tables analysed.
   */
  async analyze(db: Queryable, changed: Partial<Record<RegistryTable, number>>): Promise<string[]> {
    // VACUUM as well: name searches read the word postings index-only (see analyzeChangedTables).
    return analyzeChangedTables(
      db,
      Object.fromEntries(Object.entries(changed).filter(([t]) => (registryTables as readonly string[]).includes(t))),
      { vacuum: true },
    );
  },
};

export const registryTables = [
  'registry_entities',
  'registry_name_tokens',
  'registry_persons',
  'registry_relationships',
  'registry_exceptions',
] as const;
export type RegistryTable = (typeof registryTables)[number];
export type WithdrawableTable = 'registry_relationships' | 'registry_exceptions';

/**
 * Exact LEI or registration number (or a record's own reference, e.g. a company number), each branch one
 * index lookup (an OR of parameters would scan). The matching rows are gathered in a MATERIALIZED CTE and
 * only then sorted: with `ORDER BY source, ref LIMIT n` straight on the table, a planner without statistics
 * (right after a large import) guesses thousands of matches and walks the primary key in order, filtering
 * every row (0.5 s per query at 1,000,000 rows). An identifier matches a handful of rows, so the sort is free.
 */
export function identifierQuery(
  lei: string | undefined,
  number: string | undefined,
  limit: number,
): { sql: string; params: unknown[] } | undefined {
  const parts: string[] = [];
  const params: unknown[] = [];
  const cols = 'source, ref, batch_id, data';
  if (lei) (params.push(lei), parts.push(`SELECT ${cols} FROM registry_entities WHERE lei = $${params.length}`));
  if (number) {
    params.push(number);
    parts.push(`SELECT ${cols} FROM registry_entities WHERE registration_number = $${params.length}`);
    parts.push(`SELECT ${cols} FROM registry_entities WHERE ref = $${params.length}`);
  }
  if (!parts.length) return undefined;
  params.push(limit);
  return {
    sql: `WITH m AS MATERIALIZED (${parts.join(' UNION ')}) SELECT * FROM m ORDER BY source, ref LIMIT $${params.length}`,
    params,
  };
}

/**
 * A word with more postings than this is "common": its postings are never read whole for a name search, only
 * probed for the candidates the rarer words found (at 1,000,000 GLEIF-shaped records, 4 % of the distinct
 * words are common and hold a third of all postings; reading and grouping them made a query with one common
 * word cost 10× one without).
 */
export const COMMON_WORD = 1000;

/** The common words of a query whose pairs are read (4 words: 6 pairs). */
const PAIRED_COMMON_WORDS = 4;

/**
 * How many postings each query word has, counted up to COMMON_WORD + 1 (an index-only scan each, capped), and
 * for the words among the planner's most common values their estimated share of all postings: the capped
 * counts cannot tell common words apart, and a pair of them is intersected by reading the less common one.
 */
export const tokenFrequencyQuery = {
  sql: `WITH s AS (SELECT most_common_vals::text::text[] AS v, most_common_freqs AS f FROM pg_stats
          WHERE schemaname = current_schema() AND tablename = 'registry_name_tokens' AND attname = 'token')
        SELECT q.token, (SELECT count(*)::int FROM (SELECT 1 FROM registry_name_tokens t
          WHERE t.token = q.token AND ($2::text[] IS NULL OR t.source = ANY($2::text[])) LIMIT $3 + 1) x) AS df,
          (SELECT s.f[array_position(s.v, q.token)] FROM s) AS share
        FROM unnest($1::text[]) AS q(token)`,
};

/**
 * Name candidates: the records sharing most of the query's words, found without reading a common word's
 * postings whole (see COMMON_WORD). The candidates are
 * - the records holding any of the query's words that are not common (at most COMMON_WORD postings each);
 * - where two or more words are common, the records holding two of them: for each pair of the
 *   PAIRED_COMMON_WORDS least common ones, the first postings of the pair's own token ("a b", indexed at import
 *   beside the words: name-tokens.ts), so no two long lists are intersected;
 * - the first postings of the least common of the common words, as a full read would have given them, as far
 *   as the branches above left the list short of `limit`;
 * and each candidate's common words are then counted by an index probe, so `hits` is the number of the
 * query's words the record holds. A word with no posting (a misspelling) takes no part. The records sharing
 * most words are kept, and among those the ones sharing more rare words (a rare word says more of a name); they
 * are materialised before the join, so the join is always the few candidates looked up by primary key, whatever
 * the planner guesses. The screening engine's name comparison then scores every candidate and decides the order.
 */
export function tokenQuery(
  frequencies: { token: string; df: number; share?: number | null }[],
  sources: string[] | null,
  limit: number,
): { sql: string; params: unknown[] } | undefined {
  // Least common first: by the capped count, then by the planner's share (a word outside its most common
  // values is less common than those inside).
  const present = frequencies
    .filter((f) => f.df > 0)
    .sort((a, b) => a.df - b.df || (a.share ?? 0) - (b.share ?? 0) || a.token.localeCompare(b.token));
  if (!present.length) return undefined;
  const rare = present.filter((f) => f.df <= COMMON_WORD).map((f) => f.token);
  const common = present.filter((f) => f.df > COMMON_WORD).map((f) => f.token);
  const paired = common.slice(0, PAIRED_COMMON_WORDS);
  const pairs = paired.flatMap((a, i) => paired.slice(i + 1).map((b) => pairToken(a, b)));
  const src = `($2::text[] IS NULL OR t.source = ANY($2::text[]))`;
  const first = (token: string) => `(SELECT t.source, t.ref, 0 FROM registry_name_tokens t WHERE t.token = ${token} AND ${src}
       ORDER BY t.source, t.ref LIMIT $3)`;
  const parts = [
    `SELECT t.source, t.ref, count(*)::int AS hits FROM registry_name_tokens t
       WHERE t.token = ANY($1::text[]) AND ${src} GROUP BY t.source, t.ref`,
    ...pairs.map((_, i) => first(`($5::text[])[${i + 1}]`)),
  ];
  // The least common common word's first postings fill the list only as far as the other branches left it
  // short (each candidate costs a probe below; records holding one common word rank below those holding two).
  const fill = common.length
    ? ` UNION ALL (SELECT t.source, t.ref, 0 FROM registry_name_tokens t WHERE t.token = ($4::text[])[1] AND ${src}
         ORDER BY t.source, t.ref LIMIT greatest(0, $3 - (SELECT count(*) FROM p0)))`
    : '';
  return {
    sql: `WITH p0 AS MATERIALIZED (
         SELECT source, ref, max(hits) AS hits FROM (${parts.join(' UNION ALL ')}) x GROUP BY source, ref
       ), p AS MATERIALIZED (
         SELECT source, ref, max(hits) AS hits FROM (SELECT source, ref, hits FROM p0${fill}) x GROUP BY source, ref
       ), c AS MATERIALIZED (
         SELECT p.source, p.ref, p.hits + (SELECT count(*)::int FROM registry_name_tokens t
           WHERE t.source = p.source AND t.ref = p.ref AND t.token = ANY($4::text[])) AS hits,
           p.hits AS rare
         FROM p ORDER BY 3 DESC, 4 DESC, p.source, p.ref LIMIT $3
       )
       SELECT e.source, e.ref, e.batch_id, e.data, c.hits FROM c JOIN registry_entities e ON e.source = c.source AND e.ref = c.ref
       ORDER BY c.hits DESC, c.rare DESC, e.source, e.ref`,
    // $5 only where pairs are read: a parameter no statement mentions has no type to bind.
    params: pairs.length ? [rare, sources, limit, common, pairs] : [rare, sources, limit, common],
  };
}
