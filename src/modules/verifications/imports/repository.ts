import type { Queryable } from '../../../platform/db.js';
import type { Actor } from '../../../platform/context.js';
import type { Sealer } from '../../../platform/crypto.js';
import { RESULT_PURPOSE, sessionChecks, type CheckPayload } from '../../checks/index.js';
import type { SessionRow, Tenant } from '../repository.js';
import { IMPORTED_EVENT } from '../state-machine.js';
import type { ImportRecord, RecordResult } from './schemas.js';

export interface ImportRow {
  id: string;
  provider: string;
  created: number;
  duplicates: number;
  failed: number;
  records: RecordResult[];
  created_at: Date;
}

/** The journey an imported session reads: it ran none here. */
export const importJourneyKey = (provider: string) => `import:${provider}`;

export const verificationImports = {
  /** Sessions already imported for these external ids (external_id → session id). */
  async existing(db: Queryable, t: Tenant, provider: string, externalIds: string[]): Promise<Map<string, string>> {
    if (externalIds.length === 0) return new Map();
    const rows = await db.query<{ id: string; import_external_id: string }>(
      `SELECT id, import_external_id FROM sessions
       WHERE account_id = $1 AND environment = $2 AND origin = 'import' AND import_provider = $3 AND import_external_id = ANY($4::text[])`,
      [t.accountId, t.environment, provider, externalIds],
    );
    return new Map(rows.map((r) => [r.import_external_id, r.id]));
  },

  /**
   * Inserts the imported session in its final status, or nothing when this external id was imported
   * before (the unique index decides, so concurrent imports of one record make one session): then
   * returns null. The session token is a random hash nobody holds, expired from the start.
   */
  async insertSession(
    tx: Queryable,
    t: Tenant,
    s: { id: string; provider: string; record: ImportRecord; tokenHash: string },
  ): Promise<SessionRow | null> {
    const r = s.record;
    const decided = r.status === 'approved' || r.status === 'declined' || r.status === 'referred';
    const rows = await tx.query<SessionRow>(
      `INSERT INTO sessions (id, account_id, environment, journey_key, journey_version, definition, status, subject_type, subject_reference, subject_country,
         expires_at, token_hash, token_expires_at, decision, risk_score, risk_band, reason_codes, decided_by, decided_at, created_at, completed_at,
         origin, import_provider, import_external_id, import_journey)
       VALUES ($1, $2, $3, $4, 0, '{}'::jsonb, $5, $6, $7, $8, $9::timestamptz, $10, $11::timestamptz, $12, $13, $14, $15::text[], $16, $17::timestamptz, $11::timestamptz, $18::timestamptz,
         'import', $19, $20, $21)
       ON CONFLICT (account_id, environment, import_provider, import_external_id) WHERE origin = 'import' DO NOTHING
       RETURNING *`,
      [
        s.id,
        t.accountId,
        t.environment,
        importJourneyKey(s.provider),
        r.status,
        r.subject.type,
        r.subject.reference,
        r.subject.country ?? null,
        // No lifetime applies to an imported session; expires_at is when it ended at the previous provider.
        r.completed_at,
        s.tokenHash,
        r.created_at,
        decided ? r.status : null,
        r.risk?.score ?? null,
        r.risk?.band ?? null,
        r.reason_codes ?? [],
        decided ? `import:${s.provider}` : null,
        decided ? r.completed_at : null,
        // A referred session is not complete: it waits for a reviewer (here).
        r.status === 'referred' ? null : r.completed_at,
        s.provider,
        r.external_id,
        r.journey ?? null,
      ],
    );
    return rows[0] ?? null;
  },

  async insertTransition(
    tx: Queryable,
    t: Tenant & { actor: Actor; requestId?: string | null },
    sessionId: string,
    to: string,
    at: string,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO session_transitions (session_id, account_id, environment, from_status, to_status, event, actor_type, actor_id, request_id, at)
       VALUES ($1, $2, $3, 'created', $4, $5, $6, $7, $8, $9::timestamptz)`,
      [sessionId, t.accountId, t.environment, to, IMPORTED_EVENT, t.actor.type, t.actor.id, t.requestId ?? null, at],
    );
  },

  /** A finished check of the imported session, its result sealed, with the record's timestamps. */
  async insertCheck(
    tx: Queryable,
    t: Tenant,
    sealer: Sealer,
    c: {
      sessionId: string;
      type: string;
      status: string;
      score: number | null;
      subjectReference: string;
      payload: CheckPayload;
      createdAt: string;
      completedAt: string;
    },
  ): Promise<{ id: string; type: string; status: string }> {
    const id = await sessionChecks.insertImported(tx, t, {
      sessionId: c.sessionId,
      type: c.type,
      status: c.status,
      score: c.score,
      subjectReference: c.subjectReference,
      resultSealed: sealer.seal(RESULT_PURPOSE, JSON.stringify(c.payload)),
      createdAt: c.createdAt,
      completedAt: c.completedAt,
    });
    return { id, type: c.type, status: c.status };
  },

  async insertSummary(
    tx: Queryable,
    t: Tenant & { actor: Actor; requestId?: string | null },
    row: Omit<ImportRow, 'created_at'>,
  ): Promise<ImportRow> {
    const rows = await tx.query<ImportRow>(
      `INSERT INTO verification_imports (id, account_id, environment, provider, created, duplicates, failed, records, actor_type, actor_id, request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11)
       RETURNING id, provider, created, duplicates, failed, records, created_at`,
      [
        row.id,
        t.accountId,
        t.environment,
        row.provider,
        row.created,
        row.duplicates,
        row.failed,
        JSON.stringify(row.records),
        t.actor.type,
        t.actor.id,
        t.requestId ?? null,
      ],
    );
    return rows[0]!;
  },

  async get(db: Queryable, t: Tenant, id: string): Promise<ImportRow | null> {
    const rows = await db.query<ImportRow>(
      'SELECT id, provider, created, duplicates, failed, records, created_at FROM verification_imports WHERE account_id = $1 AND environment = $2 AND id = $3',
      [t.accountId, t.environment, id],
    );
    return rows[0] ?? null;
  },
};
