// All SQL on businesses and business_documents; every query is scoped by the caller's account and environment.

import type { RequestContext } from '../../platform/context.js';
import type { Queryable } from '../../platform/db.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

export interface BusinessRow {
  id: string;
  account_id: string;
  environment: string;
  reference: string | null;
  source: string;
  source_ref: string;
  name: string;
  data: Record<string, unknown>;
  ownership_hash: string | null;
  screening: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

const cols = 'id, account_id, environment, reference, source, source_ref, name, data, ownership_hash, screening, created_at, updated_at';

export const businesses = {
  async get(db: Queryable, t: Tenant, id: string): Promise<BusinessRow | undefined> {
    const rows = await db.query<BusinessRow>(`SELECT ${cols} FROM businesses WHERE account_id = $1 AND environment = $2 AND id = $3`, [
      t.accountId,
      t.environment,
      id,
    ]);
    return rows[0];
  },
  /** The tenant's latest business record carrying this reference (the KYT rule context's subject.business). */
  async byReference(db: Queryable, t: Tenant, reference: string): Promise<BusinessRow | undefined> {
    const rows = await db.query<BusinessRow>(
      `SELECT ${cols} FROM businesses WHERE account_id = $1 AND environment = $2 AND reference = $3 ORDER BY created_at DESC, id DESC LIMIT 1`,
      [t.accountId, t.environment, reference],
    );
    return rows[0];
  },
  async bySourceRef(db: Queryable, t: Tenant, source: string, ref: string): Promise<BusinessRow | undefined> {
    const rows = await db.query<BusinessRow>(
      `SELECT ${cols} FROM businesses WHERE account_id = $1 AND environment = $2 AND source = $3 AND source_ref = $4`,
      [t.accountId, t.environment, source, ref],
    );
    return rows[0];
  },
  /** Inserts unless the tenant already has this registry record; returns the row either way. */
  async insert(
    tx: Queryable,
    t: Tenant,
    b: {
      id: string;
      reference: string | null;
      source: string;
      source_ref: string;
      name: string;
      data: unknown;
      ownership_hash: string | null;
      screening: unknown;
    },
  ): Promise<{ row: BusinessRow; created: boolean }> {
    const rows = await tx.query<BusinessRow>(
      `INSERT INTO businesses (id, account_id, environment, reference, source, source_ref, name, data, ownership_hash, screening)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10::jsonb)
       ON CONFLICT (account_id, environment, source, source_ref) WHERE source <> 'manual' DO NOTHING
       RETURNING ${cols}`,
      [
        b.id,
        t.accountId,
        t.environment,
        b.reference,
        b.source,
        b.source_ref,
        b.name,
        JSON.stringify(b.data),
        b.ownership_hash,
        b.screening === null ? null : JSON.stringify(b.screening),
      ],
    );
    if (rows[0]) return { row: rows[0], created: true };
    return { row: (await businesses.bySourceRef(tx, t, b.source, b.source_ref))!, created: false };
  },
  /** Businesses of every tenant built on these registry records (for ownership-change events). */
  async onRegistryRecords(db: Queryable, source: string, refs: string[]): Promise<BusinessRow[]> {
    if (!refs.length) return [];
    return db.query<BusinessRow>(`SELECT ${cols} FROM businesses WHERE source = $1 AND source_ref = ANY($2::text[]) ORDER BY id`, [
      source,
      refs,
    ]);
  },
  async setOwnershipHash(tx: Queryable, id: string, hash: string): Promise<void> {
    await tx.query(`UPDATE businesses SET ownership_hash = $2, updated_at = now() WHERE id = $1`, [id, hash]);
  },
};

/** What KYT's rule context reads of a business record. */
export type BusinessContextRow = Pick<BusinessRow, 'id' | 'source' | 'data' | 'screening' | 'created_at'>;

/**
 * Read-only door for other modules (KYT's rule context): the latest business record with this reference, only the
 * columns the context reads (every POST /v1/transactions sends this read; each column's description is parsed).
 */
export async function businessByReference(db: Queryable, t: Tenant, reference: string): Promise<BusinessContextRow | undefined> {
  const rows = await db.query<BusinessContextRow>(
    `SELECT id, source, data, screening, created_at FROM businesses WHERE account_id = $1 AND environment = $2 AND reference = $3
     ORDER BY created_at DESC, id DESC LIMIT 1`,
    [t.accountId, t.environment, reference],
  );
  return rows[0];
}

export const businessDocuments = {
  async insert(tx: Queryable, t: Tenant, businessId: string, doc: { id: string; status: string }): Promise<void> {
    await tx.query(
      `INSERT INTO business_documents (id, account_id, environment, business_id, status, result) VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
      [doc.id, t.accountId, t.environment, businessId, doc.status, JSON.stringify(doc)],
    );
  },
};

export interface PersonVerificationRow {
  node_id: string;
  session_id: string;
  created_at: Date;
}

/** Verification sessions of a business's persons (the sessions are the verifications module's). */
export const businessPersonVerifications = {
  async insert(tx: Queryable, t: Tenant, businessId: string, nodeId: string, sessionId: string): Promise<void> {
    await tx.query(
      `INSERT INTO business_person_verifications (account_id, environment, business_id, node_id, session_id) VALUES ($1, $2, $3, $4, $5)`,
      [t.accountId, t.environment, businessId, nodeId, sessionId],
    );
  },
  /** The latest session of each person of the business. */
  async latest(db: Queryable, t: Tenant, businessId: string): Promise<PersonVerificationRow[]> {
    return db.query<PersonVerificationRow>(
      `SELECT DISTINCT ON (node_id) node_id, session_id, created_at FROM business_person_verifications
        WHERE account_id = $1 AND environment = $2 AND business_id = $3 ORDER BY node_id, created_at DESC, session_id DESC`,
      [t.accountId, t.environment, businessId],
    );
  },
};

/** Per list source, the snapshot the businesses' screening was last re-run against. */
export const businessListState = {
  async all(db: Queryable): Promise<Map<string, string>> {
    const rows = await db.query<{ source: string; snapshot_id: string }>('SELECT source, snapshot_id FROM business_list_state');
    return new Map(rows.map((r) => [r.source, r.snapshot_id]));
  },
  async set(db: Queryable, source: string, snapshotId: string | null): Promise<void> {
    if (snapshotId === null) await db.query('DELETE FROM business_list_state WHERE source = $1', [source]);
    else
      await db.query(
        `INSERT INTO business_list_state (source, snapshot_id) VALUES ($1, $2)
         ON CONFLICT (source) DO UPDATE SET snapshot_id = excluded.snapshot_id, updated_at = now()`,
        [source, snapshotId],
      );
  },
};

/** Screened businesses of every tenant, a page at a time in id order (the re-screen after a list switch). */
export async function screenedBusinessesAfter(db: Queryable, afterId: string, limit: number): Promise<BusinessRow[]> {
  return db.query<BusinessRow>(`SELECT ${cols} FROM businesses WHERE screening IS NOT NULL AND id > $1 ORDER BY id LIMIT $2`, [
    afterId,
    limit,
  ]);
}

/** Stores a business's new screening (after a list update re-screened it). */
export async function setBusinessScreening(tx: Queryable, id: string, screening: unknown): Promise<void> {
  await tx.query(`UPDATE businesses SET screening = $2::jsonb, updated_at = now() WHERE id = $1`, [id, JSON.stringify(screening)]);
}
