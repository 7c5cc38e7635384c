import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createTestDb } from '../../../test/helpers/test-db.js';
import type { Db } from '../../platform/db.js';
import { resolveUbos } from '../../engines/ownership/index.js';
import { sharedData, SKIP_NO_DATA } from '../../providers/lists/fixtures/shared-data.js';
import { importRegistryFile } from './registry-import.js';
import { loadGraph } from './graph.js';

const fixture = (f: string) => new URL(`../../providers/registries/fixtures/${f}`, import.meta.url).pathname;
let db: Db, close: () => Promise<void>;
before(async () => ({ db, close } = await createTestDb()));
after(() => close());

const count = async (table: string) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

test('a BODS package imports as one batch, resolves through the stored graph, and re-importing it changes nothing', async () => {
  const r = await importRegistryFile(db, { path: fixture('bods-package.json'), format: 'bods' });
  assert.equal(r.ok, true, r.error);
  assert.deepEqual([r.counts.entities, r.counts.persons, r.counts.relationships, r.batch?.publish_date], [2, 2, 4, '2024-01-02']);
  assert.deepEqual(r.ownershipChanged.refs.sort(), ['ent-a', 'ent-b']);

  const { graph, batchIds } = await loadGraph(db, 'bods', 'ent-a');
  assert.deepEqual([...batchIds], [r.batch!.id]);
  const ubos = resolveUbos(graph, 'ent-a', { asOf: '2024-06-01' });
  const carla = ubos.owners.find((o) => o.name === 'Carla Owner')!;
  // 80 % of (more than 50 %, at most 75 %]: more than 40 %, at most 60 %.
  assert.deepEqual(carla.ownership, { min: 40, max: 60, minExclusive: true, maxExclusive: false });
  assert.deepEqual([carla.qualifies, carla.figureBasis, carla.paths[0]?.nodeIds], [true, 'computed', ['per-1', 'ent-b', 'ent-a']]);
  assert.deepEqual(
    ubos.unresolved.map((u) => [u.reason, u.detail]),
    [['unknown_person', 'informationUnknownToPublisher']],
  );

  const batches = await count('registry_import_batches');
  const again = await importRegistryFile(db, { path: fixture('bods-package.json'), format: 'bods' });
  assert.deepEqual([again.ok, again.unchanged, again.batch?.id], [true, true, r.batch!.id]);
  assert.equal(await count('registry_import_batches'), batches);
});

test('a file failing half-way leaves the registry as it was and records a failed batch naming file and line', async () => {
  await importRegistryFile(db, { path: fixture('bods-package.json'), format: 'bods' });
  const before = await db.query(`SELECT source, ref, batch_id, data FROM registry_entities ORDER BY source, ref`);
  const bad = await importRegistryFile(db, { path: fixture('bods-invalid.json'), format: 'bods' });
  assert.equal(bad.ok, false);
  assert.match(bad.error!, /^bods-invalid\.json:\d+: statement 2 .*fails the BODS 0\.4 schema/);
  assert.equal(bad.batch?.state, 'failed');
  assert.deepEqual(await db.query(`SELECT source, ref, batch_id, data FROM registry_entities ORDER BY source, ref`), before);
  const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM registry_entities WHERE batch_id = $1`, [bad.batch!.id]);
  assert.equal(rows[0]!.n, 0);
});

test('PSC bands through the import: a (25, 50] holder qualifies at 25 %, a corporate owner is walked, a ceased one is not counted', async () => {
  assert.equal((await importRegistryFile(db, { path: fixture('gb-companies.csv'), format: 'gb-coh-companies-csv' })).ok, true);
  const psc = await importRegistryFile(db, { path: fixture('psc-stream.jsonl'), format: 'gb-coh-psc' });
  assert.equal(psc.ok, true, psc.error);
  assert.deepEqual(psc.counts.skipped, { 'unknown kind future-kind-of-record': 1, 'totals line': 1 });
  const { graph } = await loadGraph(db, 'gb_coh', '06528297');
  const r = resolveUbos(graph, '06528297', { asOf: '2024-01-01' });
  const ada = r.owners.find((o) => o.name === 'Ms Ada Example')!;
  assert.deepEqual([ada.ownership.min, ada.ownership.minExclusive, ada.ownership.max, ada.qualifies], [25, true, 50, true]);
  assert.equal(
    r.owners.some((o) => o.name === 'Mr Old Owner'),
    false,
  );
  const old = resolveUbos(graph, '06528297', { asOf: '2015-01-01' });
  assert.equal(old.owners.find((o) => o.name === 'Mr Old Owner')?.qualifies, true);
  // The corporate PSC has no owners of its own on file: an entity at the top, unresolved.
  assert.deepEqual(
    r.unresolved.map((u) => u.reason),
    ['no_known_person'],
  );
});

const bods = sharedData('kyb', 'bods', 'examples');
test(
  'every shared BODS example resolves to the owners and shares it declares, through import and the stored graph',
  { skip: bods ? false : SKIP_NO_DATA },
  async () => {
    const cases: [string, string, string, number, number][] = [
      ['bods-package.json', 'c359f58d2977', 'Jennifer Hewitson-Smith', 100, 100],
      ['indirect-ownership.json', 'ad3f6c2fcc9e', 'Person 1', 30, 30],
      ['multiple-indirect-ownership.json', '63e3a8a8946f', 'Person 1', 60, 60],
      ['mutilple-indirect-ownership-2.json', '1e049760d6c7', 'Person 1', 60, 60],
      ['mixed-direct-and-indirect-ownership.json', '9bfe59b6a869', 'Person 1', 100, 100],
      ['joint-ownership.json', '31c55e425764', 'Natalie Coleman', 50, 50],
      ['joint-ownership.json', '31c55e425764', 'Roberto Lopez', 50, 50],
      ['simple-pep-declaration.json', '841083ba86e3', 'Michael Hubbard', 25, 50],
    ];
    for (const [file, subject, name, min, max] of cases) {
      const r = await importRegistryFile(db, { path: join(bods!, file), format: 'bods' });
      assert.equal(r.ok, true, `${file}: ${r.error}`);
      const { graph } = await loadGraph(db, 'bods', subject);
      const o = resolveUbos(graph, subject, { asOf: '2024-01-01' }).owners.find((x) => x.name === name);
      assert.deepEqual([o?.ownership.min, o?.ownership.max], [min, max], `${file} ${name}`);
    }
    const trust = await importRegistryFile(db, { path: join(bods!, 'levent.json'), format: 'bods' });
    assert.equal(trust.ok, true);
    const t = resolveUbos((await loadGraph(db, 'bods', '8e40d059')).graph, '8e40d059', { asOf: '2024-01-01' });
    assert.deepEqual(t.owners.map((o) => [o.name, o.reasons]).sort(), [
      ['Andrew Anderson', ['control']],
      ['Bella Buxton', ['control']],
    ]);
  },
);

const gleif = sharedData('kyb', 'gleif_api');
test(
  'GLEIF fixtures through import: a NON_PUBLIC direct parent beside a known ultimate parent',
  { skip: gleif ? false : SKIP_NO_DATA },
  async () => {
    for (const f of [
      'lei_records/multi_lei_records.json',
      'relationships/ultimate-parent-relationship_254900LNRYNOQ9YPU758.json',
      'reporting_exceptions/direct-parent-reporting-exception_254900LNRYNOQ9YPU758.json',
    ]) {
      const r = await importRegistryFile(db, { path: join(gleif!, f), format: 'gleif-json' });
      assert.equal(r.ok, true, r.error);
    }
    const { graph, exceptions } = await loadGraph(db, 'gleif', '254900LNRYNOQ9YPU758');
    assert.deepEqual(
      exceptions.map((x) => [x.data.category, x.data.reason]),
      [['DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NON_PUBLIC']],
    );
    const r = resolveUbos(graph, '254900LNRYNOQ9YPU758', { asOf: '2025-06-01' });
    assert.deepEqual(r.unresolved.map((u) => [u.nodeId, u.reason]).sort(), [
      ['ZXTILKJKG63JELOEG630', 'no_known_person'],
      ['exception:254900LNRYNOQ9YPU758|DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'non_public'],
    ]);
  },
);

test('files are read off the main thread: the main thread never calls the parser, and a parser error keeps file and line', async () => {
  const { registryFormats } = await import('../../providers/registries/index.js');
  const format = registryFormats['gb-coh-companies-csv']!;
  const parse = format.parse;
  format.parse = () => {
    throw new Error('parsed on the main thread');
  };
  try {
    const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = join(mkdtempSync(join(tmpdir(), 'kyb-worker-')), 'companies-new.csv');
    writeFileSync(
      path,
      readFileSync(fixture('gb-companies.csv'), 'utf8').trimEnd() +
        '\nNEW THREAD CO LTD,09999999,,,1 NEW ROAD,,LEEDS,,ENGLAND,LS2 2AA,Private Limited Company,Active,United Kingdom,,01/01/2020,\n',
    );
    const r = await importRegistryFile(db, { path, format: 'gb-coh-companies-csv' });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual([r.unchanged, r.counts.entities], [false, 3]);
    const bad = await importRegistryFile(db, { path: fixture('psc-invalid-line.jsonl'), format: 'gb-coh-psc' });
    assert.equal(bad.ok, false);
    assert.match(bad.error!, /^psc-invalid-line\.jsonl:\d+: invalid JSON/);
    const missing = await importRegistryFile(db, { path: fixture('no-such-file.csv'), format: 'gb-coh-companies-csv' });
    assert.equal(missing.ok, false);
    assert.match(missing.error!, /^no-such-file\.csv: cannot read/);
  } finally {
    format.parse = parse;
  }
});
