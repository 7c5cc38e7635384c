import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, testConfig, type TestApp, activateTestList } from '../helpers/test-app.js';
import { runCommand } from '../../src/cli/commands.js';
import { sharedData, SKIP_NO_DATA } from '../../src/providers/lists/fixtures/shared-data.js';
import { snapshots } from '../../src/modules/checks/screening/snapshot-repository.js';
import { listSyncSchedule, screeningJobHandlers } from '../../src/modules/checks/screening/jobs.js';
import { ConfigError, type Config, type EnvVars } from '../../src/config.js';
import { sandboxList } from '../../src/providers/lists/sandbox-list.js';

// Operator list management through the CLI: offline import of real official files, and sync
// against a local HTTP server standing in for the official URL.

let t: TestApp;
let tmp: string;
before(async () => {
  t = await createTestApp();
  tmp = mkdtempSync(join(tmpdir(), 'verity-lists-'));
});
after(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** The configuration the CLI runs with: the app's, or one a test built (LIST_SYNC_SOURCES …). */
let cliConfig: Config | undefined;
async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  // As over the server's admin socket: the command is given the server's resources (its screening index).
  const code = await runCommand(t.db, argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, cliConfig ?? t.config, {}, t.resources);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const un = sharedData('sanctions', 'un_consolidated', 'UN_consolidated.xml');
const ofac2019 = sharedData('sanctions', 'ofac_sdn_csv_2019');

describe('lists import, list and sync', () => {
  test(
    'importing the UN list and the OFAC 2019 CSV set makes their names screenable in both environments',
    { skip: un && ofac2019 ? false : SKIP_NO_DATA },
    async () => {
      const o = await t.tenant();
      const before = await t.call('POST', '/v1/checks/screening', { key: o.productionKey, body: { name: 'Eric Badege' } });
      assert.equal(before.statusCode, 422);

      const a = await cli('lists', 'import', un!, '--format', 'un_xml', '--json');
      assert.equal(a.code, 0, a.err);
      const ra = JSON.parse(a.out);
      assert.equal(ra.source, 'un');
      assert.equal(ra.entities, 1003);
      const b = await cli('lists', 'import', ofac2019!, '--format', 'ofac_csv');
      assert.equal(b.code, 0, b.err);
      assert.match(b.out, /imported ofac_sdn snapshot lsn_\w+: \d{4} entities/);

      const listed = await cli('lists', 'list');
      assert.match(listed.out, /\bun\b.*active/);
      assert.match(listed.out, /ofac_sdn.*active/);
      assert.match(listed.out, /sandbox.*active.*builtin/);

      for (const key of [o.sandboxKey, o.productionKey]) {
        const res = await t.call('POST', '/v1/checks/screening', { key, body: { name: 'ERIC BADEGE', entity_type: 'person' } });
        assert.equal(res.statusCode, 200, res.body);
        const c = res.json();
        assert.notEqual(c.status, 'no_match', JSON.stringify(c.result));
        // He is on both lists: the hits name each entry with its source.
        const ids = c.result.hits.map((h: { entity_id: string }) => h.entity_id);
        assert.deepEqual(ids.slice(0, 2).sort(), ['ofac-sdn:15718', 'un:CDi.001']);
        const unHit = c.result.hits.find((h: { source: string }) => h.source === 'un');
        assert.deepEqual(unHit.programs, ['DRC']);
        assert.equal(unHit.listed_at, '2012-12-31');
        assert.match(unHit.source_url, /^https:\/\//);
        assert.equal(c.result.list_versions.un, ra.version);
      }
      // Only imported official lists are screened in production: not the fictitious sandbox list.
      const prod = (
        await t.call('POST', '/v1/checks/screening', { key: o.productionKey, body: { name: 'Sandbox Sanctioned Person' } })
      ).json();
      assert.equal(prod.status, 'no_match');
      assert.equal(prod.result.list_versions.sandbox, undefined);
      // An OFAC name with a typo, restricted to that source.
      const ofac = (
        await t.call('POST', '/v1/checks/screening', { key: o.productionKey, body: { name: 'Ayman al-Zawahri', sources: ['ofac_sdn'] } })
      ).json();
      assert.notEqual(ofac.status, 'no_match');
      assert.match(ofac.result.hits[0].entity_id, /^ofac-sdn:/);
      assert.deepEqual(Object.keys(ofac.result.list_versions), ['ofac_sdn']);

      // Importing the same content again changes nothing.
      const again = await cli('lists', 'import', un!, '--format', 'un_xml');
      assert.equal(again.code, 0);
      assert.match(again.out, /nothing changed/);
    },
  );

  test('a file that does not parse activates nothing and is recorded as failed', async () => {
    const bad = join(tmp, 'broken.xml');
    writeFileSync(bad, '<?xml version="1.0"?><CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL><DATAID>1');
    const activeBefore = await snapshots.activeFor(t.db, 'un');
    const r = await cli('lists', 'import', bad, '--format', 'un_xml');
    assert.equal(r.code, 1);
    assert.match(r.err, /active snapshot is unchanged/);
    assert.equal((await snapshots.activeFor(t.db, 'un'))?.id, activeBefore?.id);
    const all = await cli('lists', 'list', '--all', '--json');
    const failed = JSON.parse(all.out).filter((s: { state: string }) => s.state === 'failed');
    assert.ok(failed.some((s: { error: string }) => /broken\.xml/.test(s.error)));
    assert.equal((await cli('lists', 'import', bad, '--format', 'no_such_format')).code, 64);
    assert.equal((await cli('lists', 'import', '--format', 'un_xml')).code, 64);
  });

  test('concurrent activations of one source leave exactly one active snapshot, each with its full entity set', async () => {
    const base = sandboxList().map((e) => ({ ...e, source: 'custom' as const }));
    const variants = [base.slice(0, 2), base.slice(0, 3), base.slice(0, 4), base];
    const results = await Promise.all(variants.map((entities) => activateTestList(t, 'custom_race', entities, 'custom_csv')));
    const rows = await t.db.query<{ id: string; state: string; entity_count: number; n: number }>(
      "SELECT s.id, s.state, s.entity_count, (SELECT count(*)::int FROM list_snapshot_entities e WHERE e.snapshot_id = s.id) AS n FROM list_snapshots s WHERE source = 'custom_race'",
    );
    assert.equal(rows.length, 4);
    assert.equal(rows.filter((r) => r.state === 'active').length, 1);
    for (const r of rows) assert.equal(r.n, r.entity_count);
    // Each activation superseded the one before it: one rescreen job per activation, chained.
    const jobs = await t.db.query<{ payload: { snapshot_id: string; previous_snapshot_id: string | null } }>(
      "SELECT payload FROM jobs WHERE queue = 'screening.rescreen' AND payload->>'source' = 'custom_race'",
    );
    assert.equal(jobs.length, 4);
    assert.equal(jobs.filter((j) => j.payload.previous_snapshot_id === null).length, 1);
    assert.deepEqual(new Set(results.map((r) => r.snapshot.id)), new Set(rows.map((r) => r.id)));
  });

  describe('lists sync against a local server', () => {
    let server: Server;
    let base = '';
    const files: Record<string, Buffer | string> = {};
    before(async () => {
      if (un) {
        const xml = readFileSync(un);
        files['/good.xml'] = xml;
        files['/truncated.xml'] = xml.subarray(0, Math.floor(xml.length / 2));
      }
      server = createServer((req, res) => {
        const body = files[req.url ?? ''];
        if (req.url === '/down.xml') {
          res.writeHead(503).end('maintenance');
          return;
        }
        res.writeHead(body ? 200 : 404, { 'content-type': 'application/xml' });
        res.end(body ?? 'not found');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      cliConfig = undefined;
      await new Promise<void>((r) => server.close(() => r()));
    });

    test('the lists.sync job is scheduled only when enabled; a network failure fails it for a retry', async () => {
      const schedule = (env: EnvVars) => listSyncSchedule(testConfig({}, env).checks.screening);
      assert.deepEqual(schedule({}), []);
      assert.deepEqual(schedule({ LIST_SYNC_SOURCES: 'un', LIST_SYNC_INTERVAL_MINUTES: '60' }), [
        { queue: 'lists.sync', everyMs: 3_600_000 },
      ]);
      assert.throws(
        () => schedule({ LIST_SYNC_SOURCES: 'un,nowhere' }),
        (e: Error) => e instanceof ConfigError && /LIST_SYNC_SOURCES/.test(e.message) && /nowhere/.test(e.message),
      );
      assert.throws(
        () => schedule({ LIST_SYNC_SOURCES: 'un', LIST_SYNC_URL_UN: 'ftp://x' }),
        (e: Error) => e instanceof ConfigError && /LIST_SYNC_URL_UN/.test(e.message),
      );
      const settings = testConfig({}, { LIST_SYNC_SOURCES: 'un', LIST_SYNC_URL_UN: `${base}/down.xml` }).checks.screening;
      const before = await snapshots.activeFor(t.db, 'un');
      const job = screeningJobHandlers(t.db, settings)['lists.sync']!;
      await assert.rejects(
        job({ id: 'job_test', queue: 'lists.sync', payload: {}, attempts: 1, max_attempts: 3 }),
        /list sync failed for un: download failed: HTTP 503/,
      );
      assert.equal((await snapshots.activeFor(t.db, 'un'))?.id, before?.id);
    });

    test('sync is refused until the operator enables it', async () => {
      cliConfig = undefined;
      const r = await cli('lists', 'sync');
      assert.equal(r.code, 64);
      assert.match(r.err, /LIST_SYNC_SOURCES/);
    });

    test('a good download activates; a truncated one never replaces the active snapshot', { skip: un ? false : SKIP_NO_DATA }, async () => {
      const sync = (file: string) => (cliConfig = testConfig({}, { LIST_SYNC_SOURCES: 'un', LIST_SYNC_URL_UN: `${base}/${file}` }));
      sync('good.xml');
      const good = await cli('lists', 'sync', '--json');
      assert.equal(good.code, 0, good.err + good.out);
      const [g] = JSON.parse(good.out);
      assert.equal(g.ok, true);
      const active = await snapshots.activeFor(t.db, 'un');
      assert.equal(active?.id, g.snapshotId);
      assert.equal(active?.entity_count, 1003);

      sync('truncated.xml');
      const bad = await cli('lists', 'sync');
      assert.equal(bad.code, 1);
      assert.match(bad.out, /un: FAILED \(bad data\)/);
      assert.equal((await snapshots.activeFor(t.db, 'un'))?.id, active!.id);
      const [failed] = await t.db.query<{ origin: string; error: string }>(
        "SELECT origin, error FROM list_snapshots WHERE source = 'un' AND state = 'failed' AND origin = 'sync'",
      );
      assert.ok(failed);

      sync('missing.xml');
      const gone = await cli('lists', 'sync', '--source', 'un');
      assert.equal(gone.code, 1);
      assert.match(gone.out, /HTTP 404/);
      assert.equal((await snapshots.activeFor(t.db, 'un'))?.id, active!.id);
      const o = await t.tenant();
      const c = (
        await t.call('POST', '/v1/checks/screening', { key: o.productionKey, body: { name: 'Eric Badege', sources: ['un'] } })
      ).json();
      assert.equal(c.result.hits[0].entity_id, 'un:CDi.001');
    });
  });
});
