import type { FastifyReply } from 'fastify';
import type { RateLimitResult } from '../rate-limit.js';

/** Requests that fail authentication are limited per client address, which slows key and token guessing. */
export const UNAUTHENTICATED_LIMIT = 600;

/** The spec's rate-limit headers, on every response of the API and the capture API. */
export function setRateHeaders(reply: FastifyReply, r: RateLimitResult): void {
  reply.header('x-ratelimit-limit', String(r.limit));
  reply.header('x-ratelimit-remaining', String(r.remaining));
  reply.header('x-ratelimit-reset', String(r.resetAt));
}
