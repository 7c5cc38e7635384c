import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, activateTestList } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { SCREENING_INDEX, snapshots } from '../../src/modules/checks/index.js';
import type { ListEntity } from '../../src/engines/screening/types.js';
import { newId } from '../../src/platform/ids.js';

// GET /v1/checks/screening/list-snapshots: which list versions screening runs against (metadata only).

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());
const app = () => t;

const entity = (id: string, name: string): ListEntity => ({
  id,
  source: 'custom',
  datasets: ['sanctions'],
  schema: 'person',
  names: [{ full: name, quality: 'strong' }],
  birthDates: [],
  nationalities: [],
  countries: [],
  addresses: [],
  identifiers: [],
  programs: [],
});

describe('list snapshots', () => {
  routeSecurityTests('listScreeningListSnapshots', app, {
    method: 'GET',
    url: () => '/v1/checks/screening/list-snapshots',
    scope: 'screening:read',
  });

  test('newest first, the active one marked, the superseded and failed ones kept; production does not see the sandbox list', async () => {
    await t.resources.get(SCREENING_INDEX).get(); // the first refresh installs the built-in sandbox list
    const first = await activateTestList(t, 'snap_test', [entity('s:1', 'Alpha One')], 'custom_csv');
    const second = await activateTestList(t, 'snap_test', [entity('s:1', 'Alpha One'), entity('s:2', 'Beta Two')], 'custom_csv');
    const failed = await snapshots.insert(t.db, {
      id: newId('listSnapshot'),
      source: 'snap_test',
      format: 'custom_csv',
      version: null,
      entity_count: 0,
      state: 'failed',
      origin: 'import',
      error: 'import of x.csv as custom_csv failed: the file holds no list entries',
    });
    const { sandboxKey, productionKey } = await t.tenant();

    const res = await t.call('GET', '/v1/checks/screening/list-snapshots?source=snap_test', { key: sandboxKey });
    assert.equal(res.statusCode, 200, res.body);
    const rows = res.json().data as Record<string, unknown>[];
    assert.deepEqual(
      rows.map((r) => [r.id, r.state, r.active, r.entity_count]),
      [
        [failed.id, 'failed', false, 0],
        [second.snapshot.id, 'active', true, 2],
        [first.snapshot.id, 'superseded', false, 1],
      ],
    );
    const active = rows.find((r) => r.active)!;
    assert.equal(active.version, second.snapshot.version);
    assert.equal(active.format, 'custom_csv');
    assert.equal(active.object, 'list_snapshot');
    assert.equal(active.superseded_at, null);
    assert.ok(rows.find((r) => r.id === first.snapshot.id)!.superseded_at);
    assert.match(String(rows.find((r) => r.state === 'failed')!.error), /holds no list entries/);
    // Metadata only: no entry of the list travels.
    assert.doesNotMatch(res.body, /Alpha One|Beta Two/);

    const activeOnly = await t.call('GET', '/v1/checks/screening/list-snapshots?state=active', { key: sandboxKey });
    const sources = activeOnly.json().data.map((r: { source: string }) => r.source);
    assert.deepEqual([...sources].sort(), ['sandbox', 'snap_test']);
    const prod = await t.call('GET', '/v1/checks/screening/list-snapshots?state=active', { key: productionKey });
    assert.deepEqual(
      prod.json().data.map((r: { source: string }) => r.source),
      ['snap_test'],
    );
  });

  test('pages by cursor without repeats; a cursor of another filter or a bad state is 400 naming the field', async () => {
    const { sandboxKey: key } = await t.tenant();
    const all = (await t.call('GET', '/v1/checks/screening/list-snapshots?limit=100', { key })).json().data as { id: string }[];
    assert.ok(all.length >= 3);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await t.call('GET', `/v1/checks/screening/list-snapshots?${q}`, { key });
      assert.equal(page.statusCode, 200, page.body);
      seen.push(...page.json().data.map((r: { id: string }) => r.id));
      cursor = page.json().next_cursor;
    } while (cursor);
    assert.deepEqual(
      seen,
      all.map((r) => r.id),
    );

    const first = (await t.call('GET', '/v1/checks/screening/list-snapshots?limit=1', { key })).json().next_cursor as string;
    const other = await t.call('GET', `/v1/checks/screening/list-snapshots?state=active&cursor=${encodeURIComponent(first)}`, { key });
    assert.equal(other.statusCode, 400);
    assert.equal(other.json().error.field, 'cursor');
    const bad = await t.call('GET', '/v1/checks/screening/list-snapshots?state=staging', { key });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.field, 'state');
  });
});
