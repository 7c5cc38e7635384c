import type { Db, Queryable } from '../../../platform/db.js';
import type { RequestContext } from '../../../platform/context.js';
import { newId } from '../../../platform/ids.js';
import { iso } from '../../../platform/schemas.js';
import type { ErasureHook } from '../../../platform/erasure.js';
import type { FaceEnrollment } from './schemas.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

export interface EnrollmentRow {
  id: string;
  subject_reference: string;
  model: string;
  created_at: Date;
  deleted_at: Date | null;
}

export interface EnrollmentHit {
  enrollment_id: string;
  subject_reference: string;
  similarity: number;
}

/**
 * platform/ids.ts has no face-enrolment prefix yet (a platform change, see the report); the same
 * time-sortable generator under our own prefix keeps ids sortable and unique.
 */
export function newEnrollmentId(): string {
  return newId('faceEnrollment');
}

export function toEnrollment(r: EnrollmentRow): FaceEnrollment {
  return {
    id: r.id,
    object: 'face_enrollment',
    subject_reference: r.subject_reference,
    model: r.model,
    created_at: iso(r.created_at)!,
    deleted_at: iso(r.deleted_at),
  };
}

const vectorColumn = new WeakMap<Db, Promise<boolean>>();

/**
 * Whether this database has the pgvector column: pgvector available now (`db.hasVector`) is not enough
 * when 0005 was applied before the extension was installed (its vector block was skipped then).
 */
export function hasVectorColumn(db: Db, within: Queryable = db): Promise<boolean> {
  let known = vectorColumn.get(db);
  if (!known) {
    // Inside a transaction pass it as `within`: the embedded database has one connection, which the
    // open transaction holds, so a query on `db` would wait for it for ever.
    known = db.hasVector
      ? within
          .query<{ ok: boolean }>(
            "SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'face_enrollments' AND column_name = 'embedding_vec') AS ok",
          )
          .then((r) => r[0]?.ok === true)
      : Promise.resolve(false);
    vectorColumn.set(db, known);
    known.catch(() => vectorColumn.delete(db)); // a failed lookup (aborted transaction) is asked again next time
  }
  return known;
}

/**
 * The pgvector column is vector(1024) (migration 0005, made for the 1024-value faceres embedding). The
 * face-api embedding since issue #19 has 128 values; it is written and searched zero-padded to 1024,
 * which leaves every cosine unchanged (the padding adds nothing to dot products or norms), so both
 * models' rows live in one column and one HNSW index. The `model` filter of every search keeps them apart.
 */
const VECTOR_COLUMN_DIMENSIONS = 1024;
const vectorLiteral = (e: Float32Array): string => {
  const values = Array.from(e);
  while (values.length < VECTOR_COLUMN_DIMENSIONS) values.push(0);
  return `[${values.join(',')}]`;
};

/**
 * Embeddings are stored as bytes (`embedding_bytes`, migration 0017): float4 values in PostgreSQL's
 * binary order (big-endian, as `float4send`), moved as base64 text both ways, which both database
 * drivers pass through natively (the embedded database parses a bytea's hex or a real[] in JavaScript,
 * ten times slower).
 */
export function embeddingToBase64(e: Float32Array): string {
  const b = Buffer.allocUnsafe(e.length * 4);
  for (let i = 0; i < e.length; i++) b.writeFloatBE(e[i]!, i * 4);
  return b.toString('base64');
}

/** Decodes a stored embedding (embeddingToBase64) of `into.length` values into `into`. */
export function embeddingFromBase64(text: string, into: Float32Array): void {
  const b = Buffer.from(text, 'base64');
  if (b.length !== into.length * 4) throw new RangeError(`a stored embedding has ${b.length} bytes, expected ${into.length * 4}`);
  for (let i = 0; i < into.length; i++) into[i] = b.readFloatBE(i * 4);
}

const COLUMNS = 'id, subject_reference, model, created_at, deleted_at';

export const faceEnrollments = {
  /** A new enrolment; with `sessionId` (enrolment of an approved session) at most one per session: null if it exists. */
  async insert(
    tx: Queryable,
    t: Tenant,
    hasVector: boolean,
    e: { id: string; subjectReference: string; model: string; embedding: Float32Array; sessionId?: string },
  ): Promise<EnrollmentRow | null> {
    const params = [e.id, t.accountId, t.environment, e.subjectReference, e.model, embeddingToBase64(e.embedding), e.sessionId ?? null];
    const onConflict = 'ON CONFLICT (session_id) WHERE session_id IS NOT NULL DO NOTHING';
    const rows = hasVector
      ? await tx.query<EnrollmentRow>(
          `INSERT INTO face_enrollments (id, account_id, environment, subject_reference, model, embedding_bytes, session_id, embedding_vec)
           VALUES ($1, $2, $3, $4, $5, decode($6, 'base64'), $7, $8::vector) ${onConflict} RETURNING ${COLUMNS}`,
          [...params, vectorLiteral(e.embedding)],
        )
      : await tx.query<EnrollmentRow>(
          `INSERT INTO face_enrollments (id, account_id, environment, subject_reference, model, embedding_bytes, session_id)
           VALUES ($1, $2, $3, $4, $5, decode($6, 'base64'), $7) ${onConflict} RETURNING ${COLUMNS}`,
          params,
        );
    return rows[0] ?? null;
  },

  /** Whether the session's subject was enrolled already (enrolment after approval runs once per session). */
  async existsForSession(db: Queryable, t: Tenant, sessionId: string): Promise<boolean> {
    const rows = await db.query('SELECT 1 FROM face_enrollments WHERE account_id = $1 AND environment = $2 AND session_id = $3', [
      t.accountId,
      t.environment,
      sessionId,
    ]);
    return rows.length > 0;
  },

  async get(db: Queryable, t: Tenant, id: string): Promise<EnrollmentRow | null> {
    const rows = await db.query<EnrollmentRow>(
      `SELECT ${COLUMNS} FROM face_enrollments WHERE account_id = $1 AND environment = $2 AND id = $3`,
      [t.accountId, t.environment, id],
    );
    return rows[0] ?? null;
  },

  /** Soft delete that erases the biometric data itself; the row stays for the audit trail. */
  async erase(tx: Queryable, t: Tenant, hasVector: boolean, id: string): Promise<EnrollmentRow | null> {
    const rows = await tx.query<EnrollmentRow>(
      `UPDATE face_enrollments SET deleted_at = now(), embedding_bytes = NULL${hasVector ? ', embedding_vec = NULL' : ''}
       WHERE account_id = $1 AND environment = $2 AND id = $3 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
      [t.accountId, t.environment, id],
    );
    return rows[0] ?? null;
  },

  /** Erases the enrolment an approved session made (its session is deleted): same as erase, by session. */
  async eraseForSession(tx: Queryable, t: Tenant, hasVector: boolean, sessionId: string): Promise<number> {
    const rows = await tx.query<{ id: string }>(
      `UPDATE face_enrollments SET deleted_at = now(), embedding_bytes = NULL${hasVector ? ', embedding_vec = NULL' : ''}
       WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND deleted_at IS NULL RETURNING id`,
      [t.accountId, t.environment, sessionId],
    );
    return rows.length;
  },

  /**
   * Top-k by cosine distance on the HNSW index. Iterative scanning (pgvector ≥ 0.8) keeps going when
   * the tenant filter drops candidates, so a tenant in a shared index still gets k rows.
   */
  async searchVector(db: Db, t: Tenant, model: string, embedding: Float32Array, k: number): Promise<EnrollmentHit[]> {
    return db.transaction(async (tx) => {
      await tx.query("SET LOCAL hnsw.iterative_scan = 'strict_order'");
      // 100 found 26 of 29 faces ≥ 0.65 among 10,000 on the bench, 400 all 29 (20 of 29 among 100,000).
      await tx.query('SET LOCAL hnsw.ef_search = 400');
      const rows = await tx.query<{ id: string; subject_reference: string; similarity: number }>(
        `SELECT id, subject_reference, 1 - (embedding_vec <=> $4::vector) AS similarity FROM face_enrollments
         WHERE account_id = $1 AND environment = $2 AND model = $3 AND deleted_at IS NULL AND embedding_vec IS NOT NULL
         ORDER BY embedding_vec <=> $4::vector LIMIT $5`,
        [t.accountId, t.environment, model, vectorLiteral(embedding), k],
      );
      return rows.map((r) => ({ enrollment_id: r.id, subject_reference: r.subject_reference, similarity: Number(r.similarity) }));
    });
  },

  /** The tenants and models with live enrolments, the most recently enrolled first: what a starting process preloads. */
  async recentIndexes(db: Queryable, limit: number): Promise<{ accountId: string; environment: Tenant['environment']; model: string }[]> {
    const rows = await db.query<{ account_id: string; environment: Tenant['environment']; model: string }>(
      `SELECT account_id, environment, model FROM face_enrollments WHERE deleted_at IS NULL
        GROUP BY account_id, environment, model ORDER BY max(id) DESC LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ accountId: r.account_id, environment: r.environment, model: r.model }));
  },

  /** Changes whenever a face of the tenant is enrolled or erased, in any process: both read from indexes. */
  async stamp(db: Queryable, t: Tenant): Promise<string> {
    const rows = await db.query<{ last_id: string | null; last_deleted: Date | null }>(
      `SELECT (SELECT max(id) FROM face_enrollments WHERE account_id = $1 AND environment = $2) AS last_id,
              (SELECT max(deleted_at) FROM face_enrollments WHERE account_id = $1 AND environment = $2) AS last_deleted`,
      [t.accountId, t.environment],
    );
    return `${rows[0]?.last_id ?? ''}|${iso(rows[0]?.last_deleted) ?? ''}`;
  },

  /**
   * A page of live embeddings in id order after `afterId` (ids are time-sortable: an index catching
   * up starts from idFloor of its last sync). `embedding` is base64 (embeddingFromBase64 decodes it).
   */
  async loadPage(
    db: Queryable,
    t: Tenant,
    model: string,
    o: { afterId: string; limit: number },
  ): Promise<{ id: string; subject_reference: string; embedding: string }[]> {
    return db.query(
      `SELECT id, subject_reference, encode(embedding_bytes, 'base64') AS embedding FROM face_enrollments
       WHERE account_id = $1 AND environment = $2 AND model = $3 AND deleted_at IS NULL AND embedding_bytes IS NOT NULL AND id > $4
       ORDER BY id LIMIT $5`,
      [t.accountId, t.environment, model, o.afterId, o.limit],
    );
  },

  /** Ids of the tenant's faces erased since `since` (an index catching up removes them). */
  async erasedSince(db: Queryable, t: Tenant, since: Date): Promise<string[]> {
    const rows = await db.query<{ id: string }>(
      'SELECT id FROM face_enrollments WHERE account_id = $1 AND environment = $2 AND deleted_at >= $3',
      [t.accountId, t.environment, since],
    );
    return rows.map((r) => r.id);
  },

  async now(db: Queryable): Promise<Date> {
    const rows = await db.query<{ now: Date }>('SELECT now() AS now');
    return new Date(rows[0]!.now);
  },
};

/** The face embedding an approved session enrolled for face search is biometric data of that session. */
export const faceEnrollmentErasure: ErasureHook = {
  name: 'face_enrollments',
  async erase(tx, { ctx, sessionId }) {
    return faceEnrollments.eraseForSession(tx, ctx, await hasVectorColumn(ctx.db, tx), sessionId);
  },
};
