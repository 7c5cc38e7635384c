import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../platform/db.js';
import { createTestDb } from '../../test/helpers/test-db.js';
import { analyzeChangedTables } from './index.js';

let db: Db;
let closeDb: () => Promise<void>;
before(async () => ({ db, close: closeDb } = await createTestDb()));
after(() => closeDb());

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
