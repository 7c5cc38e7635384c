import type { Queryable } from '../../../platform/db.js';
import type { RequestContext } from '../../../platform/context.js';
import { newId } from '../../../platform/ids.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

/**
 * The `checks` and `media` rows of a verification session, for the verifications module (pipeline,
 * decision, corrections, evidence, imports) and the capture API. The kernel owns both tables; the
 * session's modules call these instead of writing them. Results arrive sealed: the callers seal.
 */
export interface SessionCheckRow {
  id: string;
  session_id: string;
  type: string;
  status: string;
}

export interface SessionCheckDetailRow extends SessionCheckRow {
  score: number | null;
  result_sealed: string | null;
  created_at: Date;
  completed_at: Date | null;
  redacted_at: Date | null;
}

export const sessionChecks = {
  /** The session's checks by type (one per type). */
  async idsByType(db: Queryable, t: Tenant, sessionId: string): Promise<Map<string, string>> {
    const rows = await db.query<{ id: string; type: string }>(
      'SELECT id, type FROM checks WHERE account_id = $1 AND environment = $2 AND session_id = $3',
      [t.accountId, t.environment, sessionId],
    );
    return new Map(rows.map((r) => [r.type, r.id]));
  },

  /** The checks of several sessions, in id order (= the journey's order: ids are time-sortable, inserted in order). */
  async ofSessions(db: Queryable, sessionIds: string[]): Promise<Map<string, SessionCheckRow[]>> {
    const out = new Map<string, SessionCheckRow[]>();
    if (sessionIds.length === 0) return out;
    const rows = await db.query<SessionCheckRow>(
      'SELECT id, session_id, type, status FROM checks WHERE session_id = ANY($1::text[]) ORDER BY id',
      [sessionIds],
    );
    for (const r of rows) out.set(r.session_id, [...(out.get(r.session_id) ?? []), r]);
    return out;
  },

  /** Every check of the session with its sealed result (the evidence pack). */
  async details(db: Queryable, t: Tenant, sessionId: string): Promise<SessionCheckDetailRow[]> {
    return db.query<SessionCheckDetailRow>(
      'SELECT id, session_id, type, status, score, result_sealed, created_at, completed_at, redacted_at FROM checks WHERE account_id = $1 AND environment = $2 AND session_id = $3 ORDER BY id',
      [t.accountId, t.environment, sessionId],
    );
  },

  /** The session's check of `type` takes a finished result (pipeline, correction re-screen). */
  async storeResult(
    tx: Queryable,
    t: Tenant,
    sessionId: string,
    type: string,
    r: { status: string; score: number | null; resultSealed: string },
  ): Promise<void> {
    await tx.query(
      `UPDATE checks SET status = $5, score = $6, result_sealed = $7, completed_at = now()
       WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND type = $4`,
      [t.accountId, t.environment, sessionId, type, r.status, r.score, r.resultSealed],
    );
  },

  /** A status without a new result (a reviewer's decision, the risk score); `completed` stamps completed_at. */
  async setStatus(tx: Queryable, t: Tenant, sessionId: string, type: string, status: string, completed: boolean): Promise<void> {
    await tx.query(
      `UPDATE checks SET status = $5, completed_at = CASE WHEN $6::boolean THEN now() ELSE completed_at END
       WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND type = $4`,
      [t.accountId, t.environment, sessionId, type, status, completed],
    );
  },

  /** Capture submitted: every check of the session is being processed. */
  async markProcessing(tx: Queryable, t: Tenant, sessionId: string): Promise<void> {
    await tx.query("UPDATE checks SET status = 'processing' WHERE account_id = $1 AND environment = $2 AND session_id = $3", [
      t.accountId,
      t.environment,
      sessionId,
    ]);
  },

  /** A finished check of an imported (historical) session, with its original times. */
  async insertImported(
    tx: Queryable,
    t: Tenant,
    c: {
      sessionId: string;
      type: string;
      status: string;
      score: number | null;
      subjectReference: string;
      resultSealed: string;
      createdAt: string;
      completedAt: string;
    },
  ): Promise<string> {
    const id = newId('check');
    await tx.query(
      `INSERT INTO checks (id, account_id, environment, type, status, score, subject_reference, session_id, result_sealed, created_at, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::timestamptz, $11::timestamptz)`,
      [
        id,
        t.accountId,
        t.environment,
        c.type,
        c.status,
        c.score,
        c.subjectReference,
        c.sessionId,
        c.resultSealed,
        c.createdAt,
        c.completedAt,
      ],
    );
    return id;
  },
};

export interface SessionMediaRow<Q = unknown> {
  id: string;
  kind: string;
  content_type: string;
  bytes: number;
  sha256: string;
  quality: Q | null;
}

export interface EvidenceMediaRow {
  id: string;
  check_id: string | null;
  kind: string;
  content_type: string;
  sha256: string;
  bytes: number;
  data_sealed?: Buffer | Uint8Array | null;
}

/** The subject's uploads: media rows with session_id set and no check yet (the pipeline links them). */
export const sessionMedia = {
  /** The current upload of each kind (older ones are retired when replaced). */
  async current<Q = unknown>(db: Queryable, t: Tenant, sessionId: string): Promise<SessionMediaRow<Q>[]> {
    return db.query<SessionMediaRow<Q>>(
      `SELECT id, kind, content_type, bytes, sha256, quality FROM media
       WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND check_id IS NULL AND deleted_at IS NULL ORDER BY id`,
      [t.accountId, t.environment, sessionId],
    );
  },

  /** The current uploads with their sealed bytes (the pipeline opens them). */
  async currentSealed(
    db: Queryable,
    t: Tenant,
    sessionId: string,
  ): Promise<{ id: string; kind: string; content_type: string; data_sealed: Buffer | Uint8Array }[]> {
    return db.query(
      `SELECT id, kind, content_type, data_sealed FROM media
       WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND check_id IS NULL AND deleted_at IS NULL AND data_sealed IS NOT NULL
       ORDER BY id`,
      [t.accountId, t.environment, sessionId],
    );
  },

  /** The newest selfie still held, sealed (enrolment after approval). */
  async latestSelfieSealed(db: Queryable, t: Tenant, sessionId: string): Promise<Buffer | Uint8Array | null> {
    const rows = await db.query<{ data_sealed: Buffer | Uint8Array }>(
      `SELECT data_sealed FROM media WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND kind = 'selfie'
         AND deleted_at IS NULL AND data_sealed IS NOT NULL ORDER BY id DESC LIMIT 1`,
      [t.accountId, t.environment, sessionId],
    );
    return rows[0]?.data_sealed ?? null;
  },

  /** The session's media and its checks' media still held (the evidence pack); without bytes when `listed`. */
  async evidence(db: Queryable, t: Tenant, sessionId: string, checkIds: string[], listed: boolean): Promise<EvidenceMediaRow[]> {
    return db.query<EvidenceMediaRow>(
      `SELECT id, check_id, kind, content_type, sha256, bytes${listed ? '' : ', data_sealed'} FROM media
       WHERE account_id = $1 AND environment = $2 AND deleted_at IS NULL AND data_sealed IS NOT NULL
         AND (session_id = $3 OR check_id = ANY($4::text[])) ORDER BY id`,
      [t.accountId, t.environment, sessionId, checkIds],
    );
  },

  /** The uploads a check read become its media (only those not linked yet). */
  async linkToCheck(tx: Queryable, mediaIds: string[], checkId: string | undefined): Promise<void> {
    await tx.query('UPDATE media SET check_id = $2 WHERE id = ANY($1::text[]) AND check_id IS NULL', [mediaIds, checkId]);
  },

  /**
   * A new upload replaces the previous one of its kind (or kinds, in one statement): the old bytes are
   * destroyed, the row stays as a trace.
   */
  async retire(tx: Queryable, t: Tenant, sessionId: string, kind: string | readonly string[]): Promise<number> {
    const rows = await tx.query<{ id: string }>(
      `UPDATE media SET deleted_at = now(), data_sealed = NULL
       WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND kind = ANY($4::text[])
         AND check_id IS NULL AND deleted_at IS NULL RETURNING id`,
      [t.accountId, t.environment, sessionId, typeof kind === 'string' ? [kind] : kind],
    );
    return rows.length;
  },

  /** The capture guidance an upload got. */
  async setQuality(tx: Queryable, t: Tenant, mediaId: string, quality: unknown): Promise<void> {
    await tx.query('UPDATE media SET quality = $4::jsonb WHERE account_id = $1 AND environment = $2 AND id = $3', [
      t.accountId,
      t.environment,
      mediaId,
      JSON.stringify(quality),
    ]);
  },
};
