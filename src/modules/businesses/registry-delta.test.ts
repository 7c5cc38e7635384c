// GLEIF delta files import as batches of their own over the golden copy: changed records take the delta's batch,
// the others keep theirs, and a relationship the delta ends leaves the graph. Delta fixtures written for this test
// (gleif-lei-delta.csv: the LAPSED LEI renewed; gleif-rr-delta.csv: the ultimate-parent relationship INACTIVE).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../../../test/helpers/test-db.js';
import type { Db } from '../../platform/db.js';
import { importRegistryFile } from './registry-import.js';
import { loadGraph } from './graph.js';
import { registryRecords } from './registry-repository.js';

const fixture = (f: string) => new URL(`../../providers/registries/fixtures/${f}`, import.meta.url).pathname;
let db: Db, close: () => Promise<void>;
before(async () => ({ db, close } = await createTestDb()));
after(() => close());

const CHILD = '254900LNRYNOQ9YPU758',
  PARENT = '5493001KJTIIGC8Y1R12';

test('a GLEIF delta updates what it states, keeps the rest with its batch, and an ended relationship leaves the graph', async () => {
  const lei = await importRegistryFile(db, { path: fixture('gleif-lei.csv'), format: 'gleif-lei-csv' });
  const rr = await importRegistryFile(db, { path: fixture('gleif-rr.csv'), format: 'gleif-rr-csv' });
  assert.equal(lei.ok && rr.ok, true, lei.error ?? rr.error);
  assert.deepEqual(
    [...(await loadGraph(db, 'gleif', CHILD)).graph.edges.values()].map((e) => e.from),
    [PARENT],
  );

  const leiDelta = await importRegistryFile(db, { path: fixture('gleif-lei-delta.csv'), format: 'gleif-lei-csv' });
  assert.equal(leiDelta.ok, true, leiDelta.error);
  assert.equal(leiDelta.counts.changed, 1);
  const child = await registryRecords.entity(db, 'gleif', CHILD);
  const parent = await registryRecords.entity(db, 'gleif', PARENT);
  assert.deepEqual([child?.data.registrationStatus, child?.batch_id], ['ISSUED', leiDelta.batch!.id]);
  assert.equal(parent?.batch_id, lei.batch!.id);

  const rrDelta = await importRegistryFile(db, { path: fixture('gleif-rr-delta.csv'), format: 'gleif-rr-csv' });
  assert.equal(rrDelta.ok, true, rrDelta.error);
  assert.deepEqual(rrDelta.ownershipChanged.refs, [CHILD]);
  const after = await loadGraph(db, 'gleif', CHILD);
  assert.deepEqual([...after.graph.edges.values()], []);
  assert.equal(after.relationships[0]?.batch_id, rrDelta.batch!.id);
});
