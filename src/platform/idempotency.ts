import { createHash } from 'node:crypto';
import type { Db, Queryable } from './db.js';
import type { IdempotencyBinding } from './context.js';
import { AppError, conflict } from './errors.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export interface StoredResponse {
  fingerprint: string;
  state: 'running' | 'done';
  response_status: number | null;
  response_body: string | null;
}

/** Thrown inside a transaction when another request already committed under the same key. */
export class IdempotentReplay extends Error {
  constructor() {
    super('idempotent replay');
  }
}

export function validateKey(raw: unknown): string {
  if (typeof raw !== 'string' || !KEY_SHAPE.test(raw)) {
    throw new AppError('invalid_request', 'Idempotency-Key must be 1 to 255 printable ASCII characters.', { field: 'Idempotency-Key' });
  }
  return raw;
}

/** What makes two requests "the same": method, path and the canonical body. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n`).update(body === undefined ? '' : JSON.stringify(body)).digest('hex');
}

export async function findStoredResponse(db: Queryable, accountId: string, environment: string, key: string): Promise<StoredResponse | null> {
  const rows = await db.query<StoredResponse>(
    'SELECT fingerprint, state, response_status, response_body FROM idempotency_keys WHERE account_id = $1 AND environment = $2 AND key = $3 AND expires_at > now()',
    [accountId, environment, key],
  );
  return rows[0] ?? null;
}

export function mismatch(): AppError {
  return new AppError('invalid_request', 'This Idempotency-Key was already used with a different request (method, path or body). Use a new key for a new request.', { field: 'Idempotency-Key' });
}

export function createBinding(opts: {
  accountId: string;
  environment: string;
  key: string;
  fingerprint: string;
  retentionHours: number;
  serialize: (result: unknown) => { status: number; body: string };
}): IdempotencyBinding {
  let used = false;
  const params = [opts.accountId, opts.environment, opts.key];
  return {
    get used() {
      return used;
    },
    async begin(tx: Queryable) {
      // One round trip: take the advisory lock (a concurrent duplicate fails fast with 409 instead of
      // queueing behind us) and, only if we hold it, claim the key (an expired key is taken over).
      const [r] = await tx.query<{ locked: boolean; claimed: number }>(
        `WITH lock AS (SELECT pg_try_advisory_xact_lock(hashtextextended($1 || ':' || $2 || ':' || $3, 0)) AS ok),
         claim AS (
           INSERT INTO idempotency_keys (account_id, environment, key, fingerprint, state, locked_until, expires_at)
           SELECT $1, $2, $3, $4, 'running', now() + interval '5 minutes', now() + make_interval(hours => $5) FROM lock WHERE lock.ok
           ON CONFLICT (account_id, environment, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, state = 'running',
             locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at, created_at = now()
             WHERE idempotency_keys.expires_at <= now()
           RETURNING 1)
         SELECT (SELECT ok FROM lock) AS locked, (SELECT count(*)::int FROM claim) AS claimed`,
        [...params, opts.fingerprint, opts.retentionHours],
      );
      if (!r?.locked) throw conflict('A request with this Idempotency-Key is still being processed; retry after it completes.', 'Idempotency-Key');
      const rows = r.claimed > 0 ? [1] : [];
      if (rows.length === 0) throw new IdempotentReplay();
      used = true;
    },
    async release(tx: Queryable) {
      await tx.query("DELETE FROM idempotency_keys WHERE account_id = $1 AND environment = $2 AND key = $3 AND state = 'running'", params);
    },
    async record(tx: Queryable, result: unknown) {
      const { status, body } = opts.serialize(result);
      await tx.query(
        "UPDATE idempotency_keys SET state = 'done', response_status = $4, response_body = $5 WHERE account_id = $1 AND environment = $2 AND key = $3",
        [...params, status, body],
      );
    },
  };
}

/** For POSTs that wrote nothing transactional (searches, previews): remember the response after the fact. */
export async function storeAfterResponse(db: Queryable, opts: { accountId: string; environment: string; key: string; fingerprint: string; retentionHours: number; status: number; body: string }): Promise<void> {
  await db.query(
    `INSERT INTO idempotency_keys (account_id, environment, key, fingerprint, state, response_status, response_body, locked_until, expires_at)
     VALUES ($1, $2, $3, $4, 'done', $5, $6, now(), now() + make_interval(hours => $7)) ON CONFLICT DO NOTHING`,
    [opts.accountId, opts.environment, opts.key, opts.fingerprint, opts.status, opts.body, opts.retentionHours],
  );
}

export async function purgeExpiredKeys(db: Db): Promise<number> {
  const rows = await db.query<{ n: number }>('WITH d AS (DELETE FROM idempotency_keys WHERE expires_at <= now() RETURNING 1) SELECT count(*)::int AS n FROM d');
  return rows[0]?.n ?? 0;
}
