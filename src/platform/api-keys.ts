import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from './db.js';
import type { Environment } from './context.js';
import { newId } from './ids.js';
import { ALL_SCOPES } from './scopes.js';
import { paginate } from './pagination.js';

const KEY_PREFIX: Record<Environment, string> = { sandbox: 'sk_sandbox_', production: 'sk_live_' };
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_SHAPE = /^sk_(sandbox|live)_[0-9A-Za-z]{40}$/;

export interface ApiKeyRecord {
  id: string;
  account_id: string;
  environment: Environment;
  name: string | null;
  display: string;
  scopes: string[];
  rate_limit_per_minute: number | null;
  account_rate_limit_per_minute: number | null;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  /** Who made the key through /v1/api-keys (`api_key`, `operator`); null for the CLI and the first start. */
  created_by_type: string | null;
  created_by_id: string | null;
}

/** 40 base62 characters ≈ 238 bits; rejection sampling keeps every character uniformly likely. */
function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      if (b < 248 && out.length < n) out += BASE62[b % 62];
    }
  }
  return out;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function environmentOfKey(key: string): Environment | null {
  const m = KEY_SHAPE.exec(key);
  if (!m) return null;
  return m[1] === 'live' ? 'production' : 'sandbox';
}

export async function createApiKey(
  db: Queryable,
  input: {
    accountId: string;
    environment: Environment;
    scopes?: string[];
    name?: string | null;
    rateLimitPerMinute?: number | null;
    createdBy?: { type: string; id: string } | null;
  },
): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = KEY_PREFIX[input.environment] + randomBase62(40);
  const scopes = input.scopes && input.scopes.length > 0 ? input.scopes : input.environment === 'sandbox' ? ['*'] : [...ALL_SCOPES];
  const rows = await db.query<ApiKeyRecord>(
    `INSERT INTO api_keys (id, account_id, environment, name, key_hash, display, scopes, rate_limit_per_minute, created_by_type, created_by_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     RETURNING id, account_id, environment, name, display, scopes, rate_limit_per_minute, null::int AS account_rate_limit_per_minute,
       created_at, revoked_at, last_used_at, created_by_type, created_by_id`,
    [
      newId('apiKey'),
      input.accountId,
      input.environment,
      input.name ?? null,
      hashKey(key),
      `${key.slice(0, 14)}…${key.slice(-4)}`,
      scopes,
      input.rateLimitPerMinute ?? null,
      input.createdBy?.type ?? null,
      input.createdBy?.id ?? null,
    ],
  );
  return { key, record: rows[0]! };
}

const SELECT_KEY = `SELECT k.id, k.account_id, k.environment, k.name, k.display, k.scopes, k.rate_limit_per_minute,
  a.rate_limit_per_minute AS account_rate_limit_per_minute, k.created_at, k.revoked_at, k.last_used_at,
  k.created_by_type, k.created_by_id, k.key_hash
  FROM api_keys k JOIN accounts a ON a.id = k.account_id`;

export async function listApiKeys(db: Queryable, accountId?: string): Promise<ApiKeyRecord[]> {
  const rows = await db.query<ApiKeyRecord & { key_hash?: string }>(
    `${SELECT_KEY} ${accountId ? 'WHERE k.account_id = $1' : ''} ORDER BY k.id`,
    accountId ? [accountId] : [],
  );
  return rows.map(({ key_hash: _h, ...r }) => r);
}

export async function revokeApiKey(db: Queryable, id: string): Promise<ApiKeyRecord | null> {
  const rows = await db.query<{ id: string }>('UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING id', [
    id,
  ]);
  if (rows.length === 0) return null;
  return (await listApiKeys(db)).find((k) => k.id === id) ?? null;
}

/** The keys of one account and environment, newest first (keyset pages on the time-sortable id). */
export async function pageApiKeys(
  db: Queryable,
  tenant: { accountId: string; environment: Environment },
  page: { limit?: number; cursor?: string },
): Promise<{ data: ApiKeyRecord[]; next_cursor: string | null }> {
  return paginate<ApiKeyRecord & Record<string, unknown>>(db, tenant, {
    from: 'api_keys',
    name: 'api_keys',
    columns: `id, account_id, environment, name, display, scopes, rate_limit_per_minute, null::int AS account_rate_limit_per_minute,
      created_at, revoked_at, last_used_at, created_by_type, created_by_id`,
    limit: page.limit,
    cursor: page.cursor,
  });
}

/** One key of the account and environment, or null (another tenant's key is not found). */
export async function getTenantApiKey(
  db: Queryable,
  tenant: { accountId: string; environment: Environment },
  id: string,
): Promise<ApiKeyRecord | null> {
  const rows = await db.query<ApiKeyRecord & { key_hash?: string }>(
    `${SELECT_KEY} WHERE k.id = $1 AND k.account_id = $2 AND k.environment = $3`,
    [id, tenant.accountId, tenant.environment],
  );
  const row = rows[0];
  if (!row) return null;
  const { key_hash: _h, ...record } = row;
  return record;
}

/**
 * Revokes one key of the account and environment, locking its row so two revocations agree on the
 * time. Returns the record before and after (`before.revoked_at` set: it was already revoked), or null.
 */
export async function revokeTenantApiKey(
  tx: Queryable,
  tenant: { accountId: string; environment: Environment },
  id: string,
): Promise<{ before: ApiKeyRecord; after: ApiKeyRecord } | null> {
  const locked = await tx.query<{ id: string }>(
    'SELECT id FROM api_keys WHERE id = $1 AND account_id = $2 AND environment = $3 FOR UPDATE',
    [id, tenant.accountId, tenant.environment],
  );
  if (locked.length === 0) return null;
  const before = (await getTenantApiKey(tx, tenant, id))!;
  if (!before.revoked_at) await tx.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [id]);
  return { before, after: (await getTenantApiKey(tx, tenant, id))! };
}

/**
 * Finds the key record for a presented key. The lookup is by SHA-256 (an index lookup cannot be
 * constant-time), then the stored and computed hashes are compared with timingSafeEqual so that
 * a near-miss on the index never shortcuts differently from a hit.
 */
export async function findActiveKey(db: Queryable, presented: string): Promise<ApiKeyRecord | null> {
  if (!environmentOfKey(presented)) return null;
  const hash = hashKey(presented);
  const rows = await db.query<ApiKeyRecord & { key_hash: string }>(`${SELECT_KEY} WHERE k.key_hash = $1`, [hash]);
  const row = rows[0];
  if (!row) return null;
  const a = Buffer.from(row.key_hash, 'hex');
  const b = Buffer.from(hash, 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  if (row.revoked_at) return null;
  const { key_hash: _h, ...record } = row;
  return record;
}
