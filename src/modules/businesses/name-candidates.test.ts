// Name candidates at scale: a word held by more than COMMON_WORD records is never read whole for a search,
// yet the record holding the query's words is still found, whether the other words are rare or common too.
// The postings read are counted with EXPLAIN ANALYZE; nothing here is timed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDb } from '../../../test/helpers/test-db.js';
import { inlineParams } from '../../../test/helpers/explain.js';
import type { Db } from '../../platform/db.js';
import { importRegistryFile } from './registry-import.js';
import { COMMON_WORD, registryRecords, tokenFrequencyQuery, tokenQuery } from './registry-repository.js';
import { entityTokens, nameTokens, PAIR_WORDS } from './name-tokens.js';
import { readFileSync } from 'node:fs';

let db: Db, close: () => Promise<void>;
const dir = mkdtempSync(join(tmpdir(), 'name-candidates-'));
const lei = (i: number) => `5299${String(i).padStart(14, '0')}00`;
// 0..1199 "Alpha …", 1200..2399 "Beta …": both words common. 2400 "Alpha Beta" (both common words),
// 2401 "Alpha Zircon" (a common and a rare word), 2402 "Zircon Quartz" (the rare word elsewhere).
const names = (i: number): string =>
  i < 1200
    ? `Alpha Word${i} Limited`
    : i < 2400
      ? `Beta Word${i} Limited`
      : ['Alpha Beta Limited', 'Alpha Zircon Limited', 'Zircon Quartz Limited'][i - 2400]!;
const N = 2403;

before(async () => {
  ({ db, close } = await createTestDb());
  const lines = [
    'LEI,Entity.LegalName,Entity.LegalAddress.Country,Entity.LegalJurisdiction,Entity.EntityStatus,Registration.RegistrationStatus',
  ];
  for (let i = 0; i < N; i++) lines.push(`${lei(i)},${names(i)},GB,GB,ACTIVE,ISSUED`);
  const path = join(dir, 'lei.csv');
  writeFileSync(path, lines.join('\n') + '\n');
  const r = await importRegistryFile(db, { path, format: 'gleif-lei-csv' });
  assert.equal(r.ok, true, r.error);
});
after(async () => (await close(), rmSync(dir, { recursive: true, force: true })));

async function candidates(query: string, limit = 50) {
  return (await registryRecords.byTokens(db, nameTokens([query]), null, limit)).map((r) => ({ name: r.data.name, hits: r.hits }));
}

/** Rows the plan's scans of registry_name_tokens returned, summed over loops. */
async function postingsRead(query: string, limit = 50): Promise<number> {
  const df = await db.query<{ token: string; df: number }>(tokenFrequencyQuery.sql, [nameTokens([query]), null, COMMON_WORD]);
  const q = tokenQuery(df, null, limit)!;
  const sql = inlineParams(q);
  const [row] = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`);
  const plan = typeof row!['QUERY PLAN'] === 'string' ? JSON.parse(row!['QUERY PLAN']) : row!['QUERY PLAN'];
  let rows = 0;
  const walk = (n: Record<string, unknown>): void => {
    if (n['Relation Name'] === 'registry_name_tokens') rows += Number(n['Actual Rows']) * Number(n['Actual Loops']);
    for (const c of (n['Plans'] as Record<string, unknown>[] | undefined) ?? []) walk(c);
  };
  walk((plan as { Plan: Record<string, unknown> }[])[0]!.Plan);
  return rows;
}

test('word frequencies are counted up to the common-word bound', async () => {
  const df = await db.query<{ token: string; df: number }>(tokenFrequencyQuery.sql, [['alpha', 'zircon', 'nowhere'], null, COMMON_WORD]);
  assert.deepEqual(Object.fromEntries(df.map((r) => [r.token, r.df])), { alpha: COMMON_WORD + 1, zircon: 2, nowhere: 0 });
});

test('a common and a rare word: the record holding both comes first, and the common word is not read whole', async () => {
  const c = await candidates('Alpha Zircon Ltd');
  assert.deepEqual(c[0], { name: 'Alpha Zircon Limited', hits: 2 });
  assert.ok(c.some((x) => x.name === 'Zircon Quartz Limited' && x.hits === 1));
  // 2 postings of "zircon", at most the limit of "alpha" to fill the list, one probe per candidate.
  const read = await postingsRead('Alpha Zircon Ltd');
  assert.ok(read < 200, `${read} postings read; "alpha" alone has 1,201`);
});

test('two common words: the record holding both is found though its postings sort last', async () => {
  const c = await candidates('Alpha Beta');
  assert.deepEqual(c[0], { name: 'Alpha Beta Limited', hits: 2 });
  assert.equal(c.filter((x) => x.hits === 2).length, 1);
  // Through the pair's own posting: neither list of 1,201 is read or intersected.
  const read = await postingsRead('Alpha Beta');
  assert.ok(read < 200, `${read} postings read; "alpha" and "beta" have 1,201 each`);
});

test('a misspelt word takes no part; a query of unknown words has no candidates', async () => {
  const c = await candidates('Zirconn Quartz');
  assert.deepEqual(c[0], { name: 'Zircon Quartz Limited', hits: 1 });
  assert.deepEqual(await candidates('Nowhere Nothing'), []);
});

test('a source filter applies to every branch', async () => {
  assert.deepEqual(await registryRecords.byTokens(db, nameTokens(['Alpha Zircon']), ['companies-house'], 50), []);
  assert.deepEqual(await registryRecords.byTokens(db, nameTokens(['Alpha Beta']), ['companies-house'], 50), []);
  assert.equal((await registryRecords.byTokens(db, nameTokens(['Alpha Beta']), ['gleif'], 50))[0]?.data.name, 'Alpha Beta Limited');
});

test('stored pairs follow one rule, at import and in the migration that indexed the words stored before', async () => {
  // More words than PAIR_WORDS, in several scripts (the normaliser transliterates most; an astral ideograph stays).
  const name = 'Zeta alpha Öster Beta ärlig 𝒜stral Ωmega 東京 𠀋 Ebene Delta Gamma Kappa';
  const path = join(dir, 'many-words.csv');
  writeFileSync(
    path,
    `LEI,Entity.LegalName,Entity.LegalAddress.Country,Entity.LegalJurisdiction,Entity.EntityStatus,Registration.RegistrationStatus\n${lei(9999)},${name},DE,DE,ACTIVE,ISSUED\n`,
  );
  assert.equal((await importRegistryFile(db, { path, format: 'gleif-lei-csv' })).ok, true);
  const stored = async () =>
    (
      await db.query<{ token: string }>(`SELECT token FROM registry_name_tokens WHERE ref = $1 ORDER BY token COLLATE "C"`, [lei(9999)])
    ).map((r) => r.token);
  const imported = await stored();
  const words = nameTokens([name]);
  assert.ok(words.length > PAIR_WORDS);
  assert.deepEqual(
    imported,
    [...entityTokens({ name, otherNames: [] } as never)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
  );
  assert.equal(imported.length, words.length + (PAIR_WORDS * (PAIR_WORDS - 1)) / 2);
  // The migration's SQL, run on the words alone, writes the same pairs.
  await db.query(`DELETE FROM registry_name_tokens WHERE ref = $1 AND position(' ' IN token) > 0`, [lei(9999)]);
  const migration = readFileSync(new URL('../../../migrations/0047_registry_name_pairs.sql', import.meta.url), 'utf8');
  await db.query(migration.replace(/^WHERE a\.n/m, `WHERE a.ref = '${lei(9999)}' AND a.n`));
  assert.deepEqual(await stored(), imported);
});
