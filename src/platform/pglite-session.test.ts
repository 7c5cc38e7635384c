import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PGlite } from '@electric-sql/pglite';
import { canSendWithNext, openDb } from './db.js';
import { PgliteLocal, SerialEmbeddedPg, type EmbeddedRequest } from './pglite-session.js';

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

/** A session whose messages are answered by hand, in order, to see when each was sent. */
class Manual extends SerialEmbeddedPg {
  constructor(readonly ordered: boolean) {
    super();
  }
  readonly sent: string[] = [];
  private readonly answers: { resolve: (v: unknown) => void; reject: (e: Error) => void }[] = [];
  protected send<T>(req: EmbeddedRequest): Promise<T> {
    this.sent.push(req.op === 'close' ? 'close' : `${req.op}:${req.sql}`);
    return new Promise<T>((resolve, reject) => this.answers.push({ resolve: resolve as (v: unknown) => void, reject }));
  }
  /** Answers the oldest message not answered yet. */
  answer(rows: unknown[][] | Error = [[]]): void {
    const a = this.answers.shift()!;
    if (rows instanceof Error) a.reject(rows);
    else a.resolve(rows);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const settle = () => new Promise((r) => setImmediate(r));

test('where messages run in order, a whole transaction or read that changes nothing prepared passes the session on before its answer', async () => {
  const s = new Manual(true);
  const failed: string[] = [];
  const one = s.execWhole(
    () => ({ sql: 'W1', detached: true }),
    () => failed.push('W1'),
  );
  const two = s.execWhole(
    () => ({ sql: 'R2', detached: true }),
    () => failed.push('R2'),
  );
  const three = s.execWhole(
    () => ({ sql: 'PREPARE p AS W3', detached: false }),
    () => failed.push('W3'),
  );
  const four = s.execWhole(
    () => ({ sql: 'R4', detached: true }),
    () => failed.push('R4'),
  );
  await settle();
  // W1 and R2 left without waiting; W3 changes what the session has prepared: R4 waits for its answer.
  assert.deepEqual(s.sent, ['exec:W1', 'exec:R2', 'exec:PREPARE p AS W3']);
  s.answer(); // W1
  s.answer([[{ n: 2 }]]); // R2
  assert.deepEqual(await one, [{ rows: [] }]);
  assert.deepEqual(await two, [{ rows: [{ n: 2 }] }]);
  await settle();
  assert.deepEqual(s.sent.length, 3);
  s.answer(new Error('W3 failed')); // its failure is told before the session is passed on
  await assert.rejects(three, /W3 failed/);
  await settle();
  assert.deepEqual(s.sent, ['exec:W1', 'exec:R2', 'exec:PREPARE p AS W3', 'exec:R4']);
  s.answer(new Error('R4 failed'));
  await assert.rejects(four, /R4 failed/);
  // W3's failure was told with the session held; a detached message's failure is its caller's to read (PgliteDb: a
  // changed table only).
  assert.deepEqual(failed, ['W3']);
  // A failed whole message sent no ROLLBACK (nothing was open) and the session is free.
  assert.deepEqual(
    s.sent.filter((m) => m.includes('ROLLBACK')),
    [],
  );
});

test('where messages may not run in order, every message waits for its answer before the session is passed on', async () => {
  const s = new Manual(false);
  const failed: string[] = [];
  const one = s.execWhole(
    () => ({ sql: 'W1', detached: true }),
    () => failed.push('W1'),
  );
  const two = s.execWhole(
    () => ({ sql: 'R2', detached: true }),
    () => failed.push('R2'),
  );
  await settle();
  assert.deepEqual(s.sent, ['exec:W1']);
  s.answer();
  await one;
  await settle();
  assert.deepEqual(s.sent, ['exec:W1', 'exec:R2']);
  s.answer(new Error('R2 failed'));
  await assert.rejects(two, /R2 failed/);
  assert.deepEqual(failed, ['R2']);
});

test('on its own thread: transactions sent whole run behind one another without waiting, a failing one undone whole', async () => {
  const db = await openDb({ dataDir: 'memory://', preparedPerConnection: 10, embeddedThread: true });
  try {
    await db.query('CREATE TABLE t (id text PRIMARY KEY, n int)');
    await db.query('INSERT INTO t VALUES ($1, $2)', ['dup', 0]);
    const whole = (a: string, b: string) =>
      db.transaction(async (t) => {
        assert.ok(canSendWithNext(t));
        t.sendWithCommit('INSERT INTO t VALUES ($1, $2)', [a, 1]);
        t.sendWithCommit('INSERT INTO t VALUES ($1, $2)', [b, 1]);
      });
    await whole('warm1', 'warm2'); // the text is prepared after its first use
    // The thread's requests in flight at once (PgliteThread.send), measured while 30 whole transactions are made together.
    const proto = (await import('./pglite-thread.js')).PgliteThread.prototype as unknown as { send: (r: unknown) => Promise<unknown> };
    const original = proto.send;
    let inFlight = 0;
    let most = 0;
    proto.send = function (this: unknown, r: unknown) {
      most = Math.max(most, ++inFlight);
      return original.call(this, r).finally(() => inFlight--);
    };
    let results: PromiseSettledResult<void>[];
    try {
      results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => (i === 10 ? whole('x10', 'dup') : whole(`a${i}`, `b${i}`))));
    } finally {
      proto.send = original;
    }
    assert.ok(most > 1, `at most ${most} message in flight`);
    assert.equal(results.filter((r) => r.status === 'rejected').length, 1);
    assert.equal(((results[10] as PromiseRejectedResult).reason as { code?: string }).code, '23505');
    const ids = new Set((await db.query<{ id: string }>('SELECT id FROM t')).map((r) => r.id));
    assert.equal(ids.size, 3 + 29 * 2);
    assert.ok(!ids.has('x10')); // the failing transaction's first row was undone with it
  } finally {
    await db.close();
  }
});
