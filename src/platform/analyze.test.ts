import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Db } from './db.js';
import { createTestDb } from '../../test/helpers/test-db.js';
import { ANALYZE_BASE_ROWS, ANALYZE_SCALE_FACTOR, analyzeChangedTables } from './analyze.js';

let db: Db;
let closeDb: () => Promise<void>;
before(async () => ({ db, close: closeDb } = await createTestDb()));
after(() => closeDb());

/** The statistics counter's rows changed since the table's last ANALYZE. */
async function counted(d: Db, table: string): Promise<number> {
  const [r] = await d.query<{ n: number }>(
    'SELECT coalesce(n_mod_since_analyze, 0)::float8 AS n FROM pg_stat_user_tables WHERE relid = to_regclass($1)',
    [table],
  );
  return Number(r?.n ?? 0);
}

/** The rows the planner believes the table holds (pg_class.reltuples). */
async function plannedRows(d: Db, table: string): Promise<number> {
  const [r] = await d.query<{ n: number }>('SELECT reltuples::float8 AS n FROM pg_class WHERE oid = to_regclass($1)', [table]);
  return Number(r?.n);
}

function assertAnalysed(analysed: string[], table: string): void {
  assert.ok(
    analysed.some((n) => n.endsWith(`.${table}`)),
    `${table} analysed (${analysed.join(', ')})`,
  );
}

/** The statistics collector publishes a transaction's counts lazily; make the next transaction's end flush them. */
async function flushStats(): Promise<void> {
  await db.query('SELECT pg_stat_force_next_flush()');
  await db.query('SELECT 1');
}

test('without autovacuum (the embedded database, or a server with it off), tables changed beyond its threshold are analysed and then planned by their real size', async (t) => {
  if (db.kind !== 'pglite') {
    const [s] = await db.query<{ setting: string }>(`SELECT current_setting('autovacuum') AS setting`);
    if (s!.setting === 'on') {
      assert.deepEqual(await analyzeChangedTables(db), [], 'this PostgreSQL server runs autovacuum itself');
      t.skip('PostgreSQL with autovacuum on: it analyses');
      return;
    }
  }
  await analyzeChangedTables(db); // whatever the migrations touched
  await db.query(`INSERT INTO face_enrollments (id, account_id, environment, subject_reference, model)
                  SELECT 'fen_t' || g, 'acct_t', 'production', 'cus_' || g, 'm' FROM generate_series(1, 2000) g`);
  await flushStats();
  const before = await db.query<{ reltuples: number }>("SELECT reltuples FROM pg_class WHERE oid = 'face_enrollments'::regclass");
  assert.ok(Number(before[0]!.reltuples) <= 0, 'never analysed: the planner does not know the rows');
  const analysed = await analyzeChangedTables(db);
  assert.ok(
    analysed.some((n) => n.endsWith('.face_enrollments')),
    `face_enrollments analysed (${analysed.join(', ')})`,
  );
  const after = await db.query<{ reltuples: number }>("SELECT reltuples FROM pg_class WHERE oid = 'face_enrollments'::regclass");
  assert.equal(Number(after[0]!.reltuples), 2000);
  // Unchanged since: nothing to do; a few rows more stay under the threshold (50 + 10 %).
  await db.query(
    `INSERT INTO face_enrollments (id, account_id, environment, subject_reference, model) SELECT 'fen_u' || g, 'acct_t', 'production', 'c', 'm' FROM generate_series(1, 20) g`,
  );
  await flushStats();
  assert.ok(!(await analyzeChangedTables(db)).some((n) => n.endsWith('.face_enrollments')));
});

test('after a bulk load (changed rows given): only the named tables, counting the rows just written, also where autovacuum runs', async () => {
  await db.query('ANALYZE face_enrollments');
  const tuples = async () =>
    Number((await db.query<{ n: number }>("SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'face_enrollments'::regclass"))[0]!.n);
  const base = await tuples();
  assert.deepEqual(await analyzeChangedTables(db, { face_enrollments: 0 }), [], 'no rows changed: not even looked at');
  // 30 rows is under 50 + 10 % whatever the statistics counter says.
  await db.query(
    `INSERT INTO face_enrollments (id, account_id, environment, subject_reference, model) SELECT 'fen_b' || g, 'acct_t', 'production', 'c', 'm' FROM generate_series(1, 30) g`,
  );
  assert.deepEqual(await analyzeChangedTables(db, { face_enrollments: 30 }), []);
  // The load says how many rows it wrote: due at once, before the statistics collector has counted them.
  const big = Math.ceil(ANALYZE_BASE_ROWS + ANALYZE_SCALE_FACTOR * base) + 1;
  await db.query(
    `INSERT INTO face_enrollments (id, account_id, environment, subject_reference, model) SELECT 'fen_c' || g, 'acct_t', 'production', 'c', 'm' FROM generate_series(1, $1::int) g`,
    [big],
  );
  const analysed = await analyzeChangedTables(db, { face_enrollments: big, no_such_table: 5000 });
  assert.equal(analysed.length, 1, analysed.join());
  assert.match(analysed[0]!, /\.face_enrollments$/);
  const total = Number((await db.query<{ n: number }>('SELECT count(*)::float8 AS n FROM face_enrollments'))[0]!.n);
  assert.equal(await tuples(), total, 'planned by its real size');
});

test('rows written before the statistics counter was lost (a restart) are still seen, from the table having grown past its pages at its last ANALYZE', async (t) => {
  if (db.kind !== 'pglite') {
    const [s] = await db.query<{ setting: string }>(`SELECT current_setting('autovacuum') AS setting`);
    if (s!.setting === 'on') {
      t.skip('PostgreSQL with autovacuum on: it analyses');
      return;
    }
  }
  await db.query('ANALYZE face_enrollments');
  const base = Number((await db.query<{ n: number }>('SELECT count(*)::float8 AS n FROM face_enrollments'))[0]!.n);
  const more = Math.ceil(2 * (ANALYZE_BASE_ROWS + ANALYZE_SCALE_FACTOR * base));
  await db.query(
    `INSERT INTO face_enrollments (id, account_id, environment, subject_reference, model) SELECT 'fen_r' || g, 'acct_t', 'production', 'c', 'm' FROM generate_series(1, $1::int) g`,
    [more],
  );
  await flushStats();
  // What a restart of the embedded database does to the counter (this table only: other test files share the database).
  await db.query("SELECT pg_stat_reset_single_table_counters('face_enrollments'::regclass)");
  assert.equal(await counted(db, 'face_enrollments'), 0, 'the counter no longer knows the rows');
  assertAnalysed(await analyzeChangedTables(db), 'face_enrollments');
  assert.equal(await plannedRows(db, 'face_enrollments'), base + more);
  assert.ok(!(await analyzeChangedTables(db)).some((n) => n.endsWith('.face_enrollments')), 'analysed once, not at every run');
});

test('the embedded database restarted on its data directory: a table that grew unanalysed before the stop is analysed by the next run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'verity-analyze-'));
  try {
    let embedded = await openDb({ dataDir: dir, preparedPerConnection: 10 });
    try {
      await embedded.query('CREATE TABLE grown (id int PRIMARY KEY, note text)');
      await embedded.query('CREATE TABLE tiny (id int PRIMARY KEY)');
      await embedded.query('ANALYZE grown');
      await embedded.query('ANALYZE tiny');
      await embedded.query(`INSERT INTO grown SELECT g, 'row ' || g FROM generate_series(1, 5000) g`);
      await embedded.query('INSERT INTO tiny VALUES (1), (2), (3)');
    } finally {
      await embedded.close();
    }
    embedded = await openDb({ dataDir: dir, preparedPerConnection: 10 });
    try {
      assert.equal(await counted(embedded, 'grown'), 0, 'the counter did not survive the restart');
      assertAnalysed(await analyzeChangedTables(embedded), 'grown');
      assert.equal(await plannedRows(embedded, 'grown'), 5000);
      assert.deepEqual(await analyzeChangedTables(embedded), [], 'nothing left to do');
    } finally {
      await embedded.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
