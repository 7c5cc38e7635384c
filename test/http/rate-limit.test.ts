import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { MemoryRateLimiter, RedisRateLimiter, createRateLimiter } from '../../src/platform/rate-limit.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

test('every API response carries the rate-limit headers; the limit is per key and per plan', async () => {
  const o = await t.tenant({ rateLimitPerMinute: 3 });
  const statuses: number[] = [];
  let last;
  for (let i = 0; i < 4; i++) {
    last = await t.call('GET', '/v1/lists/blocklist/entries', { key: o.sandboxKey });
    statuses.push(last.statusCode);
    assert.equal(last.headers['x-ratelimit-limit'], '3');
    assert.ok(Number(last.headers['x-ratelimit-reset']) > Date.now() / 1000);
  }
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  assert.equal(last!.headers['x-ratelimit-remaining'], '0');
  assert.equal(last!.json().error.code, 'rate_limited');
  const retry = Number(last!.headers['retry-after']);
  // The sliding minute (platform/rate-limit.ts): the wait is at most the rest of this minute plus the next one.
  assert.ok(retry >= 1 && retry <= 120, String(retry));
  // Another key of the same account has its own count.
  const other = await o.keyWith(['lists:read']);
  assert.equal((await t.call('GET', '/v1/lists/blocklist/entries', { key: other })).statusCode, 200);
});

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
async function redisReachable(): Promise<boolean> {
  try {
    const l = await Promise.race([
      createRateLimiter(redisUrl),
      new Promise<never>((_, r) => setTimeout(() => r(new Error('timeout')), 1500)),
    ]);
    await l.close();
    return true;
  } catch {
    return false;
  }
}

test('with Redis, two processes share one count per key', async (ctx) => {
  if (!(await redisReachable())) return ctx.skip(`Redis not reachable at ${redisUrl}`);
  const key = `test-${process.pid}-${Date.now()}`;
  // Two separate Node processes each take 30 hits against a limit of 50 on the same key.
  const child = () =>
    new Promise<number[]>((resolve, reject) => {
      const script = `
        import { createRateLimiter } from './src/platform/rate-limit.ts';
        const l = await createRateLimiter(${JSON.stringify(redisUrl)});
        const out = [];
        for (let i = 0; i < 30; i++) out.push((await l.hit(${JSON.stringify(key)}, 50)).allowed ? 1 : 0);
        await l.close();
        console.log(JSON.stringify(out));`;
      const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd() });
      let out = '';
      p.stdout.on('data', (d) => (out += d));
      p.on('error', reject);
      p.on('close', (code) =>
        code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`child exited ${code}`)),
      );
    });
  const [a, b] = await Promise.all([child(), child()]);
  const allowed = [...a, ...b].reduce((s, x) => s + x, 0);
  assert.equal(allowed, 50, 'exactly the limit is allowed across both processes');
  const l = (await createRateLimiter(redisUrl)) as RedisRateLimiter;
  const r = await l.hit(key, 50);
  assert.equal(r.allowed, false);
  await l.close();
});

test('with Redis, the limit slides over the minute boundary exactly as the in-memory limiter does', async (ctx) => {
  if (!(await redisReachable())) return ctx.skip(`Redis not reachable at ${redisUrl}`);
  const redis = (await createRateLimiter(redisUrl)) as RedisRateLimiter;
  const memory = new MemoryRateLimiter();
  const key = `test-slide-${process.pid}-${Date.now()}`;
  // A minute in the past, so nothing else writes these counters; the limiter takes its clock as an argument.
  const t0 = Date.now() - 10 * 60_000 - (Date.now() % 60_000);
  const times = [
    ...Array.from({ length: 45 }, (_, i) => t0 + 58_000 + i * 10),
    t0 + 61_000,
    t0 + 61_499,
    t0 + 61_500,
    t0 + 61_501,
    ...Array.from({ length: 25 }, (_, i) => t0 + 90_000 + i),
  ];
  try {
    for (const now of times) {
      const [a, b] = [await redis.hit(key, 40, now), await memory.hit(key, 40, now)];
      assert.deepEqual(a, b, `at +${now - t0} ms`);
    }
  } finally {
    await redis.close();
  }
});
