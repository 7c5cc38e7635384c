import type { Queryable } from '../../../platform/db.js';
import type { RequestContext } from '../../../platform/context.js';
import type { Sealer } from '../../../platform/crypto.js';
import { newId } from '../../../platform/ids.js';
import { paginate } from '../../../platform/pagination.js';
import type { ErasureHook } from '../../../platform/erasure.js';
import { iso } from '../../../platform/schemas.js';
import { textArrayLiteral } from '../../../platform/sql-literals.js';
import { writeOrDefer } from '../../../platform/transaction.js';
import type { Check } from './schemas.js';
import { sha256Hex, type MediaInput } from './media.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;
export const RESULT_PURPOSE = 'check-result';
export const MEDIA_PURPOSE = 'media';

export interface CheckRow {
  id: string;
  type: Check['type'];
  status: Check['status'];
  score: number | null;
  subject_reference: string | null;
  session_id: string | null;
  result_sealed: string | null;
  created_at: Date;
  completed_at: Date | null;
  redacted_at: Date | null;
}

/** What is sealed: everything that may hold personal data. */
export interface CheckPayload {
  reasons: string[];
  signals: Check['signals'];
  model: Check['model'];
  timings: Check['timings'];
  result: Check['result'];
}

export interface MediaRow {
  id: string;
  check_id: string | null;
  kind: string;
  content_type: string;
  bytes: number;
  sha256: string;
}

export function toCheck(row: CheckRow, media: MediaRow[], sealer: Sealer): Check {
  const p: CheckPayload = row.result_sealed
    ? JSON.parse(sealer.open(RESULT_PURPOSE, row.result_sealed))
    : { reasons: [], signals: [], model: [], timings: {}, result: {} };
  return {
    id: row.id,
    object: 'check',
    type: row.type,
    status: row.status,
    score: row.score,
    reasons: p.reasons,
    subject_reference: row.subject_reference,
    session_id: row.session_id,
    signals: p.signals,
    model: p.model,
    timings: p.timings,
    result: p.result,
    media: media.map((m) => ({ id: m.id, kind: m.kind, content_type: m.content_type, bytes: m.bytes, sha256: m.sha256 })),
    created_at: iso(row.created_at)!,
    completed_at: iso(row.completed_at),
    redacted_at: iso(row.redacted_at),
  };
}

export const checks = {
  async insert(
    tx: Queryable,
    t: Tenant,
    sealer: Sealer,
    c: {
      id: string;
      type: string;
      status: string;
      score: number | null;
      subjectReference: string | null;
      sessionId?: string | null;
      payload: CheckPayload;
      completed: boolean;
    },
  ): Promise<CheckRow> {
    const rows = await tx.query<CheckRow>(
      `INSERT INTO checks (id, account_id, environment, type, status, score, subject_reference, session_id, result_sealed, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, CASE WHEN $10 THEN now() ELSE null END) RETURNING *`,
      [
        c.id,
        t.accountId,
        t.environment,
        c.type,
        c.status,
        c.score,
        c.subjectReference,
        c.sessionId ?? null,
        sealer.seal(RESULT_PURPOSE, JSON.stringify(c.payload)),
        c.completed,
      ],
    );
    return rows[0]!;
  },
  /**
   * A session's pending checks at creation, in one statement, written with the transaction's last writes where it
   * collects them (nothing reads them back inside it: the caller knows what it wrote). A pending check has no result
   * yet: `result_sealed` stays NULL (readers show the empty payload), so creating a session seals nothing per check.
   */
  async insertPending(
    tx: Queryable,
    t: Tenant,
    cs: { id: string; type: string; subjectReference: string | null; sessionId: string | null }[],
  ): Promise<void> {
    if (cs.length === 0) return;
    await writeOrDefer(
      tx,
      `INSERT INTO checks (id, account_id, environment, type, status, subject_reference, session_id)
       SELECT c.id, $1, $2, c.type, 'pending', c.subject_reference, c.session_id
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS c(id, type, subject_reference, session_id, n)
       ORDER BY c.n`,
      // Each list as one array literal (a string): a statement of scalar values is prepared once per connection, and
      // the plan of an INSERT from unnest does not depend on the lists (an array value would be parsed at every call).
      [
        t.accountId,
        t.environment,
        textArrayLiteral(cs.map((c) => c.id)),
        textArrayLiteral(cs.map((c) => c.type)),
        textArrayLiteral(cs.map((c) => c.subjectReference)),
        textArrayLiteral(cs.map((c) => c.sessionId)),
      ],
    );
  },
  async insertMedia(
    tx: Queryable,
    t: Tenant,
    sealer: Sealer,
    owner: { checkId?: string | null; sessionId?: string | null },
    m: MediaInput,
  ): Promise<MediaRow> {
    const rows = await tx.query<MediaRow>(
      `INSERT INTO media (id, account_id, environment, check_id, session_id, kind, content_type, bytes, sha256, data_sealed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id, check_id, kind, content_type, bytes, sha256`,
      [
        newId('media'),
        t.accountId,
        t.environment,
        owner.checkId ?? null,
        owner.sessionId ?? null,
        m.kind,
        m.contentType,
        m.data.length,
        sha256Hex(m.data),
        sealer.sealBytes(MEDIA_PURPOSE, m.data),
      ],
    );
    return rows[0]!;
  },
  /** A session that ended before its checks ran (expired, abandoned) cancels them; finished ones stay. */
  async cancelUnfinished(tx: Queryable, t: Tenant, sessionId: string): Promise<number> {
    const rows = await tx.query<{ id: string }>(
      `UPDATE checks SET status = 'cancelled', completed_at = now() WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND status IN ('pending', 'processing') RETURNING id`,
      [t.accountId, t.environment, sessionId],
    );
    return rows.length;
  },

  async get(db: Queryable, t: Tenant, id: string): Promise<CheckRow | null> {
    const rows = await db.query<CheckRow>('SELECT * FROM checks WHERE account_id = $1 AND environment = $2 AND id = $3', [
      t.accountId,
      t.environment,
      id,
    ]);
    return rows[0] ?? null;
  },
  /**
   * The latest completed check of a type for a subject reference (the KYT rule context reads screenings): only the
   * columns it reads, since every POST /v1/transactions sends this read and each column's description is parsed.
   */
  async latestOfSubject(
    db: Queryable,
    t: Tenant,
    type: string,
    subjectReference: string,
  ): Promise<Pick<CheckRow, 'id' | 'status' | 'score' | 'result_sealed' | 'completed_at'> | null> {
    const rows = await db.query<Pick<CheckRow, 'id' | 'status' | 'score' | 'result_sealed' | 'completed_at'>>(
      `SELECT id, status, score, result_sealed, completed_at FROM checks WHERE account_id = $1 AND environment = $2 AND subject_reference = $3 AND type = $4
         AND completed_at IS NOT NULL AND redacted_at IS NULL ORDER BY completed_at DESC, id DESC LIMIT 1`,
      [t.accountId, t.environment, subjectReference, type],
    );
    return rows[0] ?? null;
  },
  async mediaFor(db: Queryable, checkIds: string[]): Promise<Map<string, MediaRow[]>> {
    const out = new Map<string, MediaRow[]>();
    if (checkIds.length === 0) return out;
    const rows = await db.query<MediaRow>(
      'SELECT id, check_id, kind, content_type, bytes, sha256 FROM media WHERE check_id = ANY($1::text[]) AND deleted_at IS NULL ORDER BY id',
      [checkIds],
    );
    for (const r of rows) out.set(r.check_id!, [...(out.get(r.check_id!) ?? []), r]);
    return out;
  },
  /** Decrypted bytes of one medium of the tenant (evidence bundles, face-search enrolment). */
  async mediaBytes(db: Queryable, t: Tenant, sealer: Sealer, mediaId: string): Promise<{ row: MediaRow; data: Buffer } | null> {
    const rows = await db.query<MediaRow & { data_sealed: Buffer | Uint8Array | null }>(
      'SELECT id, check_id, kind, content_type, bytes, sha256, data_sealed FROM media WHERE account_id = $1 AND environment = $2 AND id = $3 AND deleted_at IS NULL',
      [t.accountId, t.environment, mediaId],
    );
    const r = rows[0];
    if (!r || !r.data_sealed) return null;
    const { data_sealed, ...row } = r;
    return { row, data: sealer.openBytes(MEDIA_PURPOSE, Buffer.from(data_sealed)) };
  },
  async page(db: Queryable, t: Tenant, q: { limit?: number; cursor?: string; type?: string; subject_reference?: string; status?: string }) {
    const where: string[] = [];
    const params: unknown[] = [];
    for (const [col, val] of [
      ['type', q.type],
      ['subject_reference', q.subject_reference],
      ['status', q.status],
    ] as const) {
      if (val) {
        params.push(val);
        where.push(`${col} = $${params.length + 2}`);
      }
    }
    return paginate<CheckRow & Record<string, unknown>>(db, t, {
      from: 'checks',
      where,
      params,
      limit: q.limit,
      cursor: q.cursor,
      name: 'checks',
    });
  },
};

/** A session's media (its own and its checks'): marked deleted, sealed bytes dropped. */
export const mediaErasure: ErasureHook = {
  name: 'media',
  async erase(tx, { ctx, sessionId }) {
    const rows = await tx.query<{ id: string }>(
      `UPDATE media SET deleted_at = now(), data_sealed = NULL
       WHERE account_id = $1 AND environment = $2 AND deleted_at IS NULL
         AND (session_id = $3 OR check_id IN (SELECT id FROM checks WHERE account_id = $1 AND environment = $2 AND session_id = $3))
       RETURNING id`,
      [ctx.accountId, ctx.environment, sessionId],
    );
    return rows.length;
  },
};

/** A session's checks lose their sealed results and subject reference (redacted_at set once). */
export const checkErasure: ErasureHook = {
  name: 'checks',
  async erase(tx, { ctx, sessionId }) {
    const rows = await tx.query<{ id: string }>(
      `UPDATE checks SET result_sealed = NULL, subject_reference = NULL, redacted_at = coalesce(redacted_at, now())
       WHERE account_id = $1 AND environment = $2 AND session_id = $3 RETURNING id`,
      [ctx.accountId, ctx.environment, sessionId],
    );
    return rows.length;
  },
};
