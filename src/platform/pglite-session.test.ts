import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PGlite } from '@electric-sql/pglite';
import { canSendWithNext, openDb } from './db.js';
import { PgliteLocal } from './pglite-session.js';

// PGlite's one session as PgliteDb holds it: how many messages a transaction and a read cost, and that a
// transaction's BEGIN and COMMIT travelling with its statements keep its all-or-nothing.

/** Counts the messages sent into PGlite (each `exec` or `query` is a request and a sync through the server loop). */
async function counting<T>(fn: () => Promise<T>): Promise<{ result: T; messages: number }> {
  const proto = PGlite.prototype as unknown as { execProtocolStream: (...a: unknown[]) => Promise<unknown> };
  const original = proto.execProtocolStream;
  let messages = 0;
  proto.execProtocolStream = function (this: unknown, ...a: unknown[]) {
    messages++;
    return original.apply(this, a);
  };
  try {
    return { result: await fn(), messages };
  } finally {
    proto.execProtocolStream = original;
  }
}

for (const prepared of [true, false]) {
  test(`a transaction is one message per send, BEGIN and COMMIT included (prepared ${prepared})`, async () => {
    const db = await openDb({ dataDir: 'memory://', preparedPerConnection: prepared ? 10 : 0 });
    try {
      await db.query('CREATE TABLE t (id text PRIMARY KEY, n int)');
      const write = () =>
        db.transaction(async (t) => {
          const rows = await t.query<{ c: number }>('SELECT count(*)::int AS c FROM t WHERE n >= $1', [0]);
          assert.ok(canSendWithNext(t));
          t.sendWithCommit('INSERT INTO t VALUES ($1, $2)', [`k${rows[0]!.c}`, rows[0]!.c]);
        });
      await write(); // texts seen for the first time are prepared after it
      const { messages } = await counting(write);
      // The read with the BEGIN, the write with the COMMIT: two messages, each a request and a sync. PGlite's own
      // transaction() sends BEGIN and COMMIT alone: 6.
      assert.equal(messages, 4);
      const read = () => db.query<{ c: number }>('SELECT count(*)::int AS c FROM t WHERE n >= $1', [0]);
      await read();
      const single = await counting(read);
      assert.deepEqual(single.result, [{ c: 2 }]);
      assert.equal(single.messages, 2); // one message, its own implicit transaction
    } finally {
      await db.close();
    }
  });
}

test('a failure in the first, a middle or the last message undoes the transaction whole, and the session goes on', async () => {
  const db = await openDb({ dataDir: 'memory://', preparedPerConnection: 10 });
  try {
    await db.query('CREATE TABLE t (id text PRIMARY KEY, n int)');
    await db.query('INSERT INTO t VALUES ($1, $2)', ['dup', 0]);
    const duplicate = (err: unknown) => (err as { code?: string }).code === '23505';
    // First message (with the BEGIN) fails.
    await assert.rejects(
      db.transaction((t) => t.query('INSERT INTO t VALUES ($1, $2), ($3, $4)', ['a', 1, 'dup', 1])),
      duplicate,
    );
    // A middle message fails after one that ran.
    await assert.rejects(
      db.transaction(async (t) => {
        await t.query('INSERT INTO t VALUES ($1, $2)', ['b', 2]);
        await t.query('INSERT INTO t VALUES ($1, $2)', ['dup', 2]);
      }),
      duplicate,
    );
    // The last message (with the COMMIT) fails.
    await assert.rejects(
      db.transaction(async (t) => {
        await t.query('INSERT INTO t VALUES ($1, $2)', ['c', 3]);
        assert.ok(canSendWithNext(t));
        t.sendWithCommit('INSERT INTO t VALUES ($1, $2)', ['dup', 3]);
      }),
      duplicate,
    );
    // The function throws after a message ran.
    await assert.rejects(
      db.transaction(async (t) => {
        await t.query('INSERT INTO t VALUES ($1, $2)', ['d', 4]);
        throw new Error('handler failed');
      }),
      /handler failed/,
    );
    assert.deepEqual(await db.query('SELECT id FROM t ORDER BY id'), [{ id: 'dup' }]);
    // Nothing left open: a transaction after them commits.
    await db.transaction(async (t) => {
      assert.ok(canSendWithNext(t));
      t.sendWithCommit('INSERT INTO t VALUES ($1, $2)', ['e', 5]);
    });
    assert.deepEqual(await db.query('SELECT id FROM t ORDER BY id'), [{ id: 'dup' }, { id: 'e' }]);
  } finally {
    await db.close();
  }
});

test('the session is held by one caller at a time: a transaction in progress is never interleaved', async () => {
  const local = new PgliteLocal(await PGlite.create());
  try {
    await local.exec('CREATE TABLE t (n int)');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tx = local.transaction(async (t) => {
      await t.exec('INSERT INTO t VALUES (1)');
      await gate;
      await t.execAndCommit('INSERT INTO t VALUES (2)');
    });
    const outside = local.exec('SELECT count(*)::int AS c FROM t');
    const held = local.exclusive(async (t) => (await t.exec('SELECT count(*)::int AS c FROM t'))[0]!.rows);
    await new Promise((r) => setTimeout(r, 30));
    release();
    await tx;
    assert.deepEqual((await outside)[0]!.rows, [{ c: 2 }]);
    assert.deepEqual(await held, [{ c: 2 }]);
    await assert.rejects(
      local.transaction(async (t) => {
        await t.execAndCommit('SELECT 1');
        await t.execAndCommit('SELECT 2');
      }),
      /already ended/,
    );
  } finally {
    await local.close();
  }
});
