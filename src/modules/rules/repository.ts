import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import type { RuleSet as EngineRuleSet } from '../../engines/rules/index.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

export interface VersionRow {
  version: number;
  document: EngineRuleSet;
  change_note: string | null;
  authors: string[];
  published_by: string;
  published_at: Date;
}
export interface DraftRow {
  base_version: number;
  revision: number;
  document: EngineRuleSet;
  authors: string[];
  updated_at: Date;
}
export interface SnoozeRow {
  id: string;
  rule_id: string;
  subject_reference: string;
  until: Date;
  reason: string;
  created_by: string;
  created_at: Date;
}

/** All SQL of rule sets, drafts and snoozes (tables of migration 0022). */
export const ruleRows = {
  async current(db: Queryable, t: Tenant): Promise<VersionRow | null> {
    const rows = await db.query<VersionRow>(
      'SELECT * FROM rule_set_versions WHERE account_id = $1 AND environment = $2 ORDER BY version DESC LIMIT 1',
      [t.accountId, t.environment],
    );
    return rows[0] ?? null;
  },
  /** Every tenant's current published rule set (any tenant: the transactions module derives its indexes from them). */
  async currentOfAll(db: Queryable): Promise<EngineRuleSet[]> {
    const rows = await db.query<{ document: EngineRuleSet }>(
      'SELECT DISTINCT ON (account_id, environment) document FROM rule_set_versions ORDER BY account_id, environment, version DESC',
    );
    return rows.map((r) => r.document);
  },
  async currentVersion(db: Queryable, t: Tenant): Promise<number | null> {
    const rows = await db.query<{ v: number | null }>(
      'SELECT max(version) AS v FROM rule_set_versions WHERE account_id = $1 AND environment = $2',
      [t.accountId, t.environment],
    );
    return rows[0]?.v ?? null;
  },
  async version(db: Queryable, t: Tenant, version: number): Promise<VersionRow | null> {
    const rows = await db.query<VersionRow>('SELECT * FROM rule_set_versions WHERE account_id = $1 AND environment = $2 AND version = $3', [
      t.accountId,
      t.environment,
      version,
    ]);
    return rows[0] ?? null;
  },
  async versions(db: Queryable, t: Tenant): Promise<Omit<VersionRow, 'document'>[]> {
    return db.query(
      'SELECT version, change_note, authors, published_by, published_at FROM rule_set_versions WHERE account_id = $1 AND environment = $2 ORDER BY version DESC',
      [t.accountId, t.environment],
    );
  },
  async insertVersion(tx: Queryable, t: Tenant, v: Omit<VersionRow, 'published_at'>): Promise<VersionRow> {
    const rows = await tx.query<VersionRow>(
      `INSERT INTO rule_set_versions (account_id, environment, version, document, change_note, authors, published_by)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6::text[], $7) RETURNING *`,
      [t.accountId, t.environment, v.version, JSON.stringify(v.document), v.change_note, v.authors, v.published_by],
    );
    return rows[0]!;
  },
  async draft(db: Queryable, t: Tenant, lock = false): Promise<DraftRow | null> {
    const rows = await db.query<DraftRow>(
      `SELECT * FROM rule_set_drafts WHERE account_id = $1 AND environment = $2${lock ? ' FOR UPDATE' : ''}`,
      [t.accountId, t.environment],
    );
    return rows[0] ?? null;
  },
  /** Writes the draft (insert or next revision); serialises concurrent editors on the row. */
  async saveDraft(tx: Queryable, t: Tenant, d: { base_version: number; document: EngineRuleSet; author: string }): Promise<DraftRow> {
    const rows = await tx.query<DraftRow>(
      `INSERT INTO rule_set_drafts (account_id, environment, base_version, revision, document, authors)
       VALUES ($1, $2, $3, 1, $4::jsonb, ARRAY[$5]::text[])
       ON CONFLICT (account_id, environment) DO UPDATE SET revision = rule_set_drafts.revision + 1, document = EXCLUDED.document,
         authors = CASE WHEN $5 = ANY(rule_set_drafts.authors) THEN rule_set_drafts.authors ELSE rule_set_drafts.authors || $5::text END,
         updated_at = now()
       RETURNING *`,
      [t.accountId, t.environment, d.base_version, JSON.stringify(d.document), d.author],
    );
    return rows[0]!;
  },
  async deleteDraft(tx: Queryable, t: Tenant): Promise<void> {
    await tx.query('DELETE FROM rule_set_drafts WHERE account_id = $1 AND environment = $2', [t.accountId, t.environment]);
  },
  /** Serialises draft edits and publication of one tenant (the draft row may not exist yet). */
  async lockTenant(tx: Queryable, t: Tenant): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 11))', [JSON.stringify(['rules', t.accountId, t.environment])]);
  },
  async insertSnooze(tx: Queryable, t: Tenant, s: SnoozeRow): Promise<SnoozeRow> {
    const rows = await tx.query<SnoozeRow>(
      `INSERT INTO rule_snoozes (id, account_id, environment, rule_id, subject_reference, until, reason, created_by)
       VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7, $8) RETURNING *`,
      [s.id, t.accountId, t.environment, s.rule_id, s.subject_reference, s.until.toISOString(), s.reason, s.created_by],
    );
    return rows[0]!;
  },
  /** Rule ids snoozed for this subject at this moment. */
  async snoozedFor(db: Queryable, t: Tenant, subjectReference: string, at: Date): Promise<Set<string>> {
    const rows = await db.query<{ rule_id: string }>(
      'SELECT DISTINCT rule_id FROM rule_snoozes WHERE account_id = $1 AND environment = $2 AND subject_reference = $3 AND until > $4::timestamptz AND created_at <= $4::timestamptz',
      [t.accountId, t.environment, subjectReference, at.toISOString()],
    );
    return new Set(rows.map((r) => r.rule_id));
  },
};
