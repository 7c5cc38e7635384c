import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createTestDb } from '../../test/helpers/test-db.js';
import { openDb, queryBatch, withUser, type Db } from './db.js';
import { Pipeline, PIPELINE_STALL_MS } from './db-pipeline.js';
import { PreparedStatements } from './prepared-statements.js';

// Transactions sent whole on pipelined connections (Pipeline), against a real PostgreSQL server: each message one
// implicit transaction, committed whole or rolled back whole, the messages behind a failed one unharmed.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const skip = onPostgres ? false : 'needs TEST_DATABASE_URL (pipelined connections are PostgreSQL connections)';
let db: Db;
let url: string | null;
let close: () => Promise<void>;
before(async () => {
  ({ db, url, close } = await createTestDb());
  await db.query('CREATE TABLE pipe_t (id int PRIMARY KEY, v text NOT NULL)');
});
after(() => close());

const INSERT = 'INSERT INTO pipe_t (id, v) VALUES ($1, $2)';
const UPDATE = 'UPDATE pipe_t SET v = $2 WHERE id = $1';
const connect = () => new pg.Client({ connectionString: withUser(url!), pipeline: true } as pg.ClientConfig);
const ids = async (from: number, to: number) =>
  (await db.query<{ id: number; v: string }>('SELECT id, v FROM pipe_t WHERE id >= $1 AND id < $2 ORDER BY id', [from, to])).map(
    (r) => `${r.id}:${r.v}`,
  );

test('concurrent transactions sent whole all commit, each with both of its statements', { skip }, async () => {
  const pipe = new Pipeline(connect, 2, () => null);
  try {
    const sent = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        pipe.commit([
          { sql: INSERT, params: [1000 + i, 'new'] },
          { sql: UPDATE, params: [1000 + i, 'done'] },
        ]),
      ),
    );
    assert.ok(sent.every((s) => s === true));
    const rows = await ids(1000, 1300);
    assert.equal(rows.length, 300);
    assert.ok(rows.every((r) => r.endsWith(':done')));
  } finally {
    await pipe.close();
  }
});

test('a failing transaction rolls back whole; those before and after it on the same connection commit', { skip }, async () => {
  await db.query(INSERT, [2000, 'taken']);
  const pipe = new Pipeline(connect, 1, () => null);
  try {
    const results = await Promise.allSettled([
      pipe.commit([{ sql: INSERT, params: [2001, 'a'] }]),
      // Its first statement runs, its second fails (the key is taken): neither stays.
      pipe.commit([
        { sql: INSERT, params: [2002, 'b'] },
        { sql: INSERT, params: [2000, 'dup'] },
      ]),
      pipe.commit([{ sql: INSERT, params: [2003, 'c'] }]),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.equal(((results[1] as PromiseRejectedResult).reason as { code?: string }).code, '23505');
    assert.deepEqual(await ids(2000, 2010), ['2000:taken', '2001:a', '2003:c']);
  } finally {
    await pipe.close();
  }
});

test(
  'prepared statements: a text never tried goes the pool way; once known it is prepared in the pipeline; a message whose statement the server lost is handed back, not failed',
  { skip },
  async () => {
    const prepared = new PreparedStatements(10);
    const pipe = new Pipeline(connect, 1, () => prepared);
    const plain = new pg.Client({ connectionString: withUser(url!) });
    await plain.connect();
    try {
      const untried = [
        { sql: INSERT, params: [3000, 'x'] },
        { sql: UPDATE, params: [3000, 'y'] },
      ];
      assert.equal(await pipe.commit(untried), false, 'texts never tried');
      assert.deepEqual(await ids(3000, 3010), []);
      await prepared.probe(plain, [INSERT, UPDATE]); // learnt process-wide, as the pool's transactions do
      // The first message fails at its first statement (the id is taken), before the PREPARE of its second; the
      // second message, composed while the first was in flight, EXECUTEs that statement, which the server never
      // prepared: handed back (false), nothing of it committed.
      await db.query(INSERT, [3001, 'taken']);
      const [first, second] = await Promise.allSettled([
        pipe.commit([
          { sql: INSERT, params: [3001, 'dup'] },
          { sql: UPDATE, params: [3001, 'never'] },
        ]),
        pipe.commit([{ sql: UPDATE, params: [3001, 'second'] }]),
      ]);
      assert.equal(first.status, 'rejected');
      assert.deepEqual(second, { status: 'fulfilled', value: false });
      assert.deepEqual(await ids(3000, 3010), ['3001:taken']);
      // Sent again: the connection's set was forgotten (DEALLOCATE ALL, then PREPARE), and it commits.
      assert.equal(await pipe.commit([{ sql: UPDATE, params: [3001, 'second'] }]), true);
      assert.deepEqual(await ids(3000, 3010), ['3001:second']);
    } finally {
      await plain.end();
      await pipe.close();
    }
  },
);

test(
  'a message waiting on a lock: no more are added behind it once it has waited PIPELINE_STALL_MS, and past lock_timeout it is handed back',
  { skip },
  async () => {
    await db.query(INSERT, [4000, 'locked']);
    const holder = new pg.Client({ connectionString: withUser(url!) });
    await holder.connect();
    const pipe = new Pipeline(connect, 2, () => null, PIPELINE_STALL_MS * 4);
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT * FROM pipe_t WHERE id = 4000 FOR UPDATE');
      const waiting = pipe.commit([{ sql: UPDATE, params: [4000, 'waited'] }]);
      await new Promise((r) => setTimeout(r, PIPELINE_STALL_MS + 100));
      // The other connection is free: a new message goes there and commits while the first still waits.
      assert.equal(await pipe.commit([{ sql: INSERT, params: [4001, 'beside'] }]), true);
      const blocker = pipe.commit([{ sql: UPDATE, params: [4000, 'second'] }]); // the free connection now: it waits too
      await new Promise((r) => setTimeout(r, PIPELINE_STALL_MS + 100));
      assert.equal(await pipe.commit([{ sql: INSERT, params: [4002, 'none free'] }]), false, 'every connection stalled');
      // Past lock_timeout both are rolled back and handed back for a pool connection.
      assert.deepEqual(await Promise.all([waiting, blocker]), [false, false]);
      await holder.query('COMMIT');
      assert.deepEqual(await ids(4000, 4010), ['4000:locked', '4001:beside']);
      assert.equal(await pipe.commit([{ sql: INSERT, params: [4002, 'after'] }]), true, 'usable again');
    } finally {
      await holder.end();
      await pipe.close();
    }
  },
);

test(
  'Db.transaction: a transaction sent whole goes pipelined and commits; one that reads goes on a pool connection',
  { skip },
  async () => {
    const own = await openDb({ databaseUrl: url!, poolSize: 1, preparedPerConnection: 10, pipelineConnections: 1 });
    try {
      // The first goes on the pool connection (its text never tried: PREPAREd there).
      await own.transaction(async (tx) => {
        (tx as unknown as { sendWithCommit(sql: string, params: unknown[]): void }).sendWithCommit(INSERT, [5009, 'first']);
      });
      // The pool's one connection held by an open transaction: a transaction sent whole must not need it.
      let release!: () => void;
      const held = own.transaction(async (tx) => {
        await tx.query('SELECT 1');
        await new Promise<void>((r) => (release = r));
      });
      await new Promise((r) => setTimeout(r, 50));
      for (const i of [5000, 5001]) {
        await own.transaction(async (tx) => {
          (tx as unknown as { sendWithCommit(sql: string, params: unknown[]): void }).sendWithCommit(INSERT, [i, 'whole']);
        });
      }
      assert.deepEqual(await ids(5000, 5010), ['5000:whole', '5001:whole', '5009:first']);
      release();
      await held;
    } finally {
      await own.close();
    }
  },
);

test(
  'short reads: batches of concurrent requests go pipelined, each gets its own rows; a batch never prepared goes the pool way first',
  { skip },
  async () => {
    await db.query(INSERT, [6000, 'six']);
    await db.query(INSERT, [6001, 'seven']);
    const own = await openDb({ databaseUrl: url!, poolSize: 1, preparedPerConnection: 10, pipelineConnections: 1 });
    const READ = 'SELECT v FROM pipe_t WHERE id = $1';
    let release = () => {};
    try {
      // The texts are new to the process: this batch goes on the pool connection, where each is PREPAREd alone first.
      const DIVIDE = 'SELECT 1 / $1::int AS x';
      const ECHO = 'SELECT $1::int AS i';
      assert.deepEqual(
        await queryBatch(
          own,
          [
            { sql: READ, params: [6000] },
            { sql: DIVIDE, params: [1] },
            { sql: ECHO, params: [7] },
          ],
          { short: true },
        ),
        [[{ v: 'six' }], [{ x: 1 }], [{ i: 7 }]],
      );
      // The pool's one connection held by an open transaction: short reads must not need it.
      const held = own.transaction(async (tx) => {
        await tx.query('SELECT 1');
        await new Promise<void>((r) => (release = r));
      });
      await new Promise((r) => setTimeout(r, 50));
      // Were they to need the pool, they would wait for the held connection: fail within seconds instead.
      const within = <T>(p: Promise<T>) =>
        Promise.race([
          p,
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('short reads waited for the pool')), 5_000).unref()),
        ]);
      const batches = await within(
        Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            queryBatch(
              own,
              [
                { sql: READ, params: [6000 + (i % 2)] },
                { sql: READ, params: [6999] },
                { sql: ECHO, params: [i] },
              ],
              { short: true },
            ),
          ),
        ),
      );
      batches.forEach((rows, i) => assert.deepEqual(rows, [[{ v: i % 2 ? 'seven' : 'six' }], [], [{ i }]]));
      // A failing read fails its own batch only.
      const settled = await within(
        Promise.allSettled([
          queryBatch(own, [{ sql: READ, params: [6001] }], { short: true }),
          queryBatch(own, [{ sql: DIVIDE, params: [0] }], { short: true }),
          queryBatch(own, [{ sql: READ, params: [6000] }], { short: true }),
        ]),
      );
      assert.deepEqual(
        settled.map((s) => s.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      assert.deepEqual((settled[2] as PromiseFulfilledResult<unknown[][]>).value, [[{ v: 'six' }]]);
      // Without the option a batch needs a pool connection: it waits for the held one.
      let plainDone = false;
      const plain = queryBatch(own, [{ sql: READ, params: [6000] }]).then((r) => ((plainDone = true), r));
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(plainDone, false);
      release();
      await held;
      assert.deepEqual(await plain, [[{ v: 'six' }]]);
    } finally {
      release(); // a failure above must not leave the pool's connection held, or close waits for ever
      await own.close();
    }
  },
);
