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

test('dedupe keys keep one pending job per key', async () => {
  const a = await enqueueJob(db, 'sweep', {}, { dedupeKey: 'sweep' });
  const b = await enqueueJob(db, 'sweep', {}, { dedupeKey: 'sweep' });
  assert.ok(a);
  assert.equal(b, null);
});
