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
export async function sessionForToken(db: Queryable, token: string): Promise<{ id: string; account_id: string; environment: 'sandbox' | 'production'; status: string } | null> {
  if (!token.startsWith(SESSION_TOKEN_PREFIX)) return null;
  const rows = await db.query<{ id: string; account_id: string; environment: 'sandbox' | 'production'; status: string }>(
    `SELECT id, account_id, environment, status FROM sessions
     WHERE token_hash = $1 AND token_expires_at > now() AND expires_at > now() AND status IN ('created', 'awaiting_subject')`,
    [hashSessionToken(token)],
  );
  return rows[0] ?? null;
}
