import { setRateHeaders, UNAUTHENTICATED_LIMIT } from '../../platform/http/rate-headers.js';
import { parseBearer } from '../../platform/http/bearer.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db.js';
import type { RateLimiter } from '../../platform/rate-limit.js';
import { sendError } from '../../platform/http/error-handler.js';
import { sessionByToken, type TokenSession } from '../verifications/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session the capture API's bearer session token opened. */
    captureSession?: TokenSession;
  }
}

export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, PUT, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type',
  'access-control-expose-headers': 'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After',
  'access-control-max-age': '600',
};

/**
 * CORS for client SDKs on the customer's own domain (bearer tokens, no cookies, so `*` is safe), and
 * authentication by the session token: `Authorization: Bearer vst_…`. An API key, an unknown token,
 * an expired one or a deleted session's is 401; the token is never logged (the header is redacted).
 * Each token gets its own per-minute budget on the shared rate limiter.
 */
export function registerCaptureAuth(app: FastifyInstance, deps: { db: Db; rateLimiter: RateLimiter; ratePerMinute: number }): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(CORS_HEADERS);
    if (request.method === 'OPTIONS' || request.is404) return;
    const bearer = parseBearer(request.headers.authorization);
    const session = bearer.ok ? await sessionByToken(deps.db, bearer.token) : null;
    if (!session || session.token_expired) {
      const r = await deps.rateLimiter.hit(`ip:${request.ip}`, UNAUTHENTICATED_LIMIT);
      setRateHeaders(reply, r);
      if (!r.allowed)
        return sendError(reply, request, 'rate_limited', 'Too many unauthenticated requests from this address.', null, 429, {
          'retry-after': String(r.retryAfterSeconds),
        });
      const message =
        !bearer.ok && bearer.problem === 'missing'
          ? 'No session token: send Authorization: Bearer <session_token>.'
          : !bearer.ok
            ? 'The Authorization header must be "Bearer <session_token>".'
            : session?.token_expired
              ? 'The session token has expired; the session must be started again.'
              : 'The session token is not valid. The capture API accepts session tokens (vst_…), never API keys.';
      return sendError(reply, request, 'unauthenticated', message, null);
    }
    const r = await deps.rateLimiter.hit(`capture:${session.id}`, deps.ratePerMinute);
    setRateHeaders(reply, r);
    if (!r.allowed) {
      return sendError(
        reply,
        request,
        'rate_limited',
        `Rate limit of ${deps.ratePerMinute} requests per minute exceeded for this session.`,
        null,
        429,
        { 'retry-after': String(r.retryAfterSeconds) },
      );
    }
    request.captureSession = session;
    request.ctx = {
      db: deps.db,
      accountId: session.account_id,
      environment: session.environment,
      actor: { type: 'session_token', id: session.id },
      scopes: [],
      requestId: request.id,
    };
  });
}
