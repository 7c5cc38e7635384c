import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../../../platform/db.js';
import type { ListEntity } from '../../../engines/screening/types.js';
import { newId } from '../../../platform/ids.js';
import { createTestDb } from '../../../../test/helpers/test-db.js';
import { snapshots } from './snapshot-repository.js';
import { notifySnapshotsChanged, SCREENING_INDEX, ScreeningIndexCache, type SnapshotIndex } from './index-cache.js';
import { activateSnapshot } from './activate-snapshot.js';
import { prepareSnapshot } from '../../../engines/screening/snapshot-diff.js';
import { createResources } from '../../../platform/resources.js';
import { testConfig } from '../../../../test/helpers/test-app.js';
import { seeded } from '../../../../test/helpers/random.js';
import { createScreeningWorker, type ScreeningWorker } from './screening-worker.js';
import type { ListRules } from './list-rules.js';

let db: Db;
let closeDb: () => Promise<void>;
// The process's screening worker, as the resources hold it; the tests' caches share it and `probe` looks inside.
let probe: ScreeningWorker;
before(async () => {
  ({ db, close: closeDb } = await createTestDb());
  probe = createScreeningWorker();
});
after(async () => {
  await probe.close();
  await closeDb();
});
// Each test screens only its own list.
beforeEach(() => db.query("UPDATE list_snapshots SET state = 'superseded', superseded_at = now() WHERE state = 'active'"));

const noRules = (): ListRules => ({ allow: new Set(), block: new Set(), blockHits: [], entryIds: [] });
const same = (all: SnapshotIndex[]) => all;

/** Deterministic synthetic people: `count` entities with a primary name and one alias each. */
function syntheticEntities(source: string, count: number): ListEntity[] {
  const syl = [
    'ka',
    'lo',
    'mi',
    'ra',
    'ne',
    'so',
    'ta',
    'vi',
    'de',
    'ru',
    'an',
    'el',
    'or',
    'us',
    'in',
    'ba',
    'go',
    'sha',
    'khan',
    'dor',
    'len',
    'mar',
    'tin',
    'vel',
    'zar',
    'pol',
    'ser',
    'gen',
    'ric',
    'hol',
  ];
  const rnd = seeded(12345);
  const word = () => Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => syl[Math.floor(rnd() * syl.length)]).join('');
  const name = () => `${word()} ${word()}${rnd() < 0.3 ? ` ${word()}` : ''}`;
  return Array.from(
    { length: count },
    (_, i) =>
      ({
        id: `${source}:${String(i).padStart(7, '0')}`,
        source: 'custom',
        datasets: ['sanctions'],
        schema: 'person',
        names: [
          { full: name(), quality: 'strong' },
          { full: name(), quality: 'strong' },
        ],
        birthDates: [],
        nationalities: [],
        countries: [],
        addresses: [],
        identifiers: [],
        programs: [],
      }) satisfies ListEntity,
  );
}

async function activate(source: string, entities: ListEntity[]): Promise<string> {
  return db.transaction(async (tx) => {
    const prev = await snapshots.activeFor(tx, source);
    if (prev) await snapshots.supersede(tx, prev.id);
    const s = await snapshots.insert(tx, {
      id: newId('listSnapshot'),
      source,
      format: null,
      version: `v-${entities.length}-${Date.now()}`,
      entity_count: entities.length,
      state: 'active',
      origin: 'import',
      error: null,
    });
    await snapshots.insertEntities(
      tx,
      s.id,
      entities.map((e) => e.id),
      entities.map((e) => JSON.stringify(e)),
    );
    return s.id;
  });
}

test('a 40,000-name index builds in the screening worker: the main thread holds only the snapshot row and the index size', async () => {
  // How long the event loop stalls meanwhile is measured by `npm run bench -- list-import-loop` against an in-thread build.
  const entities = syntheticEntities('big', 20_000);
  const planted = 'Quillfeather Ostrander';
  entities[4242]!.names[0] = { full: planted, quality: 'strong' };
  const id = await activate('big_list', entities);
  const cache = new ScreeningIndexCache(db, 60_000, () => probe);
  try {
    const built = await cache.get();
    assert.deepEqual(
      built.map((s) => [s.snapshot.id, s.entityCount, s.nameCount]),
      [[id, 20_000, 40_000]],
    );
    // The main thread holds no index: the entry is the snapshot row and the index's size.
    assert.deepEqual(Object.keys(built[0]!).sort(), ['datasets', 'entityCount', 'nameCount', 'snapshot']);
    const { result, indexes } = await cache.screen(built, { name: planted }, { rules: noRules() }, same);
    assert.equal(result.hits[0]?.entity_id, entities[4242]!.id);
    assert.equal(result.list_versions.big_list, built[0]!.snapshot.version);
    assert.deepEqual(
      indexes.map((s) => s.snapshot.id),
      [id],
    );
  } finally {
    await cache.close();
  }
});

test('an index the worker lost (worker restarted) is rebuilt and the screening answered', async () => {
  const entities = syntheticEntities('small', 50);
  await activate('small_list', entities);
  const cache = new ScreeningIndexCache(db, 60_000, () => probe);
  try {
    const all = (await cache.get()).filter((s) => s.snapshot.source === 'small_list');
    // Empty the worker's state for this cache, as a replaced worker would be.
    const owners = Object.keys((await probe.run({ kind: 'stats' })).indexes);
    for (const owner of owners) await probe.run({ kind: 'retain', owner, snapshotIds: [] });
    assert.deepEqual((await probe.run({ kind: 'stats' })).indexes, {});
    const { result } = await cache.screen(all, { name: entities[7]!.names[1]!.full }, { rules: noRules() }, (a) =>
      a.filter((s) => s.snapshot.source === 'small_list'),
    );
    assert.equal(result.hits[0]?.entity_id, entities[7]!.id);
    assert.equal(Object.keys((await probe.run({ kind: 'stats' })).indexes).length, 1);
  } finally {
    await cache.close();
  }
});

test('a request holding a superseded set screens the new snapshot of the same source; the old index is dropped', async () => {
  const first = syntheticEntities('swap', 30);
  const oldId = await activate('swap_list', first);
  const cache = new ScreeningIndexCache(db, 60_000, () => probe);
  try {
    const pick = (a: SnapshotIndex[]) => a.filter((s) => s.snapshot.source === 'swap_list');
    const stale = pick(await cache.get());
    assert.equal(stale[0]!.snapshot.id, oldId);
    const renamed = first.map((e, i) => (i === 3 ? { ...e, names: [{ full: 'Ostrander Quillfeather', quality: 'strong' as const }] } : e));
    const newId_ = await activate('swap_list', renamed);
    cache.invalidate();
    await cache.get();
    const owned = Object.values((await probe.run({ kind: 'stats' })).indexes).flat();
    assert.ok(owned.includes(newId_) && !owned.includes(oldId), 'the superseded index is dropped from the worker');
    const { result, indexes } = await cache.screen(stale, { name: 'Ostrander Quillfeather' }, { rules: noRules() }, pick);
    assert.deepEqual(
      indexes.map((s) => s.snapshot.id),
      [newId_],
    );
    assert.equal(result.hits[0]?.entity_id, renamed[3]!.id);
  } finally {
    await cache.close();
  }
});

test('closing the cache drops its indexes from the worker', async () => {
  await activate('close_list', syntheticEntities('close', 10));
  const cache = new ScreeningIndexCache(db, 60_000, () => probe);
  try {
    await cache.get();
    assert.equal(Object.keys((await probe.run({ kind: 'stats' })).indexes).length, 1);
    await cache.close();
    assert.deepEqual((await probe.run({ kind: 'stats' })).indexes, {});
    assert.equal((await probe.run({ kind: 'stats' })).uploads, 0);
  } finally {
    await cache.close();
  }
});

test("a snapshot this process activates is seen at once by its resources' screening index (no per-database registry)", async () => {
  const resources = createResources(testConfig({}, { SCREENING_INDEX_REFRESH_MS: '3600000' }), db);
  try {
    notifySnapshotsChanged(resources);
    assert.equal(resources.started(SCREENING_INDEX), false, 'telling a process that never screened starts no index');
    const cache = resources.get(SCREENING_INDEX);
    const before = (await cache.get()).filter((s) => s.snapshot.source === 'notified_list');
    const prepared = prepareSnapshot(syntheticEntities('notified', 20));
    const first = await activateSnapshot(db, { source: 'notified_list', format: null, origin: 'import', prepared }, resources);
    const after = (await cache.get()).filter((s) => s.snapshot.source === 'notified_list');
    assert.deepEqual(
      [before.length, after.map((s) => s.snapshot.id)],
      [0, [first.snapshot.id]],
      'within the hour-long refresh period, only the notification explains the new snapshot',
    );
  } finally {
    await resources.close();
  }
});
