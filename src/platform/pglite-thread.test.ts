import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canSendWithNext, migratedEmbeddedImage, openDb, queryBatch } from './db.js';
import { PgliteThread } from './pglite-thread.js';

// PGlite on its own thread (the default for the embedded database) answers as PGlite on this thread does.

test('a database started from a migrated image has every migration, on either thread, and each is its own copy', async () => {
  const image = await migratedEmbeddedImage();
  const migrations = readdirSync(new URL('../../migrations/', import.meta.url)).filter((f) => /^\d{4}_.+\.sql$/.test(f));
  const dbs = [
    await openDb({ dataDir: 'memory://', embeddedThread: true, embeddedImage: image }),
    await openDb({ dataDir: 'memory://', embeddedThread: false, embeddedImage: image }),
  ];
  try {
    for (const db of dbs) {
      const rows = await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
      assert.deepEqual(
        rows.map((r) => r.version),
        migrations.map((f) => f.replace(/\.sql$/, '')).sort(),
      );
      assert.equal(db.hasVector, true);
    }
    await dbs[0]!.query('CREATE TABLE only_in_first (id int)');
    const seen = await dbs[1]!.query("SELECT to_regclass('only_in_first') AS t");
    assert.equal((seen[0] as { t: unknown }).t, null);
  } finally {
    for (const db of dbs) await db.close();
  }
  // An image is a starting point for a database in memory, never written over a data directory.
  const dir = mkdtempSync(join(tmpdir(), 'verity-image-'));
  try {
    await assert.rejects(openDb({ dataDir: join(dir, 'db'), embeddedImage: image }), /in-memory database only/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('results, types and errors are those of PGlite on the calling thread', async () => {
  const inThread = await openDb({ dataDir: 'memory://', embeddedThread: true });
  const here = await openDb({ dataDir: 'memory://', embeddedThread: false });
  try {
    for (const db of [inThread, here]) {
      await db.query('CREATE TABLE t (id text PRIMARY KEY, n int, amount numeric, at timestamptz, raw bytea, doc jsonb, tags text[])');
    }
    const row = ['a', 7, '12.50', new Date(Date.UTC(2026, 10, 24, 19, 0, 0, 123)), Buffer.from([0, 1, 255]), { k: [1, 'x'] }, ['p', 'q']];
    const read = 'SELECT id, n, amount, at, raw, doc, tags, n::int8 AS big FROM t';
    const answers = [];
    for (const db of [inThread, here]) {
      await db.query('INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6, $7)', row);
      answers.push(await db.query(read));
    }
    assert.deepEqual(answers[0], answers[1]);
    assert.ok((answers[0]![0] as { at: unknown }).at instanceof Date);
    // A unique violation keeps what callers look at: the code, the constraint, the detail.
    const errs: Record<string, unknown>[] = [];
    for (const db of [inThread, here]) {
      const err = await db.query('INSERT INTO t (id) VALUES ($1)', ['a']).catch((e: unknown) => e as Record<string, unknown>);
      errs.push(err as Record<string, unknown>);
    }
    for (const k of ['code', 'constraint', 'detail', 'message']) assert.equal(errs[0]![k], errs[1]![k], k);
    assert.equal(errs[0]!.code, '23505');
  } finally {
    await inThread.close();
    await here.close();
  }
});

test('a transaction holds the database: other statements wait for it, a failure rolls it back whole', async () => {
  const db = await openDb({ dataDir: 'memory://', embeddedThread: true });
  try {
    await db.query('CREATE TABLE t (id text PRIMARY KEY, n int)');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const order: string[] = [];
    const tx = db.transaction(async (t) => {
      await t.query('INSERT INTO t VALUES ($1, $2)', ['x', 1]);
      order.push('tx wrote');
      await gate;
      assert.ok(canSendWithNext(t));
      t.sendWithCommit('INSERT INTO t VALUES ($1, $2)', ['y', 2]);
      order.push('tx ends');
    });
    // Outside the transaction: waits until it has committed (never sees x alone).
    const outside = db.query<{ c: number }>('SELECT count(*)::int AS c FROM t').then((r) => {
      order.push(`outside saw ${r[0]!.c}`);
    });
    await new Promise((r) => setTimeout(r, 50));
    release();
    await Promise.all([tx, outside]);
    assert.deepEqual(order, ['tx wrote', 'tx ends', 'outside saw 2']);

    await assert.rejects(
      db.transaction(async (t) => {
        await t.query('INSERT INTO t VALUES ($1, $2)', ['z', 3]);
        await t.query('INSERT INTO t VALUES ($1, $2)', ['x', 4]); // duplicate key
      }),
      (err: unknown) => (err as { code?: string }).code === '23505',
    );
    // The last writes travel with the COMMIT in one message: one of them failing undoes the whole transaction.
    await assert.rejects(
      db.transaction(async (t) => {
        await t.query('INSERT INTO t VALUES ($1, $2)', ['w', 5]);
        assert.ok(canSendWithNext(t));
        t.sendWithCommit('INSERT INTO t VALUES ($1, $2)', ['v', 6]);
        t.sendWithCommit('INSERT INTO t VALUES ($1, $2)', ['y', 7]); // duplicate key, in the COMMIT's message
      }),
      (err: unknown) => (err as { code?: string }).code === '23505',
    );
    assert.deepEqual(await queryBatch(db, [{ sql: 'SELECT id FROM t ORDER BY id', params: [] }]), [[{ id: 'x' }, { id: 'y' }]]);
    // and the database is usable afterwards (the aborted transaction was rolled back).
    await db.transaction(async (t) => {
      assert.ok(canSendWithNext(t));
      t.sendWithCommit('INSERT INTO t VALUES ($1, $2)', ['u', 8]);
    });
    assert.deepEqual(await db.query('SELECT count(*)::int AS c FROM t'), [{ c: 3 }]);
  } finally {
    await db.close();
  }
});

test('a file-backed database keeps its rows across a close and a reopen on a new thread', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'verity-pglite-thread-'));
  try {
    const first = await openDb({ dataDir: join(dir, 'db'), embeddedThread: true });
    await first.query('CREATE TABLE t (id text PRIMARY KEY)');
    await first.query('INSERT INTO t VALUES ($1)', ['kept']);
    await first.close();
    const second = await openDb({ dataDir: join(dir, 'db'), embeddedThread: true });
    assert.deepEqual(await second.query('SELECT id FROM t'), [{ id: 'kept' }]);
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('when the thread dies, waiting and later statements fail with the cause instead of hanging', async () => {
  const thread = await PgliteThread.open(null);
  await thread.query('SELECT 1');
  const worker = (thread as unknown as { worker: { terminate(): Promise<number> } }).worker;
  const pending = thread.query('SELECT pg_sleep(0.2)');
  await worker.terminate();
  await assert.rejects(pending, /embedded database thread exited/);
  await assert.rejects(thread.query('SELECT 1'), /embedded database thread exited/);
});
