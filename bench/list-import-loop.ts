// How long the event loop stalls while a big list is parsed, written and indexed
// (npm run bench -- list-import-loop). Each step is measured twice in the same run on the embedded
// database: the way the service does it (parse worker, yielding staged writes, screening worker) and
// the in-thread baseline it replaced. Tests assert only what happens, never how long; this is where
// "the event loop stays responsive" is measured.
import { loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lagProbe } from './lib/stats.js';
import { openDb, migrate, type Db } from '../src/platform/db.js';
import { newId } from '../src/platform/ids.js';
import { listFormat } from '../src/providers/lists/formats.js';
import { readListInput } from '../src/providers/lists/list-files.js';
import { prepareSnapshot } from '../src/engines/screening/snapshot-diff.js';
import { ScreeningIndex } from '../src/engines/screening/index.js';
import { importListFile, parseListOffThread } from '../src/modules/checks/screening/list-sync.js';
import { snapshots } from '../src/modules/checks/screening/snapshot-repository.js';
import { ScreeningIndexCache } from '../src/modules/checks/screening/index-cache.js';
import { createScreeningWorker } from '../src/modules/checks/screening/screening-worker.js';

const ROWS = Number(process.env.ROWS ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'list-import-loop-'));
const path = join(dir, 'list.csv');
const lines = ['id,name,aliases,birth_dates,countries'];
for (let i = 0; i < ROWS; i++)
  lines.push(`E${i},Person Number${i} Lastname${i % 977},Alias${i} One;weak:Al${i},19${50 + (i % 50)}-01-0${1 + (i % 9)},Germany;FR`);
writeFileSync(path, lines.join('\n'));
console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (2 cores shared); ${ROWS.toLocaleString('en')} entities, ${2 * ROWS} names`,
);

/** Wall time and the longest event-loop stall while `work` runs. */
async function measure<T>(work: () => Promise<T> | T): Promise<{ result: T; wallMs: number; stallMs: number }> {
  const stop = lagProbe();
  await new Promise((r) => setTimeout(r, 20));
  const t0 = performance.now();
  const result = await work();
  const wallMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 20));
  return { result, wallMs, stallMs: stop() };
}

/** Runs `SELECT 1` every 20 ms while `work` runs: the longest any of these other queries waited. */
async function withQueryProbe<T>(db: Db, work: () => Promise<T>): Promise<{ result: T; maxQueryMs: number; probes: number }> {
  let done = false;
  let maxQueryMs = 0;
  let probes = 0;
  const probing = (async () => {
    while (!done) {
      await new Promise((r) => setTimeout(r, 20));
      const t0 = performance.now();
      await db.query('SELECT 1');
      maxQueryMs = Math.max(maxQueryMs, performance.now() - t0);
      probes++;
    }
  })();
  let result: T;
  try {
    result = await work();
  } finally {
    done = true;
    await probing; // a probe that waited behind the work finishes here and counts
  }
  return { result, maxQueryMs, probes };
}

const rows: string[][] = [];
function report(step: string, service: { wallMs: number; stallMs: number }, baseline: { wallMs: number; stallMs: number }): void {
  rows.push([
    step,
    service.stallMs.toFixed(0),
    baseline.stallMs.toFixed(0),
    (baseline.stallMs / Math.max(1, service.stallMs)).toFixed(1),
    service.wallMs.toFixed(0),
    baseline.wallMs.toFixed(0),
  ]);
}

const db = await openDb({ dataDir: 'memory://' });
await migrate(db);
try {
  // 1. Parse: worker (also dedupes, hashes, serialises) vs the same work on the main thread.
  const parsed = await measure(() => parseListOffThread({ format: 'custom_csv', path }));
  const parsedHere = await measure(() => prepareSnapshot(listFormat('custom_csv').parse(readListInput(path))));
  report('parse + prepare', parsed, parsedHere);

  // 2. Write: staged batches with yields (importListFile, which also parses in the worker) vs one
  //    transaction inserting every entity.
  const imported = await measure(() =>
    withQueryProbe(db, () => importListFile(db, { path, format: 'custom_csv', source: 'bench_staged' })),
  );
  if (!imported.result.result.ok) throw new Error(imported.result.result.error);
  const prepared = parsedHere.result;
  const oneTx = await measure(() =>
    withQueryProbe(db, () =>
      db.transaction(async (tx) => {
        const s = await snapshots.insert(tx, {
          id: newId('listSnapshot'),
          source: 'bench_one_tx',
          format: 'custom_csv',
          version: prepared.version,
          entity_count: prepared.ids.length,
          state: 'active',
          origin: 'import',
          error: null,
        });
        await snapshots.insertEntities(tx, s.id, prepared.ids, prepared.texts);
      }),
    ),
  );
  report('import (parse + write + activate) vs one write transaction', imported, oneTx);
  // On the embedded database a transaction holds its only connection: other requests' queries wait.
  rows.push([
    'longest wait of another query (SELECT 1 every 20 ms)',
    imported.result.maxQueryMs.toFixed(0),
    oneTx.result.maxQueryMs.toFixed(0),
    (oneTx.result.maxQueryMs / Math.max(1, imported.result.maxQueryMs)).toFixed(1),
    `${imported.result.probes} probes`,
    `${oneTx.result.probes} probes`,
  ]);
  await db.query("UPDATE list_snapshots SET state = 'superseded', superseded_at = now() WHERE source = 'bench_one_tx'");

  // 3. Index build: the screening worker vs building the engine's index on the main thread.
  const worker = createScreeningWorker();
  const cache = new ScreeningIndexCache(db, 60_000, () => worker);
  try {
    const built = await measure(() => cache.get());
    const entities = prepared.texts.map((t) => JSON.parse(t));
    const builtHere = await measure(() => ScreeningIndex.build(entities));
    report('screening index build', built, builtHere);
  } finally {
    await cache.close();
    await worker.close();
  }
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}

const head = ['step', 'service: max stall ms', 'in-thread: max stall ms', 'ratio', 'service wall ms', 'in-thread wall ms'];
console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
console.log(
  `load average at end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
