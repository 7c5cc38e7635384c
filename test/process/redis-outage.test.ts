import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRateLimiter } from '../../src/platform/rate-limit.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A Redis of the test's own (on a free loopback port) goes away mid-traffic: authenticated requests keep
 * answering, quickly, with limits counted in the process; readiness says so; when Redis returns, the
 * shared counters are used again.
 */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

let redis: ChildProcess | null = null;
let t: TestApp | null = null;
let limiter: Awaited<ReturnType<typeof createRateLimiter>> | null = null;
const startRedis = async (port: number) => {
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; i < 50; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const sock = connect(port, '127.0.0.1', () => (sock.end(), resolve(true)));
      sock.on('error', () => resolve(false));
    });
    if (ok) return;
    await sleep(100);
  }
  throw new Error('redis-server did not start');
};
const stopRedis = async () => {
  if (!redis) return;
  const r = redis;
  redis = null;
  await new Promise((resolve) => (r.once('exit', resolve), r.kill('SIGKILL')));
};
after(async () => {
  await t?.close();
  await limiter?.close();
  await stopRedis();
});

test(
  'Redis stops: requests still answer, limits per process, readiness reports it',
  { skip: existsSync('/usr/bin/redis-server') ? false : 'needs the redis-server binary (Debian redis-server)' },
  async () => {
    const port = await freePort();
    await startRedis(port);
    const fallbacks: unknown[] = [];
    limiter = await createRateLimiter(`redis://127.0.0.1:${port}`, (err) => fallbacks.push(err));
    t = await createTestApp({ rateLimiter: limiter });
    const o = await t.tenant({ rateLimitPerMinute: 1000 });
    const get = () => t!.call('GET', '/v1/lists/blocklist/entries', { key: o.sandboxKey });

    const before = await get();
    assert.equal(before.statusCode, 200);
    assert.equal(before.headers['x-ratelimit-remaining'], '999');
    let ready = (await t.app.inject({ method: 'GET', url: '/readyz' })).json();
    assert.deepEqual(ready.rate_limits, { backend: 'redis', redis: 'ok', fallbacks: 0 });

    await stopRedis();
    const during = await get();
    assert.equal(during.statusCode, 200, during.body);
    assert.ok(during.headers['x-ratelimit-limit'], 'limits still apply, counted in this process');
    ready = (await t.app.inject({ method: 'GET', url: '/readyz' })).json();
    assert.equal(ready.status, 'ready');
    assert.equal(ready.rate_limits.redis, 'unavailable');
    assert.ok(ready.rate_limits.fallbacks >= 1);
    assert.equal(fallbacks.length, 1, 'the outage is reported once, not per request');
    for (let i = 0; i < 5; i++) assert.equal((await get()).statusCode, 200);

    // Redis comes back on the same port: after the retry pause the shared counters decide again.
    await startRedis(port);
    let back = false;
    for (let i = 0; i < 40 && !back; i++) {
      await sleep(250);
      await get();
      back = (await t.app.inject({ method: 'GET', url: '/readyz' })).json().rate_limits.redis === 'ok';
    }
    assert.ok(back, 'Redis is used again once it answers');
  },
);
