import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../../test/helpers/test-db.js';
import { systemContext } from './context.js';
import { canSendWithNext, type Db, type Queryable } from './db.js';
import type { DeferringTx } from './transaction.js';
import { WriteBatcher } from './write-batch.js';

// Group commit on the database the suite runs on (PGlite, or PostgreSQL with TEST_DATABASE_URL): writes that arrive
// while another is in flight share one database transaction, each sees its own writes, and one member's failure
// costs nobody else their write.
let db: Db;
let close: () => Promise<void>;
/** Database transactions opened (each batch is one). */
let opened = 0;
before(async () => {
  ({ db, close } = await createTestDb());
  await db.query('CREATE TABLE wb_t (id text PRIMARY KEY, n int NOT NULL)');
  await db.query('CREATE TABLE wb_log (id text, what text)');
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (tx: Queryable) => Promise<unknown>) => {
    opened++;
    return transaction(fn);
  }) as Db['transaction'];
});
after(() => close());

/** Members whose function has started. */
const running = new Set<string>();
const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setImmediate(r));
};

const ctx = () => systemContext(db, 'acc_wb', 'sandbox');
/** The members' locks in one statement (the caller's, in an order of its choosing). */
const lockAll = (keys: readonly string[]) => ({
  sql: 'SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0))) FROM unnest($1::text[]) AS k',
  params: [keys],
});

/** A write as a request makes one: a row, a read of it back, a statement sent with the next one, deferred writes. */
function write(id: string, n: number, opts: { fail?: 'after_write' | 'duplicate'; gate?: Promise<void> } = {}) {
  return async (tx: DeferringTx) => {
    running.add(id);
    assert.ok(canSendWithNext(tx));
    const checked: unknown[][] = [];
    tx.sendWithNext('SELECT $1::text AS ahead', [id], (rows) => void checked.push(rows));
    await tx.query('INSERT INTO wb_t (id, n) VALUES ($1, $2)', [opts.fail === 'duplicate' ? 'taken' : id, n]);
    assert.deepEqual(checked, [[{ ahead: id }]], 'the statement sent with the next one was checked when that one answered');
    await opts.gate;
    const [mine] = await tx.query<{ n: number }>('SELECT n FROM wb_t WHERE id = $1', [id]);
    const [locks] = await tx.query<{ c: number }>(
      "SELECT count(*)::int AS c FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()",
    );
    tx.defer('INSERT INTO wb_log (id, what) VALUES ($1, $2)', [id, 'deferred']);
    tx.deferStatement('INSERT INTO wb_log (id, what) VALUES ($1, $2)', [id, 'own']);
    if (opts.fail === 'after_write') throw new Error(`member ${id} refuses`);
    return { id, n: mine?.n, locks: locks!.c };
  };
}

async function rows(prefix: string) {
  const t = await db.query<{ id: string; n: number }>('SELECT id, n FROM wb_t WHERE id LIKE $1 ORDER BY id', [`${prefix}%`]);
  const log = await db.query<{ id: string; what: string }>('SELECT id, what FROM wb_log WHERE id LIKE $1 ORDER BY id, what', [
    `${prefix}%`,
  ]);
  return { t, log };
}

test('writes arriving together commit together, in one database transaction, each seeing its own rows', async () => {
  const batcher = new WriteBatcher({ max: 32, concurrency: 1, lockAll });
  let before = opened;
  const alone = await batcher.run({ ctx: ctx(), fn: write('a0', 0), locks: ['lock a0'] });
  assert.deepEqual([alone.id, alone.n, opened - before], ['a0', 0, 1]);
  assert.equal(batcher.stats.batches, 0, 'alone, a write is withTransaction');
  // Five in the same turn: one batch. Then, while it is in flight, three more: the next batch.
  before = opened;
  let open = () => undefined as void;
  const gate = new Promise<void>((r) => (open = r));
  const first = [1, 2, 3, 4, 5].map((i) => batcher.run({ ctx: ctx(), fn: write(`a${i}`, i, { gate }), locks: [`lock a${i}`] }));
  await until(() => running.has('a5'));
  const second = [6, 7, 8].map((i) => batcher.run({ ctx: ctx(), fn: write(`a${i}`, i), locks: [`lock a${i}`] }));
  await new Promise((r) => setImmediate(r));
  assert.equal(running.has('a6'), false, 'the next batch waits for the one in flight');
  open();
  const results = [alone, ...(await Promise.all([...first, ...second]))];
  assert.deepEqual(
    results.map((r) => [r.id, r.n]),
    [0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => [`a${i}`, i]),
  );
  assert.equal(opened - before, 2, JSON.stringify(batcher.stats));
  assert.deepEqual(batcher.stats, { batches: 2, members: 8, largest: 5, fallbacks: 0 });
  // In a batch, every member's lock was taken before any member ran (one statement, all the batch's keys).
  assert.deepEqual(
    results.slice(1).map((r) => r.locks),
    [5, 5, 5, 5, 5, 3, 3, 3],
  );
  const { t, log } = await rows('a');
  assert.equal(t.length, 9);
  assert.deepEqual(
    log.map((l) => `${l.id}:${l.what}`),
    [0, 1, 2, 3, 4, 5, 6, 7, 8].flatMap((i) => [`a${i}:deferred`, `a${i}:own`]),
  );
});

test('a member that fails rolls the batch back; the others run again alone and commit, the failure is its own', async () => {
  await db.query("INSERT INTO wb_t (id, n) VALUES ('taken', -1)");
  const batcher = new WriteBatcher({ max: 32, concurrency: 1, lockAll });
  const first = batcher.run({ ctx: ctx(), fn: write('b0', 0) });
  const ok1 = batcher.run({ ctx: ctx(), fn: write('b1', 1) });
  const refuses = batcher.run({ ctx: ctx(), fn: write('b2', 2, { fail: 'after_write' }) });
  const ok3 = batcher.run({ ctx: ctx(), fn: write('b3', 3) });
  const duplicate = batcher.run({ ctx: ctx(), fn: write('b4', 4, { fail: 'duplicate' }) });
  const settled = await Promise.allSettled([first, ok1, refuses, ok3, duplicate]);
  assert.deepEqual(
    settled.map((s) => s.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'rejected'],
  );
  assert.match(String((settled[2] as PromiseRejectedResult).reason), /member b2 refuses/);
  assert.match(String((settled[4] as PromiseRejectedResult).reason), /duplicate key|unique/);
  assert.equal(batcher.stats.fallbacks, 1);
  const { t, log } = await rows('b');
  assert.deepEqual(
    t.map((r) => r.id),
    ['b0', 'b1', 'b3'],
  );
  // Nothing of the failed members was kept, nothing of the others was lost or written twice.
  assert.deepEqual(
    log.map((l) => `${l.id}:${l.what}`),
    ['b0:deferred', 'b0:own', 'b1:deferred', 'b1:own', 'b3:deferred', 'b3:own'],
  );
});

test('batches hold at most max members; a write with an unused Idempotency-Key, or marked alone, runs alone at once', async () => {
  const batcher = new WriteBatcher({ max: 3, concurrency: 1, lockAll });
  const all = [0, 1, 2, 3, 4, 5, 6].map((i) => batcher.run({ ctx: ctx(), fn: write(`c${i}`, i) }));
  await Promise.all(all);
  assert.equal(batcher.stats.largest, 3);
  assert.equal((await rows('c')).t.length, 7);

  const before = opened;
  const idem = { ...ctx(), idempotency: { used: false, begin: async () => undefined, record: async () => undefined } };
  const alone = batcher.run({ ctx: idem as unknown as ReturnType<typeof ctx>, fn: write('d0', 0) });
  assert.equal(opened - before, 1, 'opened at once, not queued for a batch');
  await alone;
  // Marked alone (a write others wait behind): at once, even while the one batch slot is taken.
  let open = () => undefined as void;
  const gate = new Promise<void>((r) => (open = r));
  const held = [1, 2].map((i) => batcher.run({ ctx: ctx(), fn: write(`e${i}`, i, { gate }) }));
  await until(() => running.has('e2'));
  const opening = opened;
  const urgent = batcher.run({ ctx: ctx(), fn: write('e0', 0), alone: true });
  // Its transaction is opened at once, beside the batch holding the one slot (on PGlite, whose one session the held
  // batch has, it then waits for that session: the gate is opened before it is awaited).
  assert.equal(opened - opening, 1, 'opened at once, not queued for a batch');
  open();
  assert.equal((await urgent).id, 'e0');
  await Promise.all(held);
});
