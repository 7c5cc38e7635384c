import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../platform/db.js';
import { sessions } from './repository.js';

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
  return sessions.waitingByTokenHash(db, hashSessionToken(token));
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
  return sessions.byTokenHash(db, hashSessionToken(token));
}
