import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../../test/helpers/test-db.js';
import { canSendWithCommit, canSendWithNext, openDb, queryBatch, type Db } from './db.js';
import { PreparedStatements } from './prepared-statements.js';

// Statements prepared once per pooled PostgreSQL connection (PreparedStatements). Each test opens its own
// pool of ONE connection on the test schema, so every statement runs in the session whose
// pg_prepared_statements it reads. On PGlite (no TEST_DATABASE_URL) only the last two tests run.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let shared: Db;
let url: string | null;
let close: () => Promise<void>;
before(async () => {
  ({ db: shared, url, close } = await createTestDb());
  await shared.query('CREATE TABLE prep_t (id text PRIMARY KEY, n int, at timestamptz)');
});
after(() => close());

const INSERT = 'INSERT INTO prep_t (id, n, at) VALUES ($1, $2, $3) RETURNING id, n';
const COUNT = 'SELECT count(*)::int AS c FROM prep_t WHERE n >= $1';
const SUM = 'SELECT coalesce(sum(n), 0)::int AS s FROM prep_t WHERE id LIKE $1';

/** The prepared statements of the pool's one connection: name → executions so far (read outside the prepared path). */
async function serverSide(db: Db): Promise<Map<string, number>> {
  const rows = await db.query<{ name: string; runs: number }>(
    'SELECT name, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements',
  );
  return new Map(rows.map((r) => [r.name, r.runs]));
}

async function onePool(perConnection: number, warn?: (message: string) => void): Promise<Db> {
  return openDb({ databaseUrl: url!, poolSize: 1, preparedPerConnection: perConnection, warn });
}

/** Whether the pool still prepares statements (PostgresDb.preparing). */
const preparing = (db: Db): boolean => (db as unknown as { preparing: boolean }).preparing;

/** A one-connection pool that records its warnings, closed after `fn`. */
async function withWarnings(fn: (db: Db, warnings: string[]) => Promise<void>): Promise<void> {
  const warnings: string[] = [];
  const db = await onePool(10, (m) => warnings.push(m));
  try {
    await fn(db, warnings);
  } finally {
    await db.close();
  }
}

/** The ids stored under a prefix, in order. */
async function idsLike(prefix: string): Promise<string[]> {
  const rows = await shared.query<{ id: string }>('SELECT id FROM prep_t WHERE id LIKE $1 ORDER BY id', [`${prefix}%`]);
  return rows.map((r) => r.id);
}

async function reset(): Promise<void> {
  await shared.query('DELETE FROM prep_t');
}

test(
  'a statement is prepared once on the connection and executed, from its first sight at the start of a transaction',
  { skip: !onPostgres },
  async () => {
    await reset();
    const db = await onePool(10);
    try {
      const name = PreparedStatements.nameOf(INSERT);
      const countName = PreparedStatements.nameOf(COUNT);
      const at = new Date(Date.UTC(2026, 10, 24, 7, 0, 0, 123));
      // First sight in the transaction's opening message: PREPAREd alone before BEGIN, then EXECUTEd. First sight
      // later in the transaction (COUNT): sent as text, PREPAREd alone after COMMIT, not executed yet.
      const first = await db.transaction(async (tx) => {
        const rows = await tx.query(INSERT, ['a', 1, at]);
        assert.deepEqual(await tx.query(COUNT, [1]), [{ c: 1 }]);
        return rows;
      });
      assert.deepEqual(first, [{ id: 'a', n: 1 }]);
      assert.deepEqual(
        await serverSide(db),
        new Map([
          [name, 1],
          [countName, 0],
        ]),
      );
      // Afterwards: EXECUTE inside the same messages (BEGIN with the first, COMMIT with the last).
      for (const [i, id] of ['b', 'c', 'd'].entries()) {
        const rows = await db.transaction(async (tx) => {
          assert.ok(canSendWithNext(tx));
          tx.sendWithCommit(INSERT, [`${id}2`, 20 + i, at]);
          return tx.query(INSERT, [id, 2 + i, at]);
        });
        assert.deepEqual(rows, [{ id, n: 2 + i }]);
      }
      assert.equal((await serverSide(db)).get(name), 7);
      const stored = await shared.query<{ id: string; at: Date }>("SELECT id, at FROM prep_t WHERE id = 'c2'");
      assert.equal(stored[0]!.at.getTime(), at.getTime());
      // Batches outside transactions use the same prepared statements.
      const rows = await queryBatch(db, [
        { sql: COUNT, params: [2] },
        { sql: INSERT, params: ["it's", 9, null] },
      ]);
      assert.deepEqual(rows, [[{ c: 6 }], [{ id: "it's", n: 9 }]]);
      assert.deepEqual(
        await serverSide(db),
        new Map([
          [name, 8],
          [countName, 1],
        ]),
      );
    } finally {
      await db.close();
    }
  },
);

test('a statement whose parameter types the server cannot infer stays text', { skip: !onPostgres }, async () => {
  const db = await onePool(10);
  try {
    const untyped = 'SELECT 1 AS one WHERE $1 IS NULL';
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(await db.transaction((tx) => tx.query(untyped, [null])), [{ one: 1 }]);
      assert.deepEqual(await db.transaction((tx) => tx.query(untyped, ['x'])), []);
    }
    assert.equal((await serverSide(db)).has(PreparedStatements.nameOf(untyped)), false);
  } finally {
    await db.close();
  }
});

test('a message that fails before or after its PREPARE leaves the connection usable and its set known', { skip: !onPostgres }, async () => {
  await reset();
  // One statement per connection: preparing another deallocates the first, so the next use of the first
  // PREPAREs it again inside a message.
  const db = await onePool(1);
  try {
    const at = new Date();
    await db.transaction((tx) => tx.query(INSERT, ['p1', 1, at])); // INSERT learnt and prepared
    await db.transaction((tx) => tx.query(COUNT, [0])); // COUNT learnt; prepared, INSERT dropped (deallocated with the next message)

    // The failing statement comes first: the PREPARE of INSERT after it never runs.
    await assert.rejects(
      db.transaction(async (tx) => {
        assert.ok(canSendWithNext(tx));
        tx.sendWithNext('SELECT 1 / $1::int AS x', [0]);
        await tx.query(INSERT, ['p2', 2, at]);
      }),
      /division by zero/,
    );
    // Had the connection believed INSERT prepared, this EXECUTE would fail ("does not exist").
    assert.deepEqual(await db.transaction((tx) => tx.query(INSERT, ['p3', 3, at])), [{ id: 'p3', n: 3 }]);

    // The failing statement comes last: INSERT's PREPARE ran and is not undone by the ROLLBACK.
    await db.transaction((tx) => tx.query(COUNT, [0])); // COUNT prepared again, INSERT dropped
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query(INSERT, ['p4', 4, at]);
        // A text first seen inside the transaction travels as text (the one above was tried before its
        // transaction and is prepared: preparing it here would deallocate INSERT to make room).
        await tx.query('SELECT 1 / $1::int AS y', [0]);
      }),
      /division by zero/,
    );
    const left = await serverSide(db);
    assert.equal(left.has(PreparedStatements.nameOf(INSERT)), true, 'PREPARE survives the rollback');
    // Had the connection believed INSERT not prepared, its PREPARE would fail here ("already exists").
    assert.deepEqual(await db.transaction((tx) => tx.query(INSERT, ['p5', 5, at])), [{ id: 'p5', n: 5 }]);
    const ids = await shared.query<{ id: string }>("SELECT id FROM prep_t WHERE id LIKE 'p%' ORDER BY id");
    assert.deepEqual(
      ids.map((r) => r.id),
      ['p1', 'p3', 'p5'],
    );
  } finally {
    await db.close();
  }
});

test('a connection keeps at most its cap of prepared statements, the least recently used deallocated', { skip: !onPostgres }, async () => {
  await reset();
  const db = await onePool(2);
  try {
    const at = new Date();
    const run = (sql: string, params: unknown[]) => db.transaction((tx) => tx.query(sql, params));
    for (let i = 0; i < 3; i++) {
      await run(INSERT, [`c${i}`, i, at]);
      await run(COUNT, [0]);
      await run(SUM, ['c%']);
    }
    const names = await serverSide(db);
    assert.equal(names.size, 2);
    assert.deepEqual(await run(SUM, ['c%']), [{ s: 3 }]);
    assert.deepEqual(await run(COUNT, [1]), [{ c: 2 }]);
  } finally {
    await db.close();
  }
});

test('a new connection starts with nothing prepared', { skip: !onPostgres }, async () => {
  await reset();
  const db = await onePool(10);
  try {
    await db.transaction((tx) => tx.query(COUNT, [0]));
    await db.transaction((tx) => tx.query(COUNT, [0]));
    assert.equal((await serverSide(db)).size, 1);
    // The backend goes away; the pool opens a new connection, and the statement is prepared there again.
    const [backend] = await db.transaction((tx) => tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'));
    await shared.query('SELECT pg_terminate_backend($1)', [backend!.pid]);
    await new Promise((r) => setTimeout(r, 100));
    for (let i = 0; i < 2; i++) {
      try {
        await db.transaction((tx) => tx.query(COUNT, [0]));
      } catch {
        // the first use of the dead connection may fail before the pool drops it
      }
    }
    assert.deepEqual(await db.transaction((tx) => tx.query(COUNT, [0])), [{ c: 0 }]);
    assert.deepEqual([...(await serverSide(db)).keys()], [PreparedStatements.nameOf(COUNT)]);
  } finally {
    await db.close();
  }
});

// A pooler in transaction mode hands each transaction whichever server session is free. Simulated on the pool's one
// connection by changing its session's prepared statements behind the pool's back (DEALLOCATE ALL, a PREPARE).
test(
  'a server session that lost the prepared statements (a pooler): sent again as text, switched off for good',
  { skip: !onPostgres },
  async () => {
    await reset();
    await withWarnings(async (db, warnings) => {
      const at = new Date();
      await db.transaction((tx) => tx.query(INSERT, ['l1', 1, at]));
      assert.equal((await serverSide(db)).has(PreparedStatements.nameOf(INSERT)), true);
      await db.query('DEALLOCATE ALL'); // the next transaction lands on a session that never saw the PREPARE
      // The transaction's first message fails with 26000 and undoes itself whole: sent again as text, unnoticed.
      const rows = await db.transaction(async (tx) => {
        assert.ok(canSendWithNext(tx));
        tx.sendWithCommit(INSERT, ['l2b', 20, at]);
        return tx.query(INSERT, ['l2', 2, at]);
      });
      assert.deepEqual(rows, [{ id: 'l2', n: 2 }]);
      assert.equal(preparing(db), false);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!, /prepared statements switched off.*does not exist.*pooler/s);
      // A batch outside a transaction, and further transactions: text, nothing prepared any more.
      assert.deepEqual(
        await queryBatch(db, [
          { sql: COUNT, params: [2] },
          { sql: SUM, params: ['l%'] },
        ]),
        [[{ c: 2 }], [{ s: 23 }]],
      );
      await db.transaction((tx) => tx.query(INSERT, ['l3', 3, at]));
      assert.equal((await serverSide(db)).size, 0);
      assert.equal(warnings.length, 1);
      assert.deepEqual(await idsLike('l'), ['l1', 'l2', 'l2b', 'l3']);
    });
  },
);

test(
  'a server session that already has a statement of the name (a pooler): switched off, nothing fails',
  { skip: !onPostgres },
  async () => {
    await reset();
    await withWarnings(async (db, warnings) => {
      // Another client of the pooler prepared the same text on this server session.
      await db.query(`PREPARE ${PreparedStatements.nameOf(SUM)} AS ${SUM}`);
      assert.deepEqual(await db.transaction((tx) => tx.query(SUM, ['x%'])), [{ s: 0 }]); // text; its PREPARE after: 42P05
      assert.equal(preparing(db), false);
      assert.match(warnings.join('\n'), /already exists/);
      assert.deepEqual(await db.transaction((tx) => tx.query(SUM, ['x%'])), [{ s: 0 }]);
    });
  },
);

test(
  'a later message of a transaction that meets a lost statement fails whole; the next transaction is text',
  { skip: !onPostgres },
  async () => {
    await reset();
    await withWarnings(async (db, warnings) => {
      const at = new Date();
      await db.transaction((tx) => tx.query(INSERT, ['m1', 1, at]));
      await db.query('DEALLOCATE ALL');
      // The first message (no parameters: never prepared) ran; the second cannot be sent again on its own.
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.query("INSERT INTO prep_t (id, n) VALUES ('m2', 2)");
          await tx.query(INSERT, ['m3', 3, at]);
        }),
        (err: unknown) => (err as { code?: string }).code === '26000',
      );
      assert.equal(preparing(db), false);
      assert.equal(warnings.length, 1);
      assert.deepEqual(await db.transaction((tx) => tx.query(INSERT, ['m4', 4, at])), [{ id: 'm4', n: 4 }]);
      assert.deepEqual(await idsLike('m'), ['m1', 'm4']);
    });
  },
);

test('a table changed under a prepared SELECT * (a rolling migration): prepared again, still on', { skip: !onPostgres }, async () => {
  await shared.query('CREATE TABLE prep_c (id text PRIMARY KEY, n int)');
  await shared.query("INSERT INTO prep_c VALUES ('a', 1)");
  try {
    await withWarnings(async (db, warnings) => {
      const READ = 'SELECT * FROM prep_c WHERE id = $1';
      await db.transaction((tx) => tx.query(READ, ['a'])); // learnt, prepared after
      assert.deepEqual(await db.transaction((tx) => tx.query(READ, ['a'])), [{ id: 'a', n: 1 }]); // EXECUTE
      await shared.query('ALTER TABLE prep_c ADD COLUMN extra int DEFAULT 7');
      // EXECUTE fails with "cached plan must not change result type": DEALLOCATE ALL, PREPARE, EXECUTE again.
      assert.deepEqual(await db.transaction((tx) => tx.query(READ, ['a'])), [{ id: 'a', n: 1, extra: 7 }]);
      assert.equal(preparing(db), true);
      assert.deepEqual(warnings, []);
      assert.equal((await serverSide(db)).has(PreparedStatements.nameOf(READ)), true);
    });
  } finally {
    await shared.query('DROP TABLE prep_c');
  }
});

for (const embeddedThread of [false, true])
  test(
    `PGlite${embeddedThread ? ' on its own thread' : ''}: statements with values are prepared once in the one session; a failure forgets them; a changed table prepares afresh`,
    { skip: onPostgres },
    async () => {
      const db = await openDb({ dataDir: 'memory://', preparedPerConnection: 10, embeddedThread });
      const prepared = async () =>
        new Map(
          (
            await db.query<{ name: string; runs: number }>(
              'SELECT name, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements',
            )
          ).map((r) => [r.name, r.runs]),
        );
      try {
        await db.query('CREATE TABLE prep_t (id text PRIMARY KEY, n int, at timestamptz)');
        const at = new Date(Date.UTC(2026, 10, 26, 21, 0, 0, 123));
        // First sight inside a transaction: as text, PREPAREd once the transaction has ended; then EXECUTEd.
        for (let i = 0; i < 3; i++)
          assert.deepEqual(await db.transaction((tx) => tx.query(INSERT, [`g${i}`, i, at])), [{ id: `g${i}`, n: i }]);
        assert.deepEqual(await prepared(), new Map([[PreparedStatements.nameOf(INSERT), 2]]));
        // Outside a transaction: PREPAREd before its first execution; the same rows and types as the text gives.
        assert.deepEqual(await db.query(COUNT, [1]), [{ c: 2 }]);
        assert.deepEqual(
          await queryBatch(db, [
            { sql: COUNT, params: [0] },
            { sql: 'SELECT at FROM prep_t WHERE id = $1', params: ['g1'] },
          ]),
          [[{ c: 3 }], [{ at }]],
        );
        assert.equal((await prepared()).get(PreparedStatements.nameOf(COUNT)), 2);
        // A failing message (a duplicate key) rolls its transaction back; what the session prepared is forgotten and made again.
        await assert.rejects(
          db.transaction((tx) => tx.query(INSERT, ['g1', 9, at])),
          (err: unknown) => (err as { code?: string }).code === '23505',
        );
        assert.deepEqual(await db.transaction((tx) => tx.query(INSERT, ['g3', 3, at])), [{ id: 'g3', n: 3 }]);
        assert.deepEqual(await prepared(), new Map([[PreparedStatements.nameOf(INSERT), 1]]));
        // A table changed under a prepared SELECT *: "cached plan must not change result type", then prepared afresh,
        // in a transaction's first message and outside a transaction alike.
        const READ = 'SELECT * FROM prep_t WHERE id = $1';
        await db.query(READ, ['g0']);
        await db.transaction((tx) => tx.query(READ, ['g0']));
        await db.query('ALTER TABLE prep_t ADD COLUMN extra int DEFAULT 7');
        assert.deepEqual(await db.transaction((tx) => tx.query(READ, ['g0'])), [{ id: 'g0', n: 0, at, extra: 7 }]);
        await db.query('ALTER TABLE prep_t DROP COLUMN extra');
        assert.deepEqual(await db.query(READ, ['g0']), [{ id: 'g0', n: 0, at }]);
        // A transaction sent whole (one message, nothing read before it) whose prepared statement's table changed: it
        // rolled back whole, is sent again prepared afresh, and its row is written once.
        const WRITE = 'INSERT INTO prep_t VALUES ($1, $2, $3) RETURNING *';
        const whole = (id: string) =>
          db.transaction(async (tx) => {
            assert.ok(canSendWithCommit(tx));
            tx.sendWithCommit(WRITE, [id, 5, at]);
          });
        await whole('w0');
        await whole('w1'); // prepared now
        await db.query('ALTER TABLE prep_t ADD COLUMN extra int DEFAULT 7');
        await whole('w2');
        await db.query('ALTER TABLE prep_t DROP COLUMN extra');
        assert.deepEqual(
          (await db.query<{ id: string }>('SELECT id FROM prep_t ORDER BY id')).map((r) => r.id),
          ['g0', 'g1', 'g2', 'g3', 'w0', 'w1', 'w2'],
        );
      } finally {
        await db.close();
      }
    },
  );

test('PGlite: without the setting nothing is prepared', { skip: onPostgres }, async () => {
  const db = await openDb({ dataDir: 'memory://' });
  try {
    await db.query('CREATE TABLE prep_t (id text PRIMARY KEY, n int, at timestamptz)');
    for (let i = 0; i < 3; i++) await db.transaction((tx) => tx.query(INSERT, [`g${i}`, i, new Date()]));
    assert.deepEqual(await db.query('SELECT name FROM pg_prepared_statements'), []);
    assert.deepEqual(await db.query(COUNT, [1]), [{ c: 2 }]);
  } finally {
    await db.close();
  }
});
