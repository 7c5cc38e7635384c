import type { Redis } from 'ioredis';

export interface RateLimitResult {
  limit: number;
  remaining: number;
  /** Unix time (seconds) by which, with no further requests, the whole limit is available again. */
  resetAt: number;
  allowed: boolean;
  /** When not allowed: seconds until one more request fits (at least 1). 0 when allowed. */
  retryAfterSeconds: number;
}

/**
 * Counts requests per key over a sliding minute, approximated from two fixed one-minute counters: the
 * current minute's count plus the previous minute's weighted by the share of it still inside the last
 * 60 seconds. Plain fixed windows let twice the limit through around a boundary (a full window just
 * before it, another just after) and judge the same burst differently depending on when it comes;
 * this does neither, at the cost of two counters per key. Only allowed requests are counted, so a
 * client that keeps retrying while limited is not kept out for longer.
 */
export interface RateLimiter {
  hit(key: string, limit: number, now?: number): Promise<RateLimitResult>;
  close(): Promise<void>;
  /** Where the counters live right now, for readiness and metrics (shared: Redis; local: this process). */
  health?(): RateLimiterHealth;
}

export interface RateLimiterHealth {
  backend: 'memory' | 'redis';
  /** With Redis: whether it answers; while it does not, limits are counted per process. */
  redis: 'ok' | 'unavailable' | null;
  /** Requests decided by the in-process fallback since start (Redis down or too slow). */
  fallbacks: number;
}

const WINDOW_MS = 60_000;

/**
 * The decision for one more request, given the previous and current minutes' counts of allowed requests
 * (before this one). Pure, so both limiters decide alike and the arithmetic is tested on its own.
 */
export function slidingWindowDecision(previous: number, current: number, limit: number, now: number): RateLimitResult {
  const windowStart = now - (now % WINDOW_MS);
  const weight = 1 - (now - windowStart) / WINDOW_MS; // share of the previous minute still inside the last 60 s
  const used = previous * weight + current;
  const allowed = used + 1 <= limit;
  const usedAfter = allowed ? used + 1 : used;
  // With no more requests the budget is whole again once both counted minutes have slid out.
  const currentAfter = allowed ? current + 1 : current;
  const resetMs = currentAfter > 0 ? windowStart + 2 * WINDOW_MS : windowStart + WINDOW_MS;
  return {
    limit,
    remaining: Math.max(0, Math.floor(limit - usedAfter)),
    resetAt: Math.ceil(resetMs / 1000),
    allowed,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((nextAllowedAt(previous, current, limit, windowStart) - now) / 1000)),
  };
}

/** The earliest time one more request fits: the weighted previous minute must decay, or the next minute begin. */
function nextAllowedAt(previous: number, current: number, limit: number, windowStart: number): number {
  // Within this minute: previous * (1 - f) + current + 1 <= limit.
  const room = limit - current - 1;
  if (room >= 0 && previous > 0) return windowStart + Math.ceil((1 - room / previous) * WINDOW_MS);
  // In the next minute this minute's count is the previous one: current * (1 - f) + 1 <= limit.
  if (current === 0 || limit - 1 >= current) return windowStart + WINDOW_MS;
  return windowStart + WINDOW_MS + Math.ceil((1 - (limit - 1) / current) * WINDOW_MS);
}

/** One process's own counters: correct for a single instance, per-instance when several run. */
export class MemoryRateLimiter implements RateLimiter {
  health(): RateLimiterHealth {
    return { backend: 'memory', redis: null, fallbacks: 0 };
  }

  private readonly counters = new Map<string, { window: number; count: number; previous: number }>();
  async hit(key: string, limit: number, now = Date.now()): Promise<RateLimitResult> {
    const windowStart = now - (now % WINDOW_MS);
    let c = this.counters.get(key);
    if (!c || c.window !== windowStart) {
      if (this.counters.size > 100_000) this.counters.clear();
      const previous = c && c.window === windowStart - WINDOW_MS ? c.count : 0;
      c = { window: windowStart, count: 0, previous };
      this.counters.set(key, c);
    }
    const r = slidingWindowDecision(c.previous, c.count, limit, now);
    if (r.allowed) c.count++;
    return r;
  }
  async close(): Promise<void> {}
}

/**
 * Shared counters in Redis so every API process enforces one limit per key. One round trip: a script
 * reads both minutes, decides with the same arithmetic, and counts the request only when it is allowed.
 */
export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly redis: Redis) {
    // Sent by hash (EVALSHA) after the first call, with ioredis loading the script where it is missing.
    redis.defineCommand('verityRateHit', { numberOfKeys: 2, lua: SLIDING_HIT });
  }
  async hit(key: string, limit: number, now = Date.now()): Promise<RateLimitResult> {
    const windowStart = now - (now % WINDOW_MS);
    const current = `verity:rl:${key}:${windowStart}`;
    const previous = `verity:rl:${key}:${windowStart - WINDOW_MS}`;
    // The weighted sum is computed here in Lua from the same inputs slidingWindowDecision uses; the
    // decision is then recomputed in TypeScript from the counts the script saw, so headers match it.
    const run = (this.redis as unknown as { verityRateHit(...args: string[]): Promise<[number, number]> }).verityRateHit;
    const reply = await run.call(
      this.redis,
      current,
      previous,
      String(limit),
      String(now - windowStart),
      String(WINDOW_MS),
      String(WINDOW_MS * 2),
    );
    return slidingWindowDecision(Number(reply[0]), Number(reply[1]), limit, now);
  }
  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/** KEYS: current, previous minute. ARGV: limit, ms into the minute, window ms, expiry ms. Returns the counts before this request. */
const SLIDING_HIT = `
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
local prev = tonumber(redis.call('GET', KEYS[2]) or '0')
local used = prev * (1 - tonumber(ARGV[2]) / tonumber(ARGV[3])) + cur
if used + 1 <= tonumber(ARGV[1]) then
  redis.call('INCR', KEYS[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
return { prev, cur }
`;

/**
 * Redis with a fallback: a payment-grade API must keep answering when its rate-limit store does not.
 * Each decision waits at most `timeoutMs` for Redis; on an error or a timeout it is decided by this
 * process's own counters instead (each API process then limits on its own, so a key may get up to N
 * times its limit across N processes for the outage), Redis is left alone for `retryMs`, and the
 * fallback is counted and reported by readiness. Failing closed (503) was the alternative: it turns a
 * cache outage into a full outage of every authenticated route, which is worse for the integrator
 * than a looser limit for a few seconds.
 */
export class ResilientRateLimiter implements RateLimiter {
  private readonly local = new MemoryRateLimiter();
  private downUntil = 0;
  private fallbacks = 0;
  private lastError: unknown = null;

  constructor(
    private readonly shared: RateLimiter,
    private readonly opts: { timeoutMs?: number; retryMs?: number; onFallback?: (err: unknown) => void } = {},
  ) {}

  async hit(key: string, limit: number, now = Date.now()): Promise<RateLimitResult> {
    if (Date.now() < this.downUntil) return this.fallback(key, limit, now, null);
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`rate-limit store did not answer within ${this.opts.timeoutMs ?? 100} ms`)),
          this.opts.timeoutMs ?? 100,
        );
      });
      const r = await Promise.race([this.shared.hit(key, limit, now), timeout]);
      this.lastError = null;
      return r;
    } catch (err) {
      this.downUntil = Date.now() + (this.opts.retryMs ?? 2_000);
      return this.fallback(key, limit, now, err);
    } finally {
      clearTimeout(timer);
    }
  }

  private fallback(key: string, limit: number, now: number, err: unknown): Promise<RateLimitResult> {
    this.fallbacks++;
    if (err) {
      // Once per outage, not per request.
      if (this.lastError === null) this.opts.onFallback?.(err);
      this.lastError = err;
    }
    return this.local.hit(key, limit, now);
  }

  health(): RateLimiterHealth {
    return { backend: 'redis', redis: Date.now() < this.downUntil ? 'unavailable' : 'ok', fallbacks: this.fallbacks };
  }

  async close(): Promise<void> {
    await this.shared.close();
  }
}

export async function createRateLimiter(redisUrl: string | null, onFallback?: (err: unknown) => void): Promise<RateLimiter> {
  if (!redisUrl) return new MemoryRateLimiter();
  const { Redis } = await import('ioredis');
  // No offline queue and no retries per command: while Redis is away a command fails at once and the
  // fallback decides; the client reconnects in the background.
  const redis = new Redis(redisUrl, {
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    lazyConnect: true,
    retryStrategy: (n) => Math.min(200 * n, 2_000),
  });
  redis.on('error', () => undefined); // reported through the fallback, not as unhandled errors
  const limiter = new ResilientRateLimiter(new RedisRateLimiter(redis), { onFallback });
  // A Redis that is down at start does not stop the service; readiness reports it.
  await redis.connect().catch((err: unknown) => onFallback?.(err));
  return limiter;
}
