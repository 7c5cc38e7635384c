import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../../test/helpers/test-db.js';
import { canSendWithNext, queryBatch, type Db } from './db.js';

// Batches and statements sent with the next one, on the database the suite runs on (PGlite, or PostgreSQL
// with TEST_DATABASE_URL): same rows as one statement at a time, same rollback on failure.
let db: Db;
let close: () => Promise<void>;
before(async () => {
  ({ db, close } = await createTestDb());
  await db.query('CREATE TABLE batch_t (id text PRIMARY KEY, n int, at timestamptz)');
});
after(() => close());

test('a batch answers each statement its rows, in order, with values written in or bound', async () => {
  const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
  await db.query('INSERT INTO batch_t VALUES ($1, $2, $3)', ['a', 1, at]);
  const rows = await queryBatch(db, [
    { sql: 'SELECT id, n FROM batch_t WHERE id = $1', params: ['a'] },
    { sql: 'SELECT count(*)::int AS c FROM batch_t WHERE at = $1', params: [at] },
    { sql: 'SELECT 1 AS one WHERE false' },
  ]);
  assert.deepEqual(rows, [[{ id: 'a', n: 1 }], [{ c: 1 }], []]);
  // An array value cannot be written in: the batch runs one statement at a time, with the same answers.
  const bound = await queryBatch(db, [
    { sql: 'SELECT id FROM batch_t WHERE id = ANY($1::text[])', params: [['a', 'b']] },
    { sql: 'SELECT $1::text AS quoted', params: ["it's"] },
  ]);
  assert.deepEqual(bound, [[{ id: 'a' }], [{ quoted: "it's" }]]);
});

test('in a transaction, a statement sent with the next one is checked before that one answers', async () => {
  const seen: unknown[][] = [];
  const got = await db.transaction(async (tx) => {
    assert.ok(canSendWithNext(tx));
    tx.sendWithNext('INSERT INTO batch_t VALUES ($1, $2) RETURNING id', ['b', 2], (rows) => void seen.push(rows));
    assert.equal(seen.length, 0);
    const r = await tx.query<{ c: number }>('SELECT count(*)::int AS c FROM batch_t');
    assert.deepEqual(seen, [[{ id: 'b' }]]);
    return r[0]!.c;
  });
  assert.equal(got, 2); // the queued INSERT ran before the count
});

test('a check that throws rolls back the queued statement and the one it travelled with', async () => {
  await assert.rejects(
    db.transaction(async (tx) => {
      assert.ok(canSendWithNext(tx));
      tx.sendWithNext('INSERT INTO batch_t VALUES ($1, $2) RETURNING id', ['c', 3], () => {
        throw new Error('taken');
      });
      await tx.query('INSERT INTO batch_t VALUES ($1, $2)', ['d', 4]);
      assert.fail('the check throws before the statement answers');
    }),
    /taken/,
  );
  const left = await db.query<{ id: string }>("SELECT id FROM batch_t WHERE id IN ('c', 'd')");
  assert.deepEqual(left, []);
});

test('a statement still queued at the end is sent and checked before COMMIT', async () => {
  await assert.rejects(
    db.transaction(async (tx) => {
      assert.ok(canSendWithNext(tx));
      tx.sendWithNext('INSERT INTO batch_t VALUES ($1, $2) RETURNING id', ['e', 5], () => {
        throw new Error('refused at commit');
      });
    }),
    /refused at commit/,
  );
  assert.deepEqual(await db.query("SELECT id FROM batch_t WHERE id = 'e'"), []);
  await db.transaction(async (tx) => {
    if (canSendWithNext(tx)) tx.sendWithNext('INSERT INTO batch_t VALUES ($1, $2)', ['f', 6], () => undefined);
  });
  assert.deepEqual(await db.query("SELECT id FROM batch_t WHERE id = 'f'"), [{ id: 'f' }]);
});

test('a failing statement in a transaction batch rolls back the whole transaction', async () => {
  await assert.rejects(
    db.transaction(async (tx) => {
      await queryBatch(tx, [
        { sql: 'INSERT INTO batch_t VALUES ($1, $2)', params: ['g', 7] },
        { sql: 'INSERT INTO batch_t VALUES ($1, $2)', params: ['a', 8] }, // duplicate key
      ]);
    }),
    /duplicate key/,
  );
  assert.deepEqual(await db.query("SELECT id FROM batch_t WHERE id = 'g'"), []);
});

test('a transaction whose only statement goes with COMMIT and fails leaves every connection usable', async () => {
  await assert.rejects(
    db.transaction(async (tx) => {
      assert.ok(canSendWithNext(tx));
      (tx as unknown as { sendWithCommit: (sql: string, p: readonly unknown[]) => void }).sendWithCommit(
        'INSERT INTO batch_t VALUES ($1, $2)',
        ['a', 9], // duplicate key
      );
    }),
    /duplicate key/,
  );
  // More queries than the pool has connections: none may meet an aborted transaction.
  for (let i = 0; i < 12; i++) assert.deepEqual(await db.query('SELECT 1 AS one'), [{ one: 1 }]);
});

test('statements that go only with COMMIT and cannot be written in still run inside one transaction', async () => {
  await db.query('CREATE TABLE batch_b (id text PRIMARY KEY, b bytea)');
  const withCommit = (tx: unknown, sql: string, p: readonly unknown[]) =>
    (tx as { sendWithCommit: (sql: string, p: readonly unknown[]) => void }).sendWithCommit(sql, p);
  await assert.rejects(
    db.transaction(async (tx) => {
      // Bytes are bound, never written into the text: the statements travel one by one.
      withCommit(tx, 'INSERT INTO batch_b VALUES ($1, $2)', ['h', Buffer.from([1, 2])]);
      withCommit(tx, 'INSERT INTO batch_b VALUES ($1, $2)', ['h', Buffer.from([3])]); // duplicate key
    }),
    /duplicate key/,
  );
  assert.deepEqual(await db.query('SELECT id FROM batch_b'), []);
});
