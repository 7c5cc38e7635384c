import type { Redis } from 'ioredis';

export interface RateLimitResult {
  limit: number;
  remaining: number;
  /** Unix time (seconds) at which the current window ends. */
  resetAt: number;
  allowed: boolean;
  retryAfterSeconds: number;
}

/** Counts requests per key in fixed one-minute windows. */
export interface RateLimiter {
  hit(key: string, limit: number, now?: number): Promise<RateLimitResult>;
  close(): Promise<void>;
}

const WINDOW_MS = 60_000;

function result(count: number, limit: number, windowStart: number, now: number): RateLimitResult {
  const resetMs = windowStart + WINDOW_MS;
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetAt: Math.ceil(resetMs / 1000),
    allowed: count <= limit,
    retryAfterSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
  };
}

/** One process's own counters: correct for a single instance, per-instance when several run. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly counters = new Map<string, { window: number; count: number }>();
  async hit(key: string, limit: number, now = Date.now()): Promise<RateLimitResult> {
    const windowStart = now - (now % WINDOW_MS);
    let c = this.counters.get(key);
    if (!c || c.window !== windowStart) {
      if (this.counters.size > 100_000) this.counters.clear();
      c = { window: windowStart, count: 0 };
      this.counters.set(key, c);
    }
    c.count++;
    return result(c.count, limit, windowStart, now);
  }
  async close(): Promise<void> {}
}

/** Shared counters in Redis so every API process enforces one limit per key. */
export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly redis: Redis) {}
  async hit(key: string, limit: number, now = Date.now()): Promise<RateLimitResult> {
    const windowStart = now - (now % WINDOW_MS);
    const redisKey = `verity:rl:${key}:${windowStart}`;
    const replies = await this.redis.multi().incr(redisKey).pexpire(redisKey, WINDOW_MS * 2).exec();
    const count = Number(replies?.[0]?.[1] ?? 0);
    return result(count, limit, windowStart, now);
  }
  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

export async function createRateLimiter(redisUrl: string | null): Promise<RateLimiter> {
  if (!redisUrl) return new MemoryRateLimiter();
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: true });
  await redis.connect();
  return new RedisRateLimiter(redis);
}
