import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDb } from '../../test/helpers/test-db.js';
import type { Db } from './db.js';
import { Sealer } from './crypto.js';
import { claimKey, type ClaimOptions } from './idempotency.js';

let db: Db;
let close: () => Promise<void>;
before(async () => ({ db, close } = await createTestDb()));
after(() => close());

const opts = (key: string, o: Partial<ClaimOptions> = {}): ClaimOptions => ({
  accountId: 'acct_i',
  environment: 'sandbox',
  key,
  fingerprint: 'fp',
  retentionHours: 1,
  serialize: (r) => ({ status: 201, body: JSON.stringify(r) }),
  sealer: new Sealer(Buffer.alloc(32, 3)),
  ...o,
});

test('a live holder renews its lease, so a long request keeps its key past the lease length', async () => {
  const first = await claimKey(db, opts('long', { leaseSeconds: 2, renewEveryMs: 100 }));
  assert.equal(first.kind, 'claimed');
  await sleep(3500);
  const second = await claimKey(db, opts('long', { leaseSeconds: 2 }));
  assert.equal(second.kind, 'in_progress');
  if (second.kind === 'in_progress')
    assert.ok(second.retryAfterSeconds >= 1 && second.retryAfterSeconds <= 2, `${second.retryAfterSeconds}`);
  if (first.kind === 'claimed') await first.binding.release();
});

test('a holder that died (no renewal) frees the key when its short lease lapses', async () => {
  const first = await claimKey(db, opts('dead', { leaseSeconds: 1, renewEveryMs: 60_000 }));
  assert.equal(first.kind, 'claimed');
  if (first.kind === 'claimed') first.binding.stop(); // the process is gone: nobody renews
  const busy = await claimKey(db, opts('dead', { leaseSeconds: 1 }));
  assert.equal(busy.kind, 'in_progress');
  await sleep(1200);
  const taken = await claimKey(db, opts('dead', { leaseSeconds: 1 }));
  assert.equal(taken.kind, 'claimed');
  if (taken.kind === 'claimed') await taken.binding.release();
});

test('the default lease is seconds, not minutes, and the 409 tells when to retry', async () => {
  const first = await claimKey(db, opts('default'));
  assert.equal(first.kind, 'claimed');
  const busy = await claimKey(db, opts('default'));
  assert.equal(busy.kind, 'in_progress');
  if (busy.kind === 'in_progress') assert.ok(busy.retryAfterSeconds >= 1 && busy.retryAfterSeconds <= 15, `${busy.retryAfterSeconds}`);
  const [row] = await db.query<{ s: number }>(
    "SELECT extract(epoch FROM locked_until - now())::float8 AS s FROM idempotency_keys WHERE key = 'default'",
  );
  assert.ok(row!.s <= 15, `lease ${row!.s} s`);
  if (first.kind === 'claimed') await first.binding.release();
});
