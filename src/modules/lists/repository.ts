import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { paginate } from '../../platform/pagination.js';
import { iso } from '../../platform/schemas.js';
import type { ListEntry } from './schemas.js';

export interface ListEntryRow {
  id: string;
  list: string;
  kind: string;
  value: string;
  normalized_value: string;
  subject_reference: string | null;
  reason: string;
  created_by: string;
  expires_at: Date | null;
  created_at: Date;
}

export function toListEntry(r: ListEntryRow): ListEntry {
  return {
    id: r.id,
    object: 'list_entry',
    list: r.list,
    kind: r.kind,
    value: r.value,
    normalized_value: r.normalized_value,
    subject_reference: r.subject_reference,
    reason: r.reason,
    created_by: r.created_by,
    expires_at: iso(r.expires_at),
    created_at: iso(r.created_at)!,
  };
}

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

export const listEntries = {
  async insert(tx: Queryable, t: Tenant, row: Omit<ListEntryRow, 'created_at'>): Promise<ListEntryRow> {
    const rows = await tx.query<ListEntryRow>(
      `INSERT INTO list_entries (id, account_id, environment, list, kind, value, normalized_value, subject_reference, reason, created_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
      [row.id, t.accountId, t.environment, row.list, row.kind, row.value, row.normalized_value, row.subject_reference, row.reason, row.created_by, row.expires_at],
    );
    return rows[0]!;
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
    return paginate<ListEntryRow & Record<string, unknown>>(db, t, { from: 'list_entries', where, params, limit: q.limit, cursor: q.cursor, name: `lists:${list}` });
  },

  /** Active entries matching any of the given values, for the engines that consult lists. */
  async findActive(db: Queryable, t: Tenant, list: string, kind: string, normalizedValues: string[]): Promise<ListEntryRow[]> {
    if (normalizedValues.length === 0) return [];
    return db.query<ListEntryRow>(
      `SELECT * FROM list_entries WHERE account_id = $1 AND environment = $2 AND list = $3 AND kind = $4
         AND normalized_value = ANY($5::text[]) AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [t.accountId, t.environment, list, kind, normalizedValues],
    );
  },
};
