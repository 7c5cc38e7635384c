// Planner statistics of the registry tables: a bulk import refreshes them, and the identifier and name
// lookups go through their indexes even where the planner has none (the state right after an import
// wherever autovacuum is off or lagging). Plans are read with EXPLAIN; nothing here is timed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDb } from '../../../test/helpers/test-db.js';
import { inlineParams } from '../../../test/helpers/explain.js';
import type { Db } from '../../platform/db.js';
import { importRegistryFile } from './registry-import.js';
import { identifierQuery } from './registry-repository.js';

let db: Db, close: () => Promise<void>;
const dir = mkdtempSync(join(tmpdir(), 'registry-stats-'));
before(async () => ({ db, close } = await createTestDb()));
after(async () => (await close(), rmSync(dir, { recursive: true, force: true })));

const lei = (i: number) => `5299${String(i).padStart(14, '0')}00`;
/** A GLEIF LEI file of n records (written for this test). */
function leiFile(name: string, n: number, from = 0): string {
  const lines = [
    'LEI,Entity.LegalName,Entity.LegalAddress.Country,Entity.LegalJurisdiction,Entity.EntityStatus,Registration.RegistrationStatus',
  ];
  for (let i = from; i < from + n; i++) lines.push(`${lei(i)},Stat Word${i} Trading Limited,GB,GB,ACTIVE,ISSUED`);
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

const statsOf = async (table: string) =>
  (
    await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = current_schema() AND tablename = $1`, [table])
  )[0]!.n;

test('an import that changes rows past the autovacuum threshold (50 + 10 %) refreshes the statistics of the tables it changed; a small one does not', async () => {
  // 3 records: each writes up to 10 name postings (4 words, 6 word pairs), so the batch stays under 50 rows in
  // every table however soon the statistics counters catch up (10 records crossed it once they had).
  const small = await importRegistryFile(db, { path: leiFile('small.csv', 3), format: 'gleif-lei-csv' });
  assert.equal(small.ok, true, small.error);
  assert.deepEqual([await statsOf('registry_entities'), await statsOf('registry_name_tokens')], [0, 0]);

  const bulk = await importRegistryFile(db, { path: leiFile('bulk.csv', 1200, 10), format: 'gleif-lei-csv' });
  assert.equal(bulk.ok, true, bulk.error);
  assert.ok((await statsOf('registry_entities')) > 0, 'registry_entities analysed');
  assert.ok((await statsOf('registry_name_tokens')) > 0, 'registry_name_tokens analysed');
  // Vacuumed too: the visibility map lets name searches read their postings index-only. VACUUM marks a page
  // all-visible only when no open transaction could still see its rows as new: on a shared PostgreSQL another
  // test's open transaction can hold that back, so then a further bulk batch is imported once it has passed.
  const allVisible = async () =>
    (
      await db.query<{ n: number }>(
        `SELECT relallvisible::int AS n FROM pg_class WHERE oid = to_regclass(current_schema() || '.registry_name_tokens')`,
      )
    )[0]!.n;
  const horizonHeld = async () =>
    (
      await db
        .query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_xmin IS NOT NULL AND pid <> pg_backend_pid()`)
        .catch(() => [{ n: 0 }])
    )[0]!.n > 0;
  for (let attempt = 1; (await allVisible()) === 0; attempt++) {
    assert.ok(attempt < 5 && (await horizonHeld()), 'registry_name_tokens pages marked all-visible');
    await new Promise((r) => setTimeout(r, 500 * attempt));
    const again = await importRegistryFile(db, {
      path: leiFile(`bulk${attempt}.csv`, 1200 * (attempt + 1), 2000 * attempt),
      format: 'gleif-lei-csv',
    });
    assert.equal(again.ok, true, again.error);
  }
  // Not touched by this batch: left to autovacuum.
  assert.equal(await statsOf('registry_relationships'), 0);
});

/** The plan of a query when an ordered scan is made as attractive as it is on a large table without statistics. */
async function planPreferringOrderedScans(q: { sql: string; params: unknown[] }): Promise<string> {
  return db.transaction(async (tx) => {
    // At 1,000,000 rows without statistics the planner guesses thousands of rows per identifier, so walking
    // the primary key in order under LIMIT looks cheaper than sorting; making sorts prohibitive reproduces
    // that choice on a small table.
    await tx.query('SET LOCAL enable_sort = off');
    const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${inlineParams(q)}`);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

test('exact-LEI and number lookups use their indexes, never an ordered primary-key scan with a filter', async () => {
  const byLei = await planPreferringOrderedScans(identifierQuery(lei(500), undefined, 100)!);
  assert.match(byLei, /registry_entities_lei/);
  assert.doesNotMatch(byLei, /registry_entities_pkey/);
  const byNumber = await planPreferringOrderedScans(identifierQuery(undefined, '00000042', 100)!);
  assert.match(byNumber, /registry_entities_number/);
  assert.match(byNumber, /registry_entities_ref/);
  assert.doesNotMatch(byNumber, /registry_entities_pkey/);
});
