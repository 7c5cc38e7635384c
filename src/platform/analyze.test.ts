import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Db } from './db.js';
import { createTestDb } from '../../test/helpers/test-db.js';
import { ANALYZE_BASE_ROWS, ANALYZE_SCALE_FACTOR, analyzeChangedTables, maintainTables, upkeepDue, FREEZE_MAX_AGE } from './analyze.js';

let db: Db;
let closeDb: () => Promise<void>;
before(async () => ({ db, close: closeDb } = await createTestDb()));
after(() => closeDb());

/** A statistics counter of the table: rows changed since its last ANALYZE, or its dead rows. */
async function counted(d: Db, table: string, counter: 'n_mod_since_analyze' | 'n_dead_tup' = 'n_mod_since_analyze'): Promise<number> {
  const [r] = await d.query<{ n: number }>(
    `SELECT coalesce(${counter}, 0)::float8 AS n FROM pg_stat_user_tables WHERE relid = to_regclass($1)`,
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

/**
 * On a PostgreSQL server other test files run beside this one: a transaction whose snapshot began before `xid` keeps
 * the versions it made from being reclaimed, by any VACUUM. Wait (a short while: the suite has no long transactions)
 * until no other session's snapshot or running transaction is that old. The embedded database has one session.
 */
async function snapshotsPast(xid: string): Promise<void> {
  if (db.kind === 'pglite') return;
  for (let i = 0; i < 600; i += 1) {
    const [r] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE pid <> pg_backend_pid()
          AND ((backend_xmin IS NOT NULL AND age(backend_xmin) >= age($1::text::xid))
            -- a transaction that wrote and is idle holds no snapshot but its older transaction id holds the horizon
            OR (backend_xid IS NOT NULL AND age(backend_xid) >= age($1::text::xid)))`,
      [String(BigInt(xid) & 0xffffffffn)],
    );
    if (r!.n === 0) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  assert.fail(`another session held a snapshot older than transaction ${xid} for 30 s`);
}

/** Whether autovacuum does the upkeep here (a PostgreSQL server with it on); the embedded database has none. */
async function autovacuumRuns(): Promise<boolean> {
  if (db.kind === 'pglite') return false;
  const [s] = await db.query<{ setting: string }>(`SELECT current_setting('autovacuum') AS setting`);
  return s!.setting === 'on';
}

test('without autovacuum (the embedded database, or a server with it off), tables changed beyond its threshold are analysed and then planned by their real size', async (t) => {
  if (await autovacuumRuns()) {
    assert.deepEqual(await maintainTables(db), { analysed: [], vacuumed: [] }, 'this PostgreSQL server runs autovacuum itself');
    t.skip('PostgreSQL with autovacuum on: it analyses');
    return;
  }
  await maintainTables(db); // whatever the migrations touched
  await db.query(`INSERT INTO face_enrollments (id, account_id, environment, subject_reference, model)
                  SELECT 'fen_t' || g, 'acct_t', 'production', 'cus_' || g, 'm' FROM generate_series(1, 2000) g`);
  await flushStats();
  const before = await db.query<{ reltuples: number }>("SELECT reltuples FROM pg_class WHERE oid = 'face_enrollments'::regclass");
  assert.ok(Number(before[0]!.reltuples) <= 0, 'never analysed: the planner does not know the rows');
  const analysed = (await maintainTables(db)).analysed;
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
  assert.ok(!(await maintainTables(db)).analysed.some((n) => n.endsWith('.face_enrollments')));
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
  if (await autovacuumRuns()) {
    t.skip('PostgreSQL with autovacuum on: it analyses');
    return;
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
  assertAnalysed((await maintainTables(db)).analysed, 'face_enrollments');
  assert.equal(await plannedRows(db, 'face_enrollments'), base + more);
  assert.ok(!(await maintainTables(db)).analysed.some((n) => n.endsWith('.face_enrollments')), 'analysed once, not at every run');
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
      assertAnalysed((await maintainTables(embedded)).analysed, 'grown');
      assert.equal(await plannedRows(embedded, 'grown'), 5000);
      assert.deepEqual(await maintainTables(embedded), { analysed: [], vacuumed: [] }, 'nothing left to do');
    } finally {
      await embedded.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("tables are vacuumed past autovacuum's thresholds (dead rows, inserted rows, old transaction ids), where nothing else vacuums", async (t) => {
  if (await autovacuumRuns()) {
    t.skip('PostgreSQL with autovacuum on: it vacuums');
    return;
  }
  await db.query('CREATE TABLE upkeep_churn (id int PRIMARY KEY, state text)');
  await db.query(`INSERT INTO upkeep_churn SELECT g, 'queued' FROM generate_series(1, 1000) g`);
  await flushStats();
  await maintainTables(db); // the new table: analysed, and vacuumed once its inserts pass 1,000 + 20 %
  await db.query('VACUUM upkeep_churn');
  // A job queue's life: 400 rows updated (400 dead versions) against a threshold of 50 + 20 % of 1,000 = 250.
  const [upd] = await db.query<{ xid: string }>(
    `UPDATE upkeep_churn SET state = 'done' WHERE id <= 400 RETURNING txid_current()::text AS xid`,
  );
  await flushStats();
  await snapshotsPast(upd!.xid);
  const dead = (): Promise<number> => counted(db, 'upkeep_churn', 'n_dead_tup');
  assert.ok((await dead()) >= 400, `dead rows counted (${await dead()})`);
  const run = await maintainTables(db);
  assert.ok(
    run.vacuumed.some((n) => n.endsWith('.upkeep_churn')),
    `vacuumed (${run.vacuumed.join(', ')})`,
  );
  await flushStats();
  assert.equal(await dead(), 0, 'the dead versions reclaimed');
  assert.ok(
    !(await maintainTables(db)).vacuumed.some((n) => n.endsWith('.upkeep_churn')),
    'not again until new dead rows pass the threshold',
  );
  await db.query('DROP TABLE upkeep_churn');
});

test("the upkeep thresholds are autovacuum's defaults, including the freeze age that keeps transaction ids from wrapping around", () => {
  const table = { name: 'public.t', rel: 't', tuples: 1000, modified: 0, analysedPages: 10, pages: 10, dead: 0, inserted: 0, xidAge: 1000 };
  assert.deepEqual(upkeepDue(table), { analyse: false, vacuum: false });
  assert.deepEqual(upkeepDue({ ...table, dead: 250 }), { analyse: false, vacuum: false });
  assert.deepEqual(upkeepDue({ ...table, dead: 251 }), { analyse: false, vacuum: true });
  assert.deepEqual(upkeepDue({ ...table, inserted: 1200 }), { analyse: false, vacuum: false });
  assert.deepEqual(upkeepDue({ ...table, inserted: 1201 }), { analyse: false, vacuum: true });
  assert.deepEqual(upkeepDue({ ...table, xidAge: FREEZE_MAX_AGE + 1 }), { analyse: false, vacuum: true });
  assert.deepEqual(upkeepDue({ ...table, modified: 151 }), { analyse: true, vacuum: false });
  // Pages grown by half at the density seen then: 500 rows more, past 50 + 10 % of 1,000.
  assert.deepEqual(upkeepDue({ ...table, pages: 15 }), { analyse: true, vacuum: false });
});
