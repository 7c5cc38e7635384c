import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../../test/helpers/test-db.js';
import type { Db } from './db.js';
import { JobRunner, backoffMs, enqueueJob } from './jobs.js';

let db: Db;
let close: () => Promise<void>;
before(async () => ({ db, close } = await createTestDb()));
after(() => close());

test('backoff grows exponentially with jitter and is capped', () => {
  assert.equal(
    backoffMs(1, 1000, 60_000, () => 0),
    500,
  );
  assert.equal(
    backoffMs(1, 1000, 60_000, () => 1),
    1000,
  );
  assert.equal(
    backoffMs(4, 1000, 60_000, () => 1),
    8000,
  );
  assert.equal(
    backoffMs(30, 1000, 60_000, () => 1),
    60_000,
  );
});

test('two runners on one database never run the same job', async () => {
  const seen: string[] = [];
  for (let i = 0; i < 40; i++) await enqueueJob(db, 'count', { i });
  const handler = async (job: { payload: Record<string, unknown> }) => {
    seen.push(String(job.payload.i));
    await new Promise((r) => setTimeout(r, 2));
  };
  const a = new JobRunner({ db, handlers: { count: handler }, concurrency: 3, workerId: 'a' });
  const b = new JobRunner({ db, handlers: { count: handler }, concurrency: 3, workerId: 'b' });
  await Promise.all([a.drain(), b.drain()]);
  assert.equal(seen.length, 40);
  assert.equal(new Set(seen).size, 40);
  const [row] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE queue = 'count' AND state = 'done'");
  assert.equal(row!.n, 40);
});

test('a failing job is retried later and marked failed after max attempts', async () => {
  let calls = 0;
  await enqueueJob(db, 'flaky', {}, { maxAttempts: 2 });
  const fail = new JobRunner({
    db,
    handlers: {
      flaky: async () => {
        calls++;
        throw new Error('boom');
      },
    },
  });
  await fail.runOnce();
  await fail.drain();
  assert.equal(calls, 1);
  const [j] = await db.query<{ state: string; attempts: number; last_error: string }>(
    "SELECT state, attempts, last_error FROM jobs WHERE queue = 'flaky'",
  );
  assert.equal(j!.state, 'queued');
  assert.equal(j!.last_error, 'boom');
  await db.query("UPDATE jobs SET run_at = now() WHERE queue = 'flaky'");
  await fail.drain();
  const [k] = await db.query<{ state: string; attempts: number }>("SELECT state, attempts FROM jobs WHERE queue = 'flaky'");
  assert.equal(k!.state, 'failed');
  assert.equal(k!.attempts, 2);
});

test('a job whose worker died is claimed again once its lease passes', async () => {
  await enqueueJob(db, 'lease', { n: 1 });
  const dead = new JobRunner({ db, handlers: { lease: async () => undefined }, workerId: 'dead', leaseMs: 60_000 });
  const claimed = await dead.claim(1);
  assert.equal(claimed.length, 1);
  const other = new JobRunner({ db, handlers: { lease: async () => undefined }, workerId: 'other' });
  assert.equal((await other.claim(1)).length, 0, 'still leased');
  await db.query("UPDATE jobs SET locked_until = now() - interval '1 second' WHERE queue = 'lease'");
  const again = await other.claim(1);
  assert.equal(again.length, 1);
  assert.equal(again[0]!.attempts, 2);
});

test('a job that runs longer than its lease is renewed, not run a second time alongside itself', async () => {
  await enqueueJob(db, 'long', { n: 1 });
  let runs = 0;
  let running = 0;
  let overlap = 0;
  const handler = async () => {
    runs++;
    running++;
    if (running > 1) overlap++;
    await new Promise((r) => setTimeout(r, 3_500));
    running--;
  };
  // A 1-second lease and a 3.5-second job: without renewal the runner itself claims it again after a second.
  const a = new JobRunner({ db, handlers: { long: handler }, concurrency: 2, workerId: 'long-a', leaseMs: 1_000, pollMs: 50 });
  const b = new JobRunner({ db, handlers: { long: handler }, concurrency: 2, workerId: 'long-b', leaseMs: 1_000, pollMs: 50 });
  a.start();
  b.start();
  await new Promise((r) => setTimeout(r, 5_000));
  await Promise.all([a.stop(), b.stop()]);
  assert.deepEqual({ runs, overlap }, { runs: 1, overlap: 0 });
  const [job] = await db.query<{ state: string; attempts: number }>("SELECT state, attempts FROM jobs WHERE queue = 'long'");
  assert.deepEqual(job, { state: 'done', attempts: 1 });
});

test('dedupe keys keep one pending job per key', async () => {
  const a = await enqueueJob(db, 'sweep', {}, { dedupeKey: 'sweep' });
  const b = await enqueueJob(db, 'sweep', {}, { dedupeKey: 'sweep' });
  assert.ok(a);
  assert.equal(b, null);
});
