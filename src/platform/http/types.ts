import type { RequestContext } from '../context.js';
import type { Scope } from '../scopes.js';
import type { KeyCache } from '../key-cache.js';

declare module 'fastify' {
  interface FastifyInstance {
    keyCache: KeyCache;
  }
  interface FastifyRequest {
    /** Set for authenticated routes by the auth hook. */
    ctx: RequestContext;
    idempotencyKey?: string;
    idempotencyFingerprint?: string;
  }
  interface FastifyContextConfig {
    /** Scope the route requires; every /v1 route must name one. */
    scope?: Scope;
    /** Routes outside the API key scheme (health, docs, hosted pages). */
    public?: boolean;
    /**
     * 'in-transaction': a POST whose whole work is one short `withTransaction` claims its Idempotency-Key
     * in that transaction (one commit per request) instead of in a transaction of its own before the
     * handler runs (src/platform/idempotency.ts, claimInTransaction).
     */
    idempotency?: 'in-transaction';
    /**
     * 'principal': an Idempotency-Key is replayed only to the principal (key or operator) that used it
     * first; another principal with the same key and body gets the mismatch 400. For responses holding
     * a secret shown once (POST /v1/api-keys), so a replay never hands it to someone else.
     */
    idempotencyScope?: 'principal';
  }
}

export {};
