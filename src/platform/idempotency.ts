import { createHash, randomUUID } from 'node:crypto';
import { type Db, type Queryable } from './db.js';
import type { IdempotencyBinding } from './context.js';
import { AppError } from './errors.js';
import { statementOrDefer, writeOrDefer } from './transaction.js';
import type { Sealer } from './crypto.js';

const RESPONSE_PURPOSE = 'idempotent-response';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export interface StoredResponse {
  fingerprint: string;
  state: 'running' | 'done';
  response_status: number | null;
  response_body: string | null;
  /** For a running key: seconds until its holder's lease lapses. */
  lease_left_seconds: number | null;
}

export function validateKey(raw: unknown): string {
  if (typeof raw !== 'string' || !KEY_SHAPE.test(raw)) {
    throw new AppError('invalid_request', 'Idempotency-Key must be 1 to 255 printable ASCII characters.', { field: 'Idempotency-Key' });
  }
  return raw;
}

/** What makes two requests "the same": method, path and the canonical body. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n`)
    .update(body === undefined ? '' : JSON.stringify(body))
    .digest('hex');
}

export async function findStoredResponse(
  db: Queryable,
  accountId: string,
  environment: string,
  key: string,
): Promise<StoredResponse | null> {
  const rows = await db.query<StoredResponse>(
    `SELECT fingerprint, state, response_status, response_body, extract(epoch FROM locked_until - now())::float8 AS lease_left_seconds
       FROM idempotency_keys WHERE account_id = $1 AND environment = $2 AND key = $3 AND expires_at > now()`,
    [accountId, environment, key],
  );
  return rows[0] ?? null;
}

export function mismatch(): AppError {
  return new AppError(
    'invalid_request',
    'This Idempotency-Key was already used with a different request (method, path or body). Use a new key for a new request.',
    { field: 'Idempotency-Key' },
  );
}

export type ClaimResult =
  | { kind: 'claimed'; binding: IdempotencyBinding }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in_progress'; retryAfterSeconds: number };

/**
 * A claim is a short lease that its live holder renews while the request runs, so a request that dies
 * with its process frees the key within LEASE_SECONDS, however long a live request takes.
 */
export const LEASE_SECONDS = 15;
const RENEW_EVERY_MS = 5_000;

export interface ClaimOptions {
  accountId: string;
  environment: string;
  key: string;
  fingerprint: string;
  retentionHours: number;
  serialize: (result: unknown) => { status: number; body: string };
  /** Stored responses may hold secrets shown once (a webhook signing secret, a session token). */
  sealer: Sealer;
  /** How long a claim holds without renewal before another request may take over the key (a crashed request). */
  leaseSeconds?: number;
  /** How often the holder renews its lease (tests shorten it). */
  renewEveryMs?: number;
}

/**
 * Takes the key row for a request: a new key, an expired one, or one whose holder crashed (lease passed,
 * same request) becomes ours; otherwise no row comes back. Inside a transaction that has not committed,
 * the row is invisible to others and a concurrent duplicate's INSERT waits on the unique index until
 * this transaction ends, then sees the stored response (or takes the key, if this one rolled back).
 */
const CLAIM_SQL = `INSERT INTO idempotency_keys (account_id, environment, key, fingerprint, state, owner, locked_until, expires_at)
     VALUES ($1, $2, $3, $4, 'running', $5, now() + make_interval(secs => $6), now() + make_interval(hours => $7))
     ON CONFLICT (account_id, environment, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, state = 'running', owner = EXCLUDED.owner,
       locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at, created_at = now(), response_status = null, response_body = null
       WHERE idempotency_keys.expires_at <= now()
          OR (idempotency_keys.state = 'running' AND idempotency_keys.locked_until < now() AND idempotency_keys.fingerprint = EXCLUDED.fingerprint)
     RETURNING key`;

/** What a request whose key is taken gets: the stored response, a mismatch, or "still in progress". */
async function settledOutcome(
  db: Queryable,
  opts: Pick<ClaimOptions, 'accountId' | 'environment' | 'key' | 'fingerprint' | 'sealer'>,
  leaseSeconds: number,
): Promise<Exclude<ClaimResult, { kind: 'claimed' }>> {
  const stored = await findStoredResponse(db, opts.accountId, opts.environment, opts.key);
  if (!stored) return { kind: 'in_progress', retryAfterSeconds: 1 };
  if (stored.fingerprint !== opts.fingerprint) return { kind: 'mismatch' };
  if (stored.state === 'done' && stored.response_status) {
    return {
      kind: 'replay',
      status: stored.response_status,
      body: stored.response_body ? opts.sealer.open(RESPONSE_PURPOSE, stored.response_body) : '',
    };
  }
  // Retry when the holder would have finished or, if it died, when its lease lapses.
  return { kind: 'in_progress', retryAfterSeconds: Math.max(1, Math.min(leaseSeconds, Math.ceil(stored.lease_left_seconds ?? 1))) };
}

/**
 * Claims an Idempotency-Key before the handler runs, in one statement: the key row is the lock.
 * A new key, an expired one, or one whose holder crashed (lease passed) is ours; otherwise the
 * stored response is replayed, the request is refused as a mismatch, or it is still in progress.
 */
export async function claimKey(db: Queryable, opts: ClaimOptions): Promise<ClaimResult> {
  const owner = randomUUID();
  const leaseSeconds = opts.leaseSeconds ?? LEASE_SECONDS;
  const params = [opts.accountId, opts.environment, opts.key];
  const rows = await db.query<{ key: string }>(CLAIM_SQL, [...params, opts.fingerprint, owner, leaseSeconds, opts.retentionHours]);
  if (rows.length === 0) return settledOutcome(db, opts, leaseSeconds);
  let used = false;
  let settled = false;
  const mine = `account_id = $1 AND environment = $2 AND key = $3 AND owner = $4`;
  const renewal = setInterval(() => {
    db.query(`UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => $5) WHERE ${mine} AND state = 'running'`, [
      ...params,
      owner,
      leaseSeconds,
    ]).catch(() => undefined);
  }, opts.renewEveryMs ?? RENEW_EVERY_MS);
  renewal.unref();
  const settle = () => {
    settled = true;
    clearInterval(renewal);
  };
  return {
    kind: 'claimed',
    binding: {
      get used() {
        return used;
      },
      get settled() {
        return settled;
      },
      async begin() {
        used = true;
      },
      stop() {
        clearInterval(renewal);
      },
      async record(tx: Queryable, result: unknown) {
        const { status, body } = opts.serialize(result);
        settle();
        await writeOrDefer(tx, `UPDATE idempotency_keys SET state = 'done', response_status = $5, response_body = $6 WHERE ${mine}`, [
          ...params,
          owner,
          status,
          opts.sealer.seal(RESPONSE_PURPOSE, body),
        ]);
      },
      async release(tx: Queryable = db) {
        settle();
        await tx.query(`DELETE FROM idempotency_keys WHERE ${mine} AND state = 'running'`, [...params, owner]);
      },
      async storeResponse(status: number, body: string) {
        settle();
        await db.query(
          `UPDATE idempotency_keys SET state = 'done', response_status = $5, response_body = $6 WHERE ${mine} AND state = 'running'`,
          [...params, owner, status, opts.sealer.seal(RESPONSE_PURPOSE, body)],
        );
      },
    },
  };
}

/** A key found taken when the request's own transaction tried to claim it: the transaction rolls back with this. */
export class IdempotencyOutcome extends Error {
  constructor(readonly outcome: Exclude<ClaimResult, { kind: 'claimed' }>) {
    super(`idempotency key taken (${outcome.kind})`);
  }
}

/** The refusal for a key that is taken by a different request or by one still running. */
export function outcomeError(outcome: Extract<ClaimResult, { kind: 'mismatch' | 'in_progress' }>): AppError {
  if (outcome.kind === 'mismatch') return mismatch();
  return new AppError(
    'conflict',
    'A request with this Idempotency-Key is still being processed; retry after Retry-After seconds, when it has completed or its lease has lapsed.',
    { field: 'Idempotency-Key', headers: { 'retry-after': String(outcome.retryAfterSeconds) } },
  );
}

/** The SQLSTATE `idempotency_key_taken()` raises (migration 0045). */
export const KEY_TAKEN_CODE = 'VK001';

function isKeyTaken(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === KEY_TAKEN_CODE;
}

/**
 * The key row of a short handler, written once, at commit, already holding its response: a new key, an
 * expired one, or one whose holder crashed (lease passed, same request) becomes ours; a key any other request
 * holds or has used raises `idempotency_key_taken()` and so rolls back the whole transaction.
 */
const RECORD_IN_TX_SQL = `WITH k AS (
  INSERT INTO idempotency_keys (account_id, environment, key, fingerprint, state, owner, locked_until, expires_at, response_status, response_body)
     VALUES ($1, $2, $3, $4, 'done', $5, now(), now() + make_interval(hours => $6), $7, $8)
     ON CONFLICT (account_id, environment, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, state = 'done', owner = EXCLUDED.owner,
       locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at, created_at = now(),
       response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body
       WHERE idempotency_keys.expires_at <= now()
          OR (idempotency_keys.state = 'running' AND idempotency_keys.locked_until < now() AND idempotency_keys.fingerprint = EXCLUDED.fingerprint)
     RETURNING 1)
SELECT CASE WHEN EXISTS (SELECT 1 FROM k) THEN 1 ELSE idempotency_key_taken() END`;

/**
 * The key of a short handler, claimed inside the mutation's own transaction instead of a transaction of
 * its own: one commit per request instead of two, and one write of the key row instead of two. The row
 * is inserted with the stored response as the transaction's last statements, sent with its COMMIT; a
 * concurrent duplicate's insert waits on the key's unique index until the first transaction ends, then
 * finds the key taken, rolls back everything it did (its resource, its usage, its audit row) and replays
 * (or takes the key, if the first rolled back). A request that dies leaves nothing behind, so its key is
 * free at once. A request that fails (a lookup that 404s, a refusal of the input, the key found taken)
 * looks the key up afterwards, so a request whose key was already used gets the stored response, the
 * mismatch or the 409 it would have got with a claim made up front. Duplicates do the handler's work
 * before they find the key taken (it is rolled back), so only for handlers whose whole work is one
 * `withTransaction` that is short: long or multi-step handlers keep `claimKey`.
 */
export function claimInTransaction(db: Queryable, opts: ClaimOptions): IdempotencyBinding {
  const owner = randomUUID();
  const leaseSeconds = opts.leaseSeconds ?? LEASE_SECONDS;
  const params = [opts.accountId, opts.environment, opts.key];
  let used = false;
  let committed = false;
  let settled = false;
  return {
    get used() {
      return used;
    },
    get settled() {
      return settled;
    },
    async begin() {
      used = true;
    },
    stop() {},
    async record(tx: Queryable, result: unknown) {
      const { status, body } = opts.serialize(result);
      settled = true;
      await statementOrDefer(tx, RECORD_IN_TX_SQL, [
        ...params,
        opts.fingerprint,
        owner,
        opts.retentionHours,
        status,
        opts.sealer.seal(RESPONSE_PURPOSE, body),
      ]);
    },
    committed() {
      committed = true;
    },
    async release() {
      // Nothing to free: the key row is written only by the commit that stores the response.
      settled = true;
    },
    async storeResponse(status: number, body: string) {
      settled = true;
      await db.query(
        `INSERT INTO idempotency_keys (account_id, environment, key, fingerprint, state, owner, locked_until, expires_at, response_status, response_body)
         VALUES ($1, $2, $3, $5, 'done', $4, now(), now() + make_interval(hours => $6), $7, $8)
         ON CONFLICT (account_id, environment, key) DO UPDATE SET state = 'done', response_status = EXCLUDED.response_status,
           response_body = EXCLUDED.response_body WHERE idempotency_keys.owner = EXCLUDED.owner AND idempotency_keys.state = 'running'`,
        [...params, owner, opts.fingerprint, opts.retentionHours, status, opts.sealer.seal(RESPONSE_PURPOSE, body)],
      );
    },
    async afterFailure(err?: unknown) {
      if (committed) return null;
      if (isKeyTaken(err)) return settledOutcome(db, opts, leaseSeconds);
      const stored = await findStoredResponse(db, opts.accountId, opts.environment, opts.key);
      return stored ? settledOutcome(db, opts, leaseSeconds) : null;
    },
  };
}

export async function purgeExpiredKeys(db: Db): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'WITH d AS (DELETE FROM idempotency_keys WHERE expires_at <= now() RETURNING 1) SELECT count(*)::int AS n FROM d',
  );
  return rows[0]?.n ?? 0;
}
