import { writeWithNext, type Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { paginate } from '../../platform/pagination.js';
import { iso } from '../../platform/schemas.js';
import { textArrayLiteral } from '../../platform/sql-literals.js';
import type { ListEntry } from './schemas.js';
import type { Db } from '../../platform/db.js';
import type { Sealer } from '../../platform/crypto.js';
import { CLEAR_KINDS, listValueIndex, openValue, protectValue } from './protection.js';
import { normalizeListValue } from './normalize.js';

export interface ListEntryRow {
  id: string;
  list: string;
  kind: string;
  /** In clear only for clear kinds (screening_entity) and rows not yet sealed; else null (see value_sealed). */
  value: string | null;
  normalized_value: string | null;
  value_sealed: string | null;
  value_index: string | null;
  subject_reference: string | null;
  reason: string;
  created_by: string;
  expires_at: Date | null;
  created_at: Date;
}

export function toListEntry(r: ListEntryRow, sealer: Sealer): ListEntry {
  return presentListEntry(r, openValue(sealer, r));
}

/** A row as the API shows it, with its value already in clear (a row just written: nothing to open). */
export function presentListEntry(r: ListEntryRow, { value, normalized }: { value: string; normalized: string }): ListEntry {
  return {
    id: r.id,
    object: 'list_entry',
    list: r.list,
    kind: r.kind,
    value,
    normalized_value: normalized,
    subject_reference: r.subject_reference,
    reason: r.reason,
    created_by: r.created_by,
    expires_at: iso(r.expires_at),
    created_at: iso(r.created_at)!,
  };
}

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

export const listEntries = {
  /**
   * Inserts a row and returns it as stored. `created_at` is the request's clock, written with the row, so nothing
   * needs to be read back: where the transaction can hold a statement back (`sendWithNext`), the INSERT travels
   * with the transaction's next message (for an idempotent POST, the one that stores the response and commits),
   * and the whole write is one round trip. A failure of the INSERT (a constraint) still fails that message and
   * rolls everything back.
   */
  async insert(tx: Queryable, t: Tenant, row: Omit<ListEntryRow, 'created_at'>): Promise<ListEntryRow> {
    const createdAt = new Date();
    const sql = `INSERT INTO list_entries (id, account_id, environment, list, kind, value, normalized_value, value_sealed, value_index, subject_reference, reason, created_by, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`;
    const params = [
      row.id,
      t.accountId,
      t.environment,
      row.list,
      row.kind,
      row.value,
      row.normalized_value,
      row.value_sealed,
      row.value_index,
      row.subject_reference,
      row.reason,
      row.created_by,
      row.expires_at,
      createdAt,
    ];
    await writeWithNext(tx, sql, params);
    return { ...row, created_at: createdAt };
  },

  async get(db: Queryable, t: Tenant, list: string, id: string): Promise<ListEntryRow | null> {
    const rows = await db.query<ListEntryRow>(
      'SELECT * FROM list_entries WHERE account_id = $1 AND environment = $2 AND list = $3 AND id = $4 AND deleted_at IS NULL',
      [t.accountId, t.environment, list, id],
    );
    return rows[0] ?? null;
  },

  async softDelete(tx: Queryable, t: Tenant, list: string, id: string): Promise<ListEntryRow | null> {
    const rows = await tx.query<ListEntryRow>(
      'UPDATE list_entries SET deleted_at = now() WHERE account_id = $1 AND environment = $2 AND list = $3 AND id = $4 AND deleted_at IS NULL RETURNING *',
      [t.accountId, t.environment, list, id],
    );
    return rows[0] ?? null;
  },

  async page(db: Queryable, t: Tenant, list: string, q: { limit?: number; cursor?: string; kind?: string; subject_reference?: string }) {
    const where = ['list = $3', 'deleted_at IS NULL'];
    const params: unknown[] = [list];
    if (q.kind) {
      params.push(q.kind);
      where.push(`kind = $${params.length + 2}`);
    }
    if (q.subject_reference) {
      params.push(q.subject_reference);
      where.push(`subject_reference = $${params.length + 2}`);
    }
    return paginate<ListEntryRow & Record<string, unknown>>(db, t, {
      from: 'list_entries',
      where,
      params,
      limit: q.limit,
      cursor: q.cursor,
      name: `lists:${list}`,
    });
  },

  /**
   * Rows written before values were sealed, a batch at a time (SKIP LOCKED, so API processes starting
   * together share the work): sealed in place and their clear columns emptied.
   */
  async sealLegacyBatch(db: Db, sealer: Sealer, limit = 500): Promise<number> {
    return db.transaction(async (tx) => {
      const rows = await tx.query<ListEntryRow & { account_id: string; environment: string }>(
        `SELECT * FROM list_entries WHERE value_sealed IS NULL AND kind <> ALL($1::text[]) ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [CLEAR_KINDS, limit],
      );
      if (rows.length === 0) return 0;
      const sealed = rows.map((r) => ({
        id: r.id,
        ...protectValue(sealer, { accountId: r.account_id, environment: r.environment }, r.kind, r.value ?? '', r.normalized_value ?? ''),
      }));
      await tx.query(
        `UPDATE list_entries e SET value = NULL, normalized_value = NULL, value_sealed = u.sealed, value_index = u.idx
         FROM unnest($1::text[], $2::text[], $3::text[]) AS u(id, sealed, idx) WHERE e.id = u.id`,
        [sealed.map((s) => s.id), sealed.map((s) => s.value_sealed), sealed.map((s) => s.value_index)],
      );
      return rows.length;
    });
  },
};

/** A list entry as screening reads it (values possibly sealed). */
export interface ScreeningEntryRow {
  id: string;
  list: 'allowlist' | 'blocklist';
  kind: string;
  value: string | null;
  normalized_value: string | null;
  value_sealed: string | null;
  subject_reference: string | null;
  reason: string;
}

/**
 * The live entries that may apply to one screening (checks/screening's list rules): screening_entity
 * entries of the subject, and blocklist name / document_number entries matching by blind index or,
 * for rows not yet sealed, by clear normalised value. Raw rows: the caller opens the values.
 */
export async function screeningListEntries(
  db: Queryable,
  t: Tenant,
  q: { subjectReference: string | null; names: string[]; documents: string[]; nameIndexes: string[]; documentIndexes: string[] },
): Promise<ScreeningEntryRow[]> {
  return db.query<ScreeningEntryRow>(
    `SELECT id, list, kind, value, normalized_value, value_sealed, subject_reference, reason FROM list_entries
      WHERE account_id = $1 AND environment = $2 AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now())
        AND (
          (kind = 'screening_entity' AND subject_reference = $3)
          OR (list = 'blocklist' AND kind = 'name' AND (value_index = ANY($6::text[]) OR normalized_value = ANY($4::text[])) AND (subject_reference IS NULL OR subject_reference = $3))
          OR (list = 'blocklist' AND kind = 'document_number' AND (value_index = ANY($7::text[]) OR normalized_value = ANY($5::text[])) AND (subject_reference IS NULL OR subject_reference = $3))
        )
      ORDER BY id`,
    [
      t.accountId,
      t.environment,
      q.subjectReference,
      textArrayLiteral(q.names),
      textArrayLiteral(q.documents),
      textArrayLiteral(q.nameIndexes),
      textArrayLiteral(q.documentIndexes),
    ],
  );
}

/**
 * Live block list entries of `kind` whose blind index is one of `indexes`, for modules that screen one
 * value against the block list (wallet screening: kind wallet_address). One indexed query.
 */
export async function blocklistEntriesFor(
  db: Queryable,
  t: Pick<RequestContext, 'accountId' | 'environment'>,
  kind: string,
  indexes: readonly string[],
): Promise<Array<{ id: string; reason: string }>> {
  if (indexes.length === 0) return [];
  return db.query<{ id: string; reason: string }>(
    `SELECT id, reason FROM list_entries WHERE account_id = $1 AND environment = $2 AND list = 'blocklist' AND kind = $3
       AND value_index = ANY($4::text[]) AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now()) ORDER BY id`,
    [t.accountId, t.environment, kind, indexes],
  );
}

/** Allowlist screening_entity entries ("not this person") of these subjects, live: subject_reference and entity id. */
export async function allowlistedEntities(
  db: Queryable,
  t: Tenant,
  refs: string[],
): Promise<{ subject_reference: string; value: string }[]> {
  return db.query<{ subject_reference: string; value: string }>(
    `SELECT subject_reference, value FROM list_entries WHERE account_id = $1 AND environment = $2 AND list = 'allowlist' AND kind = 'screening_entity'
       AND subject_reference = ANY($3::text[]) AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
    [t.accountId, t.environment, refs],
  );
}

/**
 * Which of these values are on the allow or block list (live entries only), for the KYT rule context's
 * `lists`: each value is normalised and looked up by its blind index (or, for rows not yet sealed, by
 * clear value). Entries limited to a subject apply only to that subject. One indexed query.
 */
export async function listMembership(
  db: Queryable,
  t: Tenant,
  sealer: Sealer,
  values: { kind: string; value: string }[],
  subjectReference: string | null,
): Promise<{ list: 'allowlist' | 'blocklist'; kind: string; value: string }[]> {
  const probes = values
    .filter((v) => v.value.trim() !== '')
    .map((v) => {
      const normalized = normalizeListValue(v.kind, v.value);
      return { ...v, normalized, index: CLEAR_KINDS.includes(v.kind) ? null : listValueIndex(sealer, t, v.kind, normalized) };
    });
  if (probes.length === 0) return [];
  const rows = await db.query<{
    list: 'allowlist' | 'blocklist';
    kind: string;
    value_index: string | null;
    normalized_value: string | null;
  }>(
    `SELECT list, kind, value_index, normalized_value FROM list_entries
      WHERE account_id = $1 AND environment = $2 AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now())
        AND kind = ANY($3::text[]) AND (value_index = ANY($4::text[]) OR normalized_value = ANY($5::text[]))
        AND (subject_reference IS NULL OR subject_reference = $6)`,
    [
      t.accountId,
      t.environment,
      textArrayLiteral([...new Set(probes.map((p) => p.kind))]),
      textArrayLiteral(probes.flatMap((p) => (p.index ? [p.index] : []))),
      textArrayLiteral(probes.map((p) => p.normalized)),
      subjectReference,
    ],
  );
  const out: { list: 'allowlist' | 'blocklist'; kind: string; value: string }[] = [];
  for (const p of probes)
    for (const r of rows)
      if (r.kind === p.kind && ((p.index !== null && r.value_index === p.index) || r.normalized_value === p.normalized))
        out.push({ list: r.list, kind: p.kind, value: p.value });
  return out;
}
