import type { Queryable } from '../../platform/db.js';
import type { Sealer } from '../../platform/crypto.js';
import type { RequestContext } from '../../platform/context.js';
import { paginate } from '../../platform/pagination.js';
import { iso } from '../../platform/schemas.js';
import type { ScreeningHit, QueryFields } from '../checks/index.js';
import type { MonitoredSubject, MonitoringAlert } from './schemas.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

/** What is stored of the query: exactly the API's query fields (name, date of birth, …). */
export type StoredQuery = Pick<
  QueryFields,
  'name' | 'aliases' | 'date_of_birth' | 'country' | 'countries' | 'entity_type' | 'gender' | 'identifiers'
>;

export interface SubjectRow {
  id: string;
  account_id: string;
  environment: 'sandbox' | 'production';
  subject_reference: string;
  /** The query sealed with MASTER_KEY (a JSON string in the jsonb column): names, dates of birth and document numbers are personal data. */
  query: unknown;
  datasets: string[] | null;
  sources: string[] | null;
  threshold: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface AlertRow {
  id: string;
  monitored_subject_id: string;
  subject_reference: string;
  entity_id: string;
  source: string;
  snapshot_id: string;
  reason: 'added' | 'changed';
  score: number;
  hit: ScreeningHit;
  /** What raised the alert (migration 0021); every monitoring alert is 'screening' today. */
  kind: string;
  state: 'open' | 'closed';
  closed_reason: string | null;
  created_at: Date;
  closed_at: Date | null;
}

const QUERY_PURPOSE = 'monitored-subject';

export function sealQuery(sealer: Sealer, q: StoredQuery): string {
  return sealer.seal(QUERY_PURPOSE, JSON.stringify(q));
}

/** The subject's query in clear. */
export function openQuery(sealer: Sealer, raw: unknown): StoredQuery {
  if (typeof raw === 'string') return JSON.parse(sealer.open(QUERY_PURPOSE, raw)) as StoredQuery;
  return raw as StoredQuery;
}

export function toMonitoredSubject(r: SubjectRow, sealer: Sealer): MonitoredSubject {
  const q = openQuery(sealer, r.query);
  return {
    id: r.id,
    object: 'monitored_subject',
    subject_reference: r.subject_reference,
    name: q.name,
    aliases: q.aliases ?? [],
    date_of_birth: q.date_of_birth ?? null,
    countries: [...(q.country ? [q.country] : []), ...(q.countries ?? [])],
    entity_type: q.entity_type ?? null,
    gender: q.gender ?? null,
    identifiers: q.identifiers ?? [],
    datasets: r.datasets,
    sources: r.sources,
    threshold: r.threshold,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

export function toAlert(r: AlertRow): MonitoringAlert {
  return {
    id: r.id,
    object: 'monitoring_alert',
    monitored_subject_id: r.monitored_subject_id,
    subject_reference: r.subject_reference,
    entity_id: r.entity_id,
    source: r.source,
    snapshot_id: r.snapshot_id,
    reason: r.reason,
    score: r.score,
    state: r.state,
    closed_reason: r.closed_reason,
    hit: r.hit,
    created_at: iso(r.created_at)!,
    closed_at: iso(r.closed_at),
  };
}

export const monitoredSubjects = {
  async byReference(db: Queryable, t: Tenant, ref: string): Promise<SubjectRow | null> {
    const rows = await db.query<SubjectRow>(
      'SELECT * FROM monitored_subjects WHERE account_id = $1 AND environment = $2 AND subject_reference = $3 AND deleted_at IS NULL FOR UPDATE',
      [t.accountId, t.environment, ref],
    );
    return rows[0] ?? null;
  },
  /** `query` is the sealed query (sealQuery). */
  async insert(
    tx: Queryable,
    t: Tenant,
    r: Pick<SubjectRow, 'id' | 'subject_reference' | 'datasets' | 'sources' | 'threshold'> & { query: string },
  ): Promise<SubjectRow> {
    const rows = await tx.query<SubjectRow>(
      `INSERT INTO monitored_subjects (id, account_id, environment, subject_reference, query, datasets, sources, threshold)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8) RETURNING *`,
      [r.id, t.accountId, t.environment, r.subject_reference, JSON.stringify(r.query), r.datasets, r.sources, r.threshold],
    );
    return rows[0]!;
  },
  async update(
    tx: Queryable,
    t: Tenant,
    id: string,
    r: Pick<SubjectRow, 'datasets' | 'sources' | 'threshold'> & { query: string },
  ): Promise<SubjectRow> {
    const rows = await tx.query<SubjectRow>(
      `UPDATE monitored_subjects SET query = $4::jsonb, datasets = $5, sources = $6, threshold = $7, updated_at = now()
       WHERE account_id = $1 AND environment = $2 AND id = $3 AND deleted_at IS NULL RETURNING *`,
      [t.accountId, t.environment, id, JSON.stringify(r.query), r.datasets, r.sources, r.threshold],
    );
    return rows[0]!;
  },
  async get(db: Queryable, t: Tenant, id: string): Promise<SubjectRow | null> {
    const rows = await db.query<SubjectRow>(
      'SELECT * FROM monitored_subjects WHERE account_id = $1 AND environment = $2 AND id = $3 AND deleted_at IS NULL',
      [t.accountId, t.environment, id],
    );
    return rows[0] ?? null;
  },
  async softDelete(tx: Queryable, t: Tenant, id: string): Promise<SubjectRow | null> {
    const rows = await tx.query<SubjectRow>(
      'UPDATE monitored_subjects SET deleted_at = now() WHERE account_id = $1 AND environment = $2 AND id = $3 AND deleted_at IS NULL RETURNING *',
      [t.accountId, t.environment, id],
    );
    return rows[0] ?? null;
  },
  async page(db: Queryable, t: Tenant, q: { limit?: number; cursor?: string; subject_reference?: string }) {
    const where = ['deleted_at IS NULL'];
    const params: unknown[] = [];
    if (q.subject_reference) {
      params.push(q.subject_reference);
      where.push(`subject_reference = $${params.length + 2}`);
    }
    return paginate<SubjectRow & Record<string, unknown>>(db, t, {
      from: 'monitored_subjects',
      where,
      params,
      limit: q.limit,
      cursor: q.cursor,
      name: 'monitoring:subjects',
    });
  },
  /** Tenants with enrolled subjects (the re-screen job walks them one by one). */
  async tenants(db: Queryable): Promise<Tenant[]> {
    const rows = await db.query<{ account_id: string; environment: 'sandbox' | 'production' }>(
      'SELECT DISTINCT account_id, environment FROM monitored_subjects WHERE deleted_at IS NULL ORDER BY account_id, environment',
    );
    return rows.map((r) => ({ accountId: r.account_id, environment: r.environment }));
  },
  /** One batch of a tenant's subjects in id order, after `afterId`. */
  async batch(db: Queryable, t: Tenant, afterId: string, limit: number): Promise<SubjectRow[]> {
    return db.query<SubjectRow>(
      'SELECT * FROM monitored_subjects WHERE account_id = $1 AND environment = $2 AND deleted_at IS NULL AND id > $3 ORDER BY id LIMIT $4',
      [t.accountId, t.environment, afterId, limit],
    );
  },
};

export const monitoringAlerts = {
  /** Inserts unless this subject was already alerted on this entity; returns the row only when new. */
  async insertOnce(
    tx: Queryable,
    t: Tenant,
    a: Omit<AlertRow, 'kind' | 'state' | 'closed_reason' | 'created_at' | 'closed_at'>,
  ): Promise<AlertRow | null> {
    const rows = await tx.query<AlertRow>(
      `INSERT INTO monitoring_alerts (id, account_id, environment, monitored_subject_id, subject_reference, entity_id, source, snapshot_id, reason, score, hit, kind)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, 'screening')
       ON CONFLICT (account_id, environment, monitored_subject_id, entity_id) DO NOTHING RETURNING *`,
      [
        a.id,
        t.accountId,
        t.environment,
        a.monitored_subject_id,
        a.subject_reference,
        a.entity_id,
        a.source,
        a.snapshot_id,
        a.reason,
        a.score,
        JSON.stringify(a.hit),
      ],
    );
    return rows[0] ?? null;
  },
  /** The subject reference of each of these alerts (a case's subject, cases/subject-sources.ts). */
  async subjectReferences(db: Queryable, t: Tenant, ids: readonly string[]): Promise<Map<string, string>> {
    const rows = await db.query<{ id: string; subject_reference: string | null }>(
      'SELECT id, subject_reference FROM monitoring_alerts WHERE account_id = $1 AND environment = $2 AND id = ANY($3::text[])',
      [t.accountId, t.environment, ids],
    );
    return new Map(rows.filter((r) => r.subject_reference !== null).map((r) => [r.id, r.subject_reference!]));
  },
  /** Closing the alert's case closes the alert, if it is still open. */
  async closeForCase(tx: Queryable, t: Tenant, id: string): Promise<void> {
    await tx.query(
      "UPDATE monitoring_alerts SET state = 'closed', closed_reason = 'case_closed', closed_at = now() WHERE account_id = $1 AND environment = $2 AND id = $3 AND state = 'open'",
      [t.accountId, t.environment, id],
    );
  },
  async get(db: Queryable, t: Tenant, id: string): Promise<AlertRow | null> {
    const rows = await db.query<AlertRow>('SELECT * FROM monitoring_alerts WHERE account_id = $1 AND environment = $2 AND id = $3', [
      t.accountId,
      t.environment,
      id,
    ]);
    return rows[0] ?? null;
  },
  /** Entities that left their list: their open alerts close (every tenant; ids are source-prefixed). */
  async closeRemoved(db: Queryable, entityIds: string[]): Promise<{ id: string; account_id: string; environment: string }[]> {
    if (entityIds.length === 0) return [];
    return db.query<{ id: string; account_id: string; environment: string }>(
      "UPDATE monitoring_alerts SET state = 'closed', closed_reason = 'entity_removed', closed_at = now() WHERE entity_id = ANY($1::text[]) AND state = 'open' RETURNING id, account_id, environment",
      [entityIds],
    );
  },
  async page(
    db: Queryable,
    t: Tenant,
    q: { limit?: number; cursor?: string; state?: string; subject_reference?: string; monitored_subject_id?: string },
  ) {
    const where: string[] = [];
    const params: unknown[] = [];
    for (const [col, val] of [
      ['state', q.state],
      ['subject_reference', q.subject_reference],
      ['monitored_subject_id', q.monitored_subject_id],
    ] as const) {
      if (val) {
        params.push(val);
        where.push(`${col} = $${params.length + 2}`);
      }
    }
    return paginate<AlertRow & Record<string, unknown>>(db, t, {
      from: 'monitoring_alerts',
      where,
      params,
      limit: q.limit,
      cursor: q.cursor,
      name: 'monitoring:alerts',
    });
  },
};
