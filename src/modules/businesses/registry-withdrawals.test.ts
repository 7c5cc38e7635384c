// GLEIF Level 2 records that stop applying: withdrawn in a delta (the deletion extension), or absent from a later
// full golden-copy file of their kind. They leave the graph from the batch that ended them; the row stays with the
// batch that wrote it and the batch that ended it. Files written by the test (not recorded data).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDb } from '../../../test/helpers/test-db.js';
import type { Db } from '../../platform/db.js';
import { importMode, importRegistryFile, type ImportMode } from './registry-import.js';
import { loadGraph } from './graph.js';
import { runRegistriesCommand } from './registry-cli.js';

const lei = (name: string) => `${name}${'0'.repeat(18)}`.slice(0, 18) + '00';
const REPEX_HEAD = 'LEI,ExceptionCategory,ExceptionReason.1,ExceptionReference.1,Extension.Deletion.DeletedAt';
const RR_HEAD =
  'Relationship.StartNode.NodeID,Relationship.StartNode.NodeIDType,Relationship.EndNode.NodeID,Relationship.EndNode.NodeIDType,Relationship.RelationshipType,Relationship.RelationshipStatus,Relationship.Period.1.startDate,Relationship.Period.1.periodType,Registration.RegistrationStatus,Extension.Deletion.DeletedAt';
const repex = (l: string, category: string, reason: string, deleted = '') => `${l},${category},${reason},,${deleted}`;
const rr = (child: string, parent: string, deleted = '') =>
  `${child},LEI,${parent},LEI,IS_DIRECTLY_CONSOLIDATED_BY,ACTIVE,2015-01-01T00:00:00Z,RELATIONSHIP_PERIOD,PUBLISHED,${deleted}`;

let db: Db, close: () => Promise<void>, dir: string;
before(async () => {
  ({ db, close } = await createTestDb());
  dir = mkdtempSync(join(tmpdir(), 'verity-withdraw-'));
});
after(() => close());

async function load(name: string, format: string, lines: string[], mode?: ImportMode) {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  const r = await importRegistryFile(db, { path, format, ...(mode ? { mode } : {}) });
  return r;
}
const repexFile = (name: string, rows: string[]) => load(name, 'gleif-repex-csv', [REPEX_HEAD, ...rows]);
const edgesOf = async (ref: string) => [...(await loadGraph(db, 'gleif', ref)).graph.edges.values()].map((e) => `${e.from}->${e.to}`);
const row = async (table: string, ref: string) =>
  (
    await db.query<{ batch_id: string; ended_batch_id: string | null; ended_on: string | null }>(
      `SELECT batch_id, ended_batch_id, ended_on FROM ${table} WHERE source = 'gleif' AND ref = $1`,
      [ref],
    )
  )[0];

test('full or delta: explicit, else by GLEIF file name; only relationship and exception files can be full', () => {
  assert.equal(importMode('gleif-repex-csv', '20240101-0800-gleif-goldencopy-repex-golden-copy.csv.zip'), 'full');
  assert.equal(importMode('gleif-rr-csv', '20240101-0800-gleif-goldencopy-rr-last-day.csv.zip'), 'delta');
  assert.equal(importMode('gleif-rr-csv', 'rr.csv'), 'delta');
  assert.equal(importMode('gleif-rr-csv', 'rr.csv', 'full'), 'full');
  assert.equal(importMode('gleif-repex-csv', 'x-golden-copy.csv', 'delta'), 'delta');
  assert.throws(() => importMode('gleif-lei-csv', 'lei.csv', 'full'), /cannot be imported as a full file/);
});

test('a reporting exception withdrawn in a delta stops counting from that batch; the row keeps its history', async () => {
  const A = lei('5299WDREPEXA');
  const golden = await repexFile('20240101-0800-gleif-goldencopy-repex-golden-copy.csv', [
    repex(A, 'DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NON_PUBLIC'),
  ]);
  assert.equal(golden.ok, true, golden.error);
  assert.deepEqual(await edgesOf(A), [`exception:${A}|DIRECT_ACCOUNTING_CONSOLIDATION_PARENT->${A}`]);

  const delta = await repexFile('20240102-0800-gleif-goldencopy-repex-last-day.csv', [
    repex(A, 'DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NON_PUBLIC', '2024-01-02T06:00:00Z'),
  ]);
  assert.equal(delta.ok, true, delta.error);
  assert.deepEqual([delta.counts.mode, delta.counts.ended, delta.ownershipChanged.refs], ['delta', 1, [A]]);
  assert.deepEqual(await edgesOf(A), []);
  assert.deepEqual(await row('registry_exceptions', `${A}|DIRECT_ACCOUNTING_CONSOLIDATION_PARENT`), {
    batch_id: golden.batch!.id,
    ended_batch_id: delta.batch!.id,
    ended_on: '2024-01-02',
  });
  // The same delta again changes nothing.
  const again = await repexFile('20240102-0800-gleif-goldencopy-repex-last-day.csv', [
    repex(A, 'DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NON_PUBLIC', '2024-01-02T06:00:00Z'),
  ]);
  assert.deepEqual([again.ok, again.unchanged, again.batch?.id], [true, true, delta.batch!.id]);
});

test('a relationship withdrawn in a delta leaves the graph; a delta that merely lacks a record ends nothing', async () => {
  const C = lei('5299WDRRCHILD'),
    P = lei('5299WDRRPARENT'),
    D = lei('5299WDRRKEPT'),
    Q = lei('5299WDRRKEPTP');
  const first = await load('rr-a.csv', 'gleif-rr-csv', [RR_HEAD, rr(C, P), rr(D, Q)]);
  assert.equal(first.ok, true, first.error);
  const delta = await load('rr-b.csv', 'gleif-rr-csv', [RR_HEAD, rr(C, P, '2024-02-01T00:00:00Z')]);
  assert.deepEqual([delta.ok, delta.counts.ended, delta.ownershipChanged.refs], [true, 1, [C]]);
  assert.deepEqual(await edgesOf(C), []);
  assert.deepEqual(await edgesOf(D), [`${Q}->${D}`]);
  const ref = `${C}|IS_DIRECTLY_CONSOLIDATED_BY|${P}`;
  assert.deepEqual(await row('registry_relationships', ref), {
    batch_id: first.batch!.id,
    ended_batch_id: delta.batch!.id,
    ended_on: '2024-02-01',
  });
  // Stated again later, it applies again, with the batch that stated it.
  const back = await load('rr-c.csv', 'gleif-rr-csv', [RR_HEAD, rr(C, P)]);
  assert.deepEqual(await edgesOf(C), [`${P}->${C}`]);
  assert.deepEqual(await row('registry_relationships', ref), { batch_id: back.batch!.id, ended_batch_id: null, ended_on: null });
});

test('a full golden copy ends the exceptions and relationships of its kind it no longer carries', async () => {
  const E = lei('5299FULLEXC'),
    F = lei('5299FULLKEPT'),
    G = lei('5299FULLCHILD'),
    H = lei('5299FULLPARENT');
  const one = await repexFile('20240301-0800-gleif-goldencopy-repex-golden-copy.csv', [
    repex(E, 'ULTIMATE_ACCOUNTING_CONSOLIDATION_PARENT', 'NATURAL_PERSONS'),
    repex(F, 'DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NO_KNOWN_PERSON'),
  ]);
  assert.equal(one.ok, true, one.error);
  const rel = await load('rr-full-1.csv', 'gleif-rr-csv', [RR_HEAD, rr(G, H)]);
  assert.equal(rel.ok, true, rel.error);

  // E now reports its parent: the next golden copy has no exception for it.
  const two = await repexFile('20240302-0800-gleif-goldencopy-repex-golden-copy.csv', [
    repex(F, 'DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NO_KNOWN_PERSON'),
  ]);
  assert.equal(two.ok, true, two.error);
  assert.equal(two.counts.mode, 'full');
  assert.ok(two.ownershipChanged.refs.includes(E));
  assert.equal(two.ownershipChanged.refs.includes(F), false);
  assert.deepEqual(await edgesOf(E), []);
  assert.equal((await edgesOf(F)).length, 1);
  assert.deepEqual(await row('registry_exceptions', `${E}|ULTIMATE_ACCOUNTING_CONSOLIDATION_PARENT`), {
    batch_id: one.batch!.id,
    ended_batch_id: two.batch!.id,
    ended_on: null,
  });
  // A repex golden copy ends nothing of the relationships; an RR file read as full (explicit option) does.
  assert.deepEqual(await edgesOf(G), [`${H}->${G}`]);
  const fullRr = await load('rr-full-2.csv', 'gleif-rr-csv', [RR_HEAD], 'full');
  assert.equal(fullRr.ok, true, fullRr.error);
  assert.ok(fullRr.counts.ended >= 1);
  assert.deepEqual(await edgesOf(G), []);
});

test('a full file that fails half-way ends nothing', async () => {
  const K = lei('5299FAILKEPT');
  const ok = await repexFile('20240401-0800-gleif-goldencopy-repex-golden-copy.csv', [
    repex(K, 'DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NON_PUBLIC'),
  ]);
  assert.equal(ok.ok, true, ok.error);
  const bad = await repexFile('20240402-0800-gleif-goldencopy-repex-golden-copy.csv', [
    repex(lei('5299FAILOTHER'), 'DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NON_PUBLIC'),
    repex('NOT-AN-LEI', 'DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NON_PUBLIC'),
  ]);
  assert.equal(bad.ok, false);
  assert.match(bad.error ?? '', /:3: LEI is not an LEI/);
  assert.equal((await edgesOf(K)).length, 1);
  assert.deepEqual(await row('registry_exceptions', `${K}|DIRECT_ACCOUNTING_CONSOLIDATION_PARENT`), {
    batch_id: ok.batch!.id,
    ended_batch_id: null,
    ended_on: null,
  });
});

test('a relationship record whose registration is RETIRED is withdrawn as well', async () => {
  const C = lei('5299RETCHILD'),
    P = lei('5299RETPARENT');
  assert.equal((await load('rr-ret-1.csv', 'gleif-rr-csv', [RR_HEAD, rr(C, P)])).ok, true);
  const retired = await load('rr-ret-2.csv', 'gleif-rr-csv', [RR_HEAD, rr(C, P).replace(',PUBLISHED,', ',RETIRED,')]);
  assert.deepEqual([retired.ok, retired.counts.ended], [true, 1]);
  assert.deepEqual(await edgesOf(C), []);
});

test('CLI: --full names what it ended; --full on a format that cannot be full is a usage error', async () => {
  const out: string[] = [],
    err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
  const M = lei('5299CLIFULL');
  const path = join(dir, 'cli-repex.csv');
  writeFileSync(path, `${[REPEX_HEAD, repex(M, 'DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NON_PUBLIC')].join('\n')}\n`);
  assert.equal(
    await runRegistriesCommand(db, 'import', { positionals: [path], format: 'gleif-repex-csv', json: true, mode: 'full' }, io),
    0,
  );
  const r = JSON.parse(out.at(-1)!) as { counts: { mode: string; ended: number } };
  assert.equal(r.counts.mode, 'full');
  assert.ok(r.counts.ended >= 1, 'the exceptions of the earlier tests are not in this file');
  assert.equal(
    await runRegistriesCommand(db, 'import', { positionals: [path], format: 'gleif-lei-csv', json: false, mode: 'full' }, io),
    64,
  );
  assert.match(err.at(-1)!, /cannot be imported as a full file/);
});
