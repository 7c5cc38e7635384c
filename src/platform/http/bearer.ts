/**
 * Reads `Authorization: Bearer <token>`, the one parser for API keys (/v1) and session tokens
 * (/capture/v1): the scheme is case-insensitive, one token, surrounding spaces allowed.
 */
export type BearerResult = { ok: true; token: string } | { ok: false; problem: 'missing' | 'malformed' };

export function parseBearer(header: unknown): BearerResult {
  if (header === undefined || header === null || header === '') return { ok: false, problem: 'missing' };
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? { ok: true, token: match[1]! } : { ok: false, problem: 'malformed' };
}
