// Corporate owners across registers, offline. Fixtures written for this test (not recorded data):
// gb-companies-group.csv, psc-group.jsonl, gleif-lei-group.csv in src/providers/registries/fixtures/.
// ROOT TRADING LIMITED (22222222) is held by MIDCO UK LIMITED (33333333, a corporate PSC registered in England,
// whose company and PSCs are imported), by Overseas Holdings Inc (registered in the US, number 7654321, with a
// GLEIF record under the same number in US-DE and an unrelated German one under the same number), and by a UK
// company that is not on file; MIDCO is held by Ms Mid Owner and in turn by ROOT (a cycle).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../../../test/helpers/test-db.js';
import type { Db } from '../../platform/db.js';
import { resolveUbos } from '../../engines/ownership/index.js';
import { importRegistryFile } from './registry-import.js';
import { loadGraph } from './graph.js';
import { ownershipView } from './view.js';

const fixture = (f: string) => new URL(`../../providers/registries/fixtures/${f}`, import.meta.url).pathname;
let db: Db, close: () => Promise<void>;
before(async () => {
  ({ db, close } = await createTestDb());
  for (const [f, format] of [
    ['gb-companies-group.csv', 'gb-coh-companies-csv'],
    ['psc-group.jsonl', 'gb-coh-psc'],
    ['gleif-lei-group.csv', 'gleif-lei-csv'],
  ] as const) {
    const r = await importRegistryFile(db, { path: fixture(f), format });
    assert.equal(r.ok, true, r.error);
  }
});
after(() => close());

test('a corporate PSC that is an imported UK company continues the graph through its own PSCs; the cycle is read once', async () => {
  const l = await loadGraph(db, 'gb_coh', '22222222');
  // The PSC record became the company's node (named from the company file), not a separate party node.
  assert.equal(l.graph.nodes.get('33333333')?.name, 'MIDCO UK LIMITED');
  assert.equal(
    [...l.graph.nodes.keys()].some((id) => id === 'psc-party:mid1' || id === 'psc-party:root1'),
    false,
  );
  const edges = [...l.graph.edges.values()].map((e) => `${e.from}->${e.to}`).sort();
  assert.deepEqual(edges, [
    '22222222->33333333',
    '33333333->22222222',
    'psc-party:mo1->33333333',
    'psc-party:ovs1->22222222',
    'psc-party:unf1->22222222',
  ]);

  const r = resolveUbos(l.graph, '22222222', { asOf: '2024-01-01' });
  const mid = r.owners.find((o) => o.name === 'Ms Mid Owner')!;
  // (50, 75) of [75, 100]: more than 37.5 %, less than 75 %.
  assert.deepEqual(mid.ownership, { min: 37.5, max: 75, minExclusive: true, maxExclusive: true });
  assert.deepEqual([mid.qualifies, mid.figureBasis, mid.paths[0]?.nodeIds], [true, 'computed', ['psc-party:mo1', '33333333', '22222222']]);
  assert.deepEqual(r.cycles, [['22222222', '33333333', '22222222']]);
  // The UK company not on file stays a corporate owner at the top of what is known.
  assert.ok(r.unresolved.some((u) => u.nodeId === 'psc-party:unf1' && u.reason === 'no_known_person'));
});

test('a corporate owner registered abroad keeps its country, number and legal authority and links to the GLEIF record of the same number and country', async () => {
  const l = await loadGraph(db, 'gb_coh', '22222222');
  const view = ownershipView(l);
  const ovs = view.nodes.find((n) => n.id === 'psc-party:ovs1')!;
  assert.deepEqual(ovs.registration, {
    number: '7654321',
    authority: 'Delaware Division of Corporations',
    legal_authority: 'Delaware General Corporation Law',
    legal_form: 'Corporation',
    jurisdiction: 'United States',
    country: 'US',
  });
  // Same number in Germany is another company: not linked.
  assert.deepEqual(ovs.same_as, [
    { source: 'gleif', source_ref: '5299000OVERSEASHOL86', name: 'Overseas Holdings Inc.', lei: '5299000OVERSEASHOL86' },
  ]);
  // The UK company itself links to its LEI record by company number.
  assert.deepEqual(
    view.nodes.find((n) => n.id === '22222222')?.same_as?.map((s) => s.source_ref),
    ['5299000ROOTTRADING17'],
  );
  assert.equal(view.nodes.find((n) => n.id === 'psc-party:unf1')?.same_as?.length, 0);
});
