import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryRateLimiter, slidingWindowDecision } from './rate-limit.js';

const MIN = 60_000;
const T0 = 1_800_000_000_000 - (1_800_000_000_000 % MIN); // the start of a minute

test('within one minute: exactly the limit is allowed, remaining counts down, then 429 with the wait until the next minute', async () => {
  const l = new MemoryRateLimiter();
  const got = [];
  for (let i = 0; i < 4; i++) got.push(await l.hit('k', 3, T0 + 1000 + i));
  assert.deepEqual(
    got.map((r) => [r.allowed, r.remaining]),
    [
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ],
  );
  // The next minute carries this one's 3 at full weight at its start: one fits once 1/3 of it has passed.
  assert.equal(got[3]!.retryAfterSeconds, Math.ceil((MIN + MIN / 3 - 1003) / 1000));
  assert.equal(got[0]!.resetAt, (T0 + 2 * MIN) / 1000);
});

test('a full minute just before a boundary does not buy a second full minute just after it (fixed windows allowed 2x)', async () => {
  const l = new MemoryRateLimiter();
  let allowed = 0;
  for (let i = 0; i < 40; i++) if ((await l.hit('k', 40, T0 + MIN - 2000 + i * 10)).allowed) allowed++;
  assert.equal(allowed, 40);
  // 1 s after the boundary the previous minute still weighs 59/60: 40 * 59/60 = 39.3, so nothing fits.
  const after = await l.hit('k', 40, T0 + MIN + 1000);
  assert.equal(after.allowed, false);
  assert.equal(after.remaining, 0);
  // One fits once 40 * (1 - f) + 1 <= 40, i.e. f >= 1/40: 1.5 s into the minute.
  assert.equal(after.retryAfterSeconds, 1);
  assert.equal((await l.hit('k', 40, T0 + MIN + 1499)).allowed, false);
  assert.equal((await l.hit('k', 40, T0 + MIN + 1500)).allowed, true);
  // Half-way through the minute, half of the previous minute's 40 still counts: 20 - 1 more fit.
  let more = 0;
  for (let i = 0; i < 30; i++) if ((await l.hit('k', 40, T0 + MIN + 30_000 + i)).allowed) more++;
  assert.equal(more, 19);
});

test('rejected requests are not counted: a client retrying while limited is not kept out longer', async () => {
  const l = new MemoryRateLimiter();
  for (let i = 0; i < 5; i++) await l.hit('k', 5, T0 + i);
  for (let i = 0; i < 100; i++) assert.equal((await l.hit('k', 5, T0 + 100 + i)).allowed, false);
  // Next minute, 1/5 in: 5 * 4/5 = 4 used, one fits, exactly as without the 100 retries.
  assert.equal((await l.hit('k', 5, T0 + MIN + MIN / 5)).allowed, true);
  assert.equal((await l.hit('k', 5, T0 + MIN + MIN / 5 + 1)).allowed, false);
});

test('keys are independent; a minute with no traffic forgets everything', async () => {
  const l = new MemoryRateLimiter();
  for (let i = 0; i < 3; i++) await l.hit('a', 3, T0 + i);
  assert.equal((await l.hit('a', 3, T0 + 10)).allowed, false);
  assert.equal((await l.hit('b', 3, T0 + 10)).allowed, true);
  const later = await l.hit('a', 3, T0 + 2 * MIN + 5);
  assert.deepEqual([later.allowed, later.remaining], [true, 2]);
});

test('the decision arithmetic: weights, remaining rounded down, the retry time inside and after the minute', () => {
  // 10 s into a minute: the previous minute weighs 5/6.
  const r = slidingWindowDecision(12, 0, 20, T0 + 10_000);
  assert.deepEqual([r.allowed, r.remaining], [true, 9]); // 12 * 5/6 + 1 = 11 used
  const full = slidingWindowDecision(12, 10, 20, T0 + 10_000); // 10 + 10 = 20 used: the next one does not fit
  assert.equal(full.allowed, false);
  // 12 * (1 - f) + 10 + 1 <= 20 → f >= 1/4 → 15 s into the minute, 5 s from now.
  assert.equal(full.retryAfterSeconds, 5);
  // Over the limit within the minute alone: wait for the next minute, until 30 * (1 - f) + 1 <= 20.
  const over = slidingWindowDecision(0, 30, 20, T0 + 59_000);
  assert.equal(over.retryAfterSeconds, Math.ceil((1000 + Math.ceil((1 - 19 / 30) * MIN)) / 1000));
  assert.equal(slidingWindowDecision(0, 0, 1, T0).allowed, true);
  // The approximation spreads a minute's requests evenly over it: a limit of 1 used at a minute's start
  // decays through the whole next minute (a true sliding log would free it after 60 s).
  assert.equal(slidingWindowDecision(0, 1, 1, T0).retryAfterSeconds, 120);
});
