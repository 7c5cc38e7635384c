import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../../../platform/db.js';
import { createTestDb } from '../../../../test/helpers/test-db.js';
import { listFormat } from '../../../providers/lists/formats.js';
import { readListInput } from '../../../providers/lists/list-files.js';
import { importListFile, parseListOffThread, syncLists } from './list-sync.js';
import { snapshots } from './snapshot-repository.js';
import { contentHash, prepareSnapshot } from '../../../engines/screening/snapshot-diff.js';
import { activateSnapshot } from './activate-snapshot.js';
import { screeningConfig } from './settings.js';
import { loadSection } from '../../../platform/config-schema.js';

let db: Db;
let closeDb: () => Promise<void>;
let dir: string;
before(async () => {
  ({ db, close: closeDb } = await createTestDb());
  dir = mkdtempSync(join(tmpdir(), 'list-sync-'));
});
after(async () => {
  await closeDb();
  rmSync(dir, { recursive: true, force: true });
});

/** A custom CSV of `rows` entities (≈1.5 s of parsing at 100,000 rows); `tail` is appended verbatim. */
function customCsv(name: string, rows: number, tail = ''): string {
  const lines = ['id,name,aliases,birth_dates,countries'];
  for (let i = 0; i < rows; i++)
    lines.push(`E${i},Person Number${i} Lastname${i % 977},Alias${i} One;weak:Al${i},19${50 + (i % 50)}-01-0${1 + (i % 9)},Germany;FR`);
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + tail);
  return path;
}

// How long the event loop stalls during these imports is measured by `npm run bench -- list-import-loop`
// against an in-thread baseline, not asserted here: a timed bound fails on a loaded machine.

test('a parse error in the worker at the end of a 20,000-row file keeps its message and records a failed snapshot', async () => {
  // The last row lacks a name: the whole file is parsed, then the parser throws; no activation follows.
  const path = customCsv('big-broken.csv', 20_000, '\nE-last,');
  const result = await importListFile(db, { path, format: 'custom_csv', source: 'big_custom' });
  assert.deepEqual(result, { ok: false, error: `import of ${path} as custom_csv failed: custom CSV: row 20002 lacks id or name` });
  const rows = await db.query<{ state: string; error: string }>("SELECT state, error FROM list_snapshots WHERE source = 'big_custom'");
  assert.deepEqual(rows, [{ state: 'failed', error: result.ok ? '' : result.error }]);
});

test('the worker returns the parsed entities deduplicated, serialised and hashed exactly as the in-thread parser would', async () => {
  const path = customCsv('big.csv', 20_000);
  const result = await parseListOffThread({ format: 'custom_csv', path });
  const inThread = listFormat('custom_csv').parse(readListInput(path));
  assert.equal(result.ids.length, 20_000);
  assert.deepEqual(JSON.parse(result.texts[4242]!), inThread[4242]);
  assert.equal(result.version, contentHash(inThread));
  assert.deepEqual(result, prepareSnapshot(inThread));
});

test('an import parsed in the worker activates the same entities as the in-thread parser', async () => {
  const path = customCsv('small.csv', 50);
  const r = await importListFile(db, { path, format: 'custom_csv', source: 'small_custom' });
  assert.ok(r.ok);
  assert.equal(r.snapshot.entity_count, 50);
  assert.deepEqual(
    await snapshots.entities(db, r.snapshot.id),
    listFormat('custom_csv')
      .parse(readListInput(path))
      .sort((a, b) => (a.id < b.id ? -1 : 1)),
  );
});

test('import failures from the worker keep their messages: a missing file, an empty file', async () => {
  const missing = join(dir, 'nope.csv');
  const r1 = await importListFile(db, { path: missing, format: 'custom_csv', source: 'x_custom' });
  assert.equal(r1.ok, false);
  assert.match(r1.ok ? '' : r1.error, new RegExp(`^import of ${missing} as custom_csv failed: ENOENT: no such file or directory`));
  const empty = join(dir, 'empty.csv');
  writeFileSync(empty, 'id,name\n');
  const r2 = await importListFile(db, { path: empty, format: 'custom_csv', source: 'x_custom' });
  assert.deepEqual(r2, { ok: false, error: `import of ${empty} as custom_csv failed: the file holds no list entries` });
  await assert.rejects(importListFile(db, { path: empty, format: 'nope' }), /unknown list format "nope"/);
});

test("sync parses in the worker: a download that does not parse fails with the parser's message, a failed download keeps its reason", async () => {
  const settings = { ...loadSection(screeningConfig, {}), syncSources: ['uk_fcdo'] };
  const bad = await syncLists(db, {
    settings,
    fetch: async () => ({
      ok: true,
      status: 200,
      arrayBuffer: async () => new TextEncoder().encode('not,a,uk,list\n1,2,3,4').buffer as ArrayBuffer,
    }),
  });
  assert.equal(bad.length, 1);
  assert.equal(bad[0]!.ok, false);
  assert.match(bad[0]!.ok ? '' : bad[0]!.reason, /^parse failed: /);
  const down = await syncLists(db, {
    settings,
    fetch: async () => ({ ok: false, status: 503, arrayBuffer: async () => new ArrayBuffer(0) }),
  });
  assert.deepEqual(down, [
    {
      source: 'uk_fcdo',
      ok: false,
      reason: 'download failed: HTTP 503 from ' + (down[0]!.ok ? '' : down[0]!.reason.split(' from ')[1]),
      transient: true,
    },
  ]);
});

test('a successful 100,000-entity import lets other queries through while it writes', async (t) => {
  const path = customCsv('big-ok.csv', 100_000);
  let probes = 0;
  let importDone = false;
  let probesDuringWrite = 0;
  const result = await (async () => {
    const work = importListFile(db, { path, format: 'custom_csv', source: 'big_ok' }).finally(() => {
      importDone = true;
    });
    // Another request's query, every 20 ms: on the embedded database one long write transaction would hold them all back.
    while (!importDone) {
      await new Promise((r) => setTimeout(r, 20));
      await db.query('SELECT 1');
      probes++;
      const staging = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM list_snapshots WHERE source = 'big_ok' AND state = 'staging'",
      );
      if (!importDone && staging[0]!.n === 1) probesDuringWrite++;
    }
    return work;
  })();
  t.diagnostic(`${probes} probe queries, ${probesDuringWrite} while the entities were written`);
  assert.ok(result.ok);
  assert.equal(result.snapshot.state, 'active');
  assert.equal(result.snapshot.entity_count, 100_000);
  const n = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM list_snapshot_entities WHERE snapshot_id = $1', [
    result.snapshot.id,
  ]);
  assert.equal(n[0]!.n, 100_000);
  assert.ok(probesDuringWrite >= 2, `other queries ran while the entities were written (${probesDuringWrite})`);
});

test("a write that fails while staging deletes what it wrote; the active snapshot stays; a crashed import's old leftover is deleted by the next activation", async () => {
  const first = await importListFile(db, { path: customCsv('stage-1.csv', 20), format: 'custom_csv', source: 'staged' });
  assert.ok(first.ok && !first.unchanged);
  const prepared = prepareSnapshot(listFormat('custom_csv').parse(readListInput(customCsv('stage-2.csv', 1200))));
  // The third batch of entities is not valid JSON: the database refuses it after two batches were written.
  prepared.texts[1100] = '{"id": broken';
  await assert.rejects(activateSnapshot(db, { source: 'staged', format: 'custom_csv', origin: 'import', prepared }), /json/i);
  const rows = await db.query<{ id: string; state: string }>(
    "SELECT id, state FROM list_snapshots WHERE source = 'staged' ORDER BY imported_at",
  );
  assert.deepEqual(rows, [{ id: first.snapshot.id, state: 'active' }]);
  const orphans = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM list_snapshot_entities e WHERE NOT EXISTS (SELECT 1 FROM list_snapshots s WHERE s.id = e.snapshot_id)',
  );
  assert.equal(orphans[0]!.n, 0);

  // A crash mid-write leaves a staging snapshot; one from yesterday is deleted, a fresh one (an import in progress elsewhere) is not.
  await db.query(
    "INSERT INTO list_snapshots (id, source, version, entity_count, state, origin, imported_at) VALUES ('lsn_old_leftover', 'staged', 'x', 1, 'staging', 'import', now() - interval '1 day'), ('lsn_in_progress', 'staged', 'y', 1, 'staging', 'import', now())",
  );
  await db.query(`INSERT INTO list_snapshot_entities (snapshot_id, entity_id, entity) VALUES ('lsn_old_leftover', 'E0', '{}')`);
  const second = await importListFile(db, { path: customCsv('stage-3.csv', 30), format: 'custom_csv', source: 'staged' });
  assert.ok(second.ok && !second.unchanged);
  const after = await db.query<{ id: string; state: string }>("SELECT id, state FROM list_snapshots WHERE source = 'staged' ORDER BY id");
  assert.deepEqual(after.map((r) => r.id).sort(), [first.snapshot.id, second.snapshot.id, 'lsn_in_progress'].sort());
  assert.equal(after.find((r) => r.id === second.snapshot.id)?.state, 'active');
  assert.equal(after.find((r) => r.id === first.snapshot.id)?.state, 'superseded');
  // The same content again writes nothing.
  const same = await importListFile(db, { path: customCsv('stage-3b.csv', 30), format: 'custom_csv', source: 'staged' });
  assert.ok(same.ok && same.unchanged);
  assert.equal((await db.query("SELECT 1 FROM list_snapshots WHERE source = 'staged'")).length, 3);
});
