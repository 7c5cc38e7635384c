import { setRateHeaders, UNAUTHENTICATED_LIMIT } from './rate-headers.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../db.js';
import type { KeyCache } from '../key-cache.js';
import type { RateLimiter } from '../rate-limit.js';
import { hasScope } from '../scopes.js';
import { sendError, sendReplay } from './error-handler.js';
import { parseBearer } from './bearer.js';
import { IDEMPOTENCY_HEADER, claimInTransaction, claimKey, outcomeError, requestFingerprint, validateKey } from '../idempotency.js';
import type { Sealer } from '../crypto.js';
import type { Actor, Environment } from '../context.js';
import type { ErrorCode } from '../errors.js';

export interface AuthDeps {
  config: Config;
  db: Db;
  keys: KeyCache;
  rateLimiter: RateLimiter;
  sealer: Sealer;
  /** Console sessions: a request with the console cookie and no Authorization header is authenticated here. */
  console?: ConsoleGate;
}

/**
 * A second kind of principal on /v1: an operator signed in to the console (src/modules/console).
 * The gate checks the cookie, the CSRF header and the environment header; it answers a principal
 * like an API key's (tenant, environment, actor, scopes) or a refusal in the error envelope.
 */
export interface ConsoleGate {
  /** Whether this request carries the console cookie (and no Authorization header). */
  applies(request: FastifyRequest): boolean;
  resolve(
    request: FastifyRequest,
  ): Promise<
    | { ok: true; accountId: string; environment: Environment; actor: Actor; scopes: readonly string[]; rateKey: string }
    | { ok: false; code: ErrorCode; message: string; field: string | null }
  >;
}

/**
 * Authenticates /v1 routes, applies the per-key rate limit, enforces the route's scope and
 * binds Idempotency-Key handling. Routes marked `config.public` skip all of it.
 */
export function registerAuth(app: FastifyInstance, deps: AuthDeps): void {
  /**
   * An unknown route still carries the rate-limit headers (the spec puts them on every response) and
   * still counts: against the key when one is valid, else against the client address, so probing for
   * routes is limited like guessing keys.
   */
  const keyOf = async (request: FastifyRequest) => {
    const bearer = parseBearer(request.headers.authorization);
    return { bearer, record: bearer.ok ? await deps.keys.lookup(bearer.token) : null };
  };
  /** Counts the request against its key, or its client address without one, and sets the headers. */
  const limit = async (request: FastifyRequest, reply: FastifyReply, record: Awaited<ReturnType<typeof keyOf>>['record']) => {
    const perMinute = record
      ? (record.rate_limit_per_minute ?? record.account_rate_limit_per_minute ?? deps.config.rateLimit.defaultPerMinute)
      : UNAUTHENTICATED_LIMIT;
    const r = await deps.rateLimiter.hit(record ? `key:${record.id}` : `ip:${request.ip}`, perMinute);
    setRateHeaders(reply, r);
    return { r, perMinute };
  };
  const limited = (request: FastifyRequest, reply: FastifyReply, message: string, retryAfterSeconds: number) =>
    sendError(reply, request, 'rate_limited', message, null, 429, { 'retry-after': String(retryAfterSeconds) });

  /**
   * An unknown route still carries the rate-limit headers (the spec puts them on every response) and
   * still counts: against the key when one is valid, else against the client address, so probing for
   * routes is limited like guessing keys.
   */
  const limitUnknownRoute = async (request: FastifyRequest, reply: FastifyReply) => {
    const { r } = await limit(request, reply, (await keyOf(request)).record);
    if (!r.allowed) return limited(request, reply, 'Too many requests.', r.retryAfterSeconds);
  };

  /** A /v1 request made by the console as its signed-in operator: same limits, scopes and audit as a key. */
  const consoleRequest = async (request: FastifyRequest, reply: FastifyReply, gate: ConsoleGate) => {
    const who = await gate.resolve(request);
    const perMinute = who.ok ? deps.config.rateLimit.defaultPerMinute : UNAUTHENTICATED_LIMIT;
    const r = await deps.rateLimiter.hit(who.ok ? who.rateKey : `ip:${request.ip}`, perMinute);
    setRateHeaders(reply, r);
    if (!r.allowed) return limited(request, reply, `Rate limit of ${perMinute} requests per minute exceeded.`, r.retryAfterSeconds);
    if (!who.ok) return sendError(reply, request, who.code, who.message, who.field);
    request.ctx = {
      db: deps.db,
      accountId: who.accountId,
      environment: who.environment,
      actor: who.actor,
      scopes: who.scopes,
      requestId: request.id,
    };
    const needed = request.routeOptions.config.scope;
    if (needed && !hasScope(who.scopes, needed)) {
      return sendError(
        reply,
        request,
        'insufficient_scope',
        `This operator's role lacks the ${needed} scope needed for this operation.`,
        null,
      );
    }
  };

  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { scope?: string; public?: boolean };
    if (route.url.startsWith('/v1') && !config.scope && !config.public) {
      throw new Error(`route ${String(route.method)} ${route.url} must declare config.scope (or config.public)`);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return limitUnknownRoute(request, reply);
    if (request.routeOptions.config.public || !request.url.startsWith('/v1')) return;
    if (deps.console?.applies(request)) return consoleRequest(request, reply, deps.console);
    const { bearer, record } = await keyOf(request);
    const { r, perMinute } = await limit(request, reply, record);
    if (!record) {
      if (!r.allowed) return limited(request, reply, 'Too many unauthenticated requests from this address.', r.retryAfterSeconds);
      const message =
        !bearer.ok && bearer.problem === 'missing'
          ? 'No API key: send Authorization: Bearer <key>.'
          : !bearer.ok
            ? 'The Authorization header must be "Bearer <key>".'
            : 'The API key is not valid or has been revoked.';
      return sendError(reply, request, 'unauthenticated', message, null);
    }
    if (!r.allowed)
      return limited(request, reply, `Rate limit of ${perMinute} requests per minute exceeded for this key.`, r.retryAfterSeconds);
    request.ctx = {
      db: deps.db,
      accountId: record.account_id,
      environment: record.environment,
      actor: { type: 'api_key', id: record.id },
      scopes: record.scopes,
      requestId: request.id,
    };
    const needed = request.routeOptions.config.scope;
    if (needed && !hasScope(record.scopes, needed)) {
      return sendError(reply, request, 'insufficient_scope', `This API key lacks the ${needed} scope needed for this operation.`, null);
    }
  });

  app.addHook('preHandler', async (request: FastifyRequest, reply) => {
    if (request.method !== 'POST' || !request.ctx) return;
    const raw = request.headers[IDEMPOTENCY_HEADER];
    if (raw === undefined) return;
    const key = validateKey(raw);
    const path = request.url.split('?')[0]!;
    const principal =
      request.routeOptions.config.idempotencyScope === 'principal' ? ` ${request.ctx.actor.type}:${request.ctx.actor.id}` : '';
    const fingerprint = requestFingerprint(request.method, path + principal, request.body);
    request.idempotencyKey = key;
    request.idempotencyFingerprint = fingerprint;
    const claimOptions = {
      accountId: request.ctx.accountId,
      environment: request.ctx.environment,
      key,
      fingerprint,
      retentionHours: deps.config.idempotencyRetentionHours,
      serialize: (result: unknown) => serializeOnce(reply, result),
      sealer: deps.sealer,
    };
    if (request.routeOptions.config.idempotency === 'in-transaction') {
      request.ctx.idempotency = claimInTransaction(deps.db, claimOptions);
      return;
    }
    const claim = await claimKey(deps.db, claimOptions);
    switch (claim.kind) {
      case 'replay':
        return sendReplay(reply, claim);
      case 'mismatch':
      case 'in_progress':
        throw outcomeError(claim);
      case 'claimed':
        request.ctx.idempotency = claim.binding;
    }
  });

  // Settles a claimed key once the response is known: a failure frees it for a corrected retry;
  // a success that no transaction recorded (a search, a preview) is stored now.
  app.addHook('onSend', async (request, reply, payload) => {
    const binding = request.ctx?.idempotency;
    if (!binding || reply.getHeader('idempotent-replayed')) return payload;
    // release() only frees a key still 'running': a response a committed transaction recorded stays.
    if (reply.statusCode >= 300) await binding.release();
    else if (!binding.settled && typeof payload === 'string') await binding.storeResponse(reply.statusCode, payload);
    return payload;
  });
  app.addHook('onResponse', async (request) => {
    request.ctx?.idempotency?.stop();
  });
}

/**
 * The response serialised once: the bytes stored for the Idempotency-Key are the bytes sent. Until the reply
 * goes out, sending the same object at the same status sends those bytes; anything else (an error, a replay)
 * is serialised as Fastify would.
 */
function serializeOnce(reply: FastifyReply, result: unknown): { status: number; body: string } {
  const status = reply.statusCode;
  const body = reply.serialize(result) as string;
  reply.type('application/json; charset=utf-8').serializer((payload: unknown) => {
    if (payload === result && reply.statusCode === status) return body;
    if (typeof payload === 'string') return payload;
    // Fastify's own serialiser (the route's response schema for the status) from here on.
    reply.serializer(null as unknown as (payload: unknown) => string);
    return reply.serialize(payload) as string;
  });
  return { status, body };
}
