import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../platform/db.js';

/** Prefix of client session tokens; distinct from API keys so the API's auth never accepts one. */
export const SESSION_TOKEN_PREFIX = 'vst_';

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new token (256 bits) and its hash; only the hash is stored. */
export function issueSessionToken(): { token: string; hash: string } {
  const token = SESSION_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, hash: hashSessionToken(token) };
}

/**
 * For the hosted page and SDK capture endpoints: the session a token opens, if the token is
 * current and the session still waits on the subject. A token never authenticates /v1 API routes.
 */
export async function sessionForToken(
  db: Queryable,
  token: string,
): Promise<{ id: string; account_id: string; environment: 'sandbox' | 'production'; status: string } | null> {
  if (!token.startsWith(SESSION_TOKEN_PREFIX)) return null;
  const rows = await db.query<{ id: string; account_id: string; environment: 'sandbox' | 'production'; status: string }>(
    `SELECT id, account_id, environment, status FROM sessions
     WHERE token_hash = $1 AND token_expires_at > now() AND expires_at > now() AND status IN ('created', 'awaiting_subject')`,
    [hashSessionToken(token)],
  );
  return rows[0] ?? null;
}

export interface TokenSession {
  id: string;
  account_id: string;
  environment: 'sandbox' | 'production';
  /** As a reader sees it: a waiting session past expires_at reads as expired or abandoned. */
  status: string;
  token_expired: boolean;
}

/**
 * For the capture API: the session a token belongs to, whatever its status, so the subject's page
 * can follow a submitted session until the token expires (`token_expired` then says so). Uploads and
 * submission still require awaiting_subject; deleted sessions open nothing.
 */
export async function sessionByToken(db: Queryable, token: string): Promise<TokenSession | null> {
  if (!token.startsWith(SESSION_TOKEN_PREFIX)) return null;
  const rows = await db.query<TokenSession>(
    `SELECT id, account_id, environment,
       CASE WHEN status IN ('created', 'awaiting_subject') AND expires_at <= now()
         THEN CASE WHEN capture_started_at IS NULL THEN 'expired' ELSE 'abandoned' END ELSE status END AS status,
       token_expires_at <= now() AS token_expired
     FROM sessions WHERE token_hash = $1 AND deleted_at IS NULL`,
    [hashSessionToken(token)],
  );
  return rows[0] ?? null;
}
