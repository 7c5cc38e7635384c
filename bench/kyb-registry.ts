// KYB registry import and name search over GLEIF-shaped data: N generated LEI records (golden-copy CSV
// columns) with Level 2 relationships (about 30 % of entities have a direct and an ultimate parent),
// seeded so runs compare. Imports both files with `importRegistryFile` (the CLI's path), sampling RSS,
// then times POST /v1/businesses/search's verb over the set.
//
//   npm run bench -- kyb-registry                  (N = 1,000,000; PostgreSQL from BENCH_DATABASE_URL or
//   KYB_BENCH_N=100000 npm run bench -- kyb-registry   TEST_DATABASE_URL, else an embedded PGlite in a temp dir;
//                                                   KYB_BENCH_KEEP=1 keeps the PostgreSQL schema)
//
// Baselines in the same run: parsing the CSV alone (no database) for the import; an exact-LEI search for the
// name search.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb, migrate, withUser, type Db } from '../src/platform/db.js';
import { importRegistryFile } from '../src/modules/businesses/index.js';
import { searchBusinesses } from '../src/modules/businesses/search.js';
import { newStats, registryFormats } from '../src/providers/registries/index.js';
import { setCursorSecret } from '../src/platform/pagination.js';
import { percentile } from './lib/stats.js';
import { seeded } from './lib/random.js';

const N = Number(process.env.KYB_BENCH_N ?? 1_000_000);
const rand = seeded(7);
const SYL = ['ka', 'lo', 'mi', 'ner', 'tas', 'vel', 'dor', 'fin', 'gra', 'hol', 'ist', 'jun', 'kor', 'lum', 'mar'];
SYL.push(...['nov', 'or', 'pel', 'quin', 'ros', 'sal', 'tor', 'ul', 'ven', 'wil', 'xan', 'yor', 'zen', 'bri', 'cas']);
const FORMS = ['Limited', 'Ltd', 'GmbH', 'SA', 'AG', 'plc', 'LLC', 'Inc', 'BV', 'SpA'];
/** Distinct words in the vocabulary: real legal names use hundreds of thousands of words. */
const VOCABULARY = 200_000;
/** The word of a rank: 2 syllables for the first 900 ranks, 3 for the next 27,000, then 4 (all distinct). */
const wordAt = (r: number): string => {
  const [n, k] = r < 900 ? [r, 2] : r < 27_900 ? [r - 900, 3] : [r - 27_900, 4];
  let w = '';
  for (let i = 0, x = n; i < k; i++, x = Math.floor(x / 30)) w += SYL[x % 30]!;
  return w.replace(/^./, (c) => c.toUpperCase());
};
// Words drawn by Zipf's law (P(rank r) ∝ 1/r), as words of real names are: the commonest word is in about
// one name in seven (as "Fund" or "Holding" in GLEIF), and most words are rare.
const word = (): string => wordAt(Math.min(VOCABULARY - 1, Math.floor(Math.exp(rand() * Math.log(VOCABULARY + 1))) - 1));
/** Two to four words and a legal form. */
const companyName = (): string => {
  const u = rand();
  const words = u < 0.4 ? 2 : u < 0.85 ? 3 : 4;
  const ws: string[] = [];
  for (let i = 0; i < words; i++) ws.push(word());
  return `${ws.join(' ')} ${FORMS[Math.floor(rand() * FORMS.length)]}`;
};
const LEI_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const lei = (i: number): string => {
  let s = '';
  for (let x = i, k = 0; k < 14; k++, x = Math.floor(x / 36)) s = LEI_CHARS[x % 36] + s;
  return `5299${s}00`;
};
const COUNTRIES = ['GB', 'DE', 'FR', 'US', 'NL', 'IT', 'ES', 'CH', 'LU', 'IE'];

async function generate(dir: string): Promise<{ leiFile: string; rrFile: string; names: string[] }> {
  const leiFile = join(dir, 'lei.csv'),
    rrFile = join(dir, 'rr.csv');
  const a = createWriteStream(leiFile),
    b = createWriteStream(rrFile);
  const write = async (s: NodeJS.WritableStream, line: string) => {
    if (!s.write(line)) await once(s, 'drain');
  };
  await write(
    a,
    'LEI,Entity.LegalName,Entity.LegalAddress.FirstAddressLine,Entity.LegalAddress.City,Entity.LegalAddress.Country,Entity.RegistrationAuthority.RegistrationAuthorityID,Entity.RegistrationAuthority.RegistrationAuthorityEntityID,Entity.LegalJurisdiction,Entity.EntityStatus,Entity.EntityCreationDate,Registration.RegistrationStatus\n',
  );
  await write(
    b,
    'Relationship.StartNode.NodeID,Relationship.StartNode.NodeIDType,Relationship.EndNode.NodeID,Relationship.EndNode.NodeIDType,Relationship.RelationshipType,Relationship.RelationshipStatus,Relationship.Period.1.startDate,Relationship.Period.1.periodType\n',
  );
  const names: string[] = [];
  for (let i = 0; i < N; i++) {
    const name = companyName();
    if (i % Math.max(1, Math.floor(N / 2000)) === 0) names.push(name);
    const c = COUNTRIES[Math.floor(rand() * COUNTRIES.length)]!;
    await write(
      a,
      `${lei(i)},"${name}",${i} Main Street,City ${i % 500},${c},RA000585,${String(i).padStart(8, '0')},${c},ACTIVE,2001-01-01T00:00:00Z,ISSUED\n`,
    );
    if (i > 1000 && rand() < 0.3) {
      const parent = lei(Math.floor(rand() * 1000));
      await write(b, `${lei(i)},LEI,${parent},LEI,IS_DIRECTLY_CONSOLIDATED_BY,ACTIVE,2010-01-01T00:00:00Z,RELATIONSHIP_PERIOD\n`);
      await write(
        b,
        `${lei(i)},LEI,${lei(Math.floor(rand() * 10))},LEI,IS_ULTIMATELY_CONSOLIDATED_BY,ACTIVE,2010-01-01T00:00:00Z,RELATIONSHIP_PERIOD\n`,
      );
    }
  }
  a.end();
  b.end();
  await Promise.all([once(a, 'finish'), once(b, 'finish')]);
  return { leiFile, rrFile, names };
}

async function database(dir: string): Promise<{ db: Db; kind: string; reused?: boolean; drop: () => Promise<void> }> {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!base) {
    const db = await openDb({ dataDir: join(dir, 'pglite') });
    await migrate(db);
    return { db, kind: 'PGlite (embedded, on disk)', drop: () => db.close() };
  }
  // KYB_BENCH_SCHEMA=<a kept schema> searches the records a previous run imported (same N), skipping the import.
  const reuse = process.env.KYB_BENCH_SCHEMA;
  if (reuse) {
    const u = new URL(base);
    u.searchParams.set('options', `-c search_path=${reuse}`);
    const db = await openDb({ databaseUrl: u.toString(), poolSize: 4 });
    return { db, kind: `PostgreSQL 15 (local), schema ${reuse} reused`, reused: true, drop: () => db.close() };
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withUser(base) });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const u = new URL(base);
  u.searchParams.set('options', `-c search_path=${schema}`);
  const db = await openDb({ databaseUrl: u.toString(), poolSize: 4 });
  await migrate(db);
  return {
    db,
    kind: 'PostgreSQL 15 (local)',
    drop: async () => {
      await db.close();
      // KYB_BENCH_KEEP=1 leaves the imported schema in place to study plans afterwards (drop it by hand).
      if (process.env.KYB_BENCH_KEEP) return console.log(`schema ${schema} kept`);
      const c = new pg.Client({ connectionString: withUser(base) });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

const dir = mkdtempSync(join(tmpdir(), 'kyb-bench-'));
try {
  let t = performance.now();
  const { leiFile, rrFile, names } = await generate(dir);
  console.log(
    `generated ${N.toLocaleString('en')} LEI records and their relationships in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  // The import's baseline: parsing alone (skipped when a kept schema is searched again).
  let parseS = 0;
  if (!process.env.KYB_BENCH_SCHEMA) {
    t = performance.now();
    let parsed = 0;
    for await (const _ of registryFormats['gleif-lei-csv']!.parse(leiFile, newStats())) parsed++;
    parseS = (performance.now() - t) / 1000;
    console.log(`baseline: parsing the LEI CSV alone: ${parsed.toLocaleString('en')} records in ${parseS.toFixed(1)} s`);
  }

  const { db, kind, reused, drop } = await database(dir);
  try {
    if (!reused) {
      let peak = process.memoryUsage().rss;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 250);
      // What other requests of the process would wait during the import: the parse runs in a worker thread.
      const lag = monitorEventLoopDelay({ resolution: 10 });
      lag.enable();
      t = performance.now();
      const lei1 = await importRegistryFile(db, {
        path: leiFile,
        format: 'gleif-lei-csv',
        progress: (c) => process.stdout.write(`\r  ${c.read.toLocaleString('en')} records`),
      });
      const leiS = (performance.now() - t) / 1000;
      t = performance.now();
      const rr = await importRegistryFile(db, { path: rrFile, format: 'gleif-rr-csv' });
      const rrS = (performance.now() - t) / 1000;
      clearInterval(sampler);
      lag.disable();
      if (!lei1.ok || !rr.ok) throw new Error(lei1.error ?? rr.error);
      console.log(
        `\nimport into ${kind}: LEI ${lei1.counts.entities.toLocaleString('en')} records in ${leiS.toFixed(1)} s (${(leiS / parseS).toFixed(1)}× the parse alone), ` +
          `relationships ${rr.counts.relationships.toLocaleString('en')} in ${rrS.toFixed(1)} s; total ${(leiS + rrS).toFixed(1)} s; peak RSS ${mb(peak)}`,
      );
      console.log(
        `event-loop delay of the importing process during both imports: p50 ${(lag.percentile(50) / 1e6).toFixed(1)} ms, ` +
          `p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms`,
      );
    }

    setCursorSecret(Buffer.alloc(32, 1));
    const ctx = {
      db,
      accountId: 'acct_bench',
      environment: 'sandbox' as const,
      actor: { type: 'system' as const, id: 'bench' },
      scopes: ['*'],
      requestId: 'req_bench',
    };
    const time = async (body: Parameters<typeof searchBusinesses>[1]) => {
      const s = performance.now();
      const r = await searchBusinesses(ctx, body);
      return { ms: performance.now() - s, r };
    };
    // Warm up, then: exact names, names with one letter changed, exact LEIs (the baseline).
    for (const n of names.slice(0, 20)) await time({ query: n });
    const exact: number[] = [],
      typo: number[] = [],
      byLei: number[] = [];
    let found = 0;
    // One pass per kind: a name and its misspelling one after the other would find the same candidates, which
    // the search keeps prepared (search.ts), and flatter the second.
    for (const n of names) {
      const e = await time({ query: n, limit: 10 });
      exact.push(e.ms);
      if (e.r.data.some((d) => d.name === n)) found++;
    }
    for (const [i, n] of names.entries()) {
      const p = 1 + (i % (n.length - 2));
      typo.push((await time({ query: n.slice(0, p) + (n[p] === 'a' ? 'e' : 'a') + n.slice(p + 1), limit: 10 })).ms);
    }
    for (const i of names.keys()) byLei.push((await time({ lei: lei(i * 7) })).ms);
    const [words] = await db.query<{ rows: number; size: string }>(
      `SELECT count(*)::int AS rows, pg_size_pretty(pg_total_relation_size('registry_name_tokens')) AS size FROM registry_name_tokens`,
    );
    console.log(`name postings (words and pairs): ${words!.rows.toLocaleString('en')} rows, ${words!.size} with indexes`);
    const line = (label: string, xs: number[]) =>
      `${label}: p50 ${percentile(xs, 50).toFixed(1)} ms, p99 ${percentile(xs, 99).toFixed(1)} ms (${(percentile(xs, 99) / percentile(byLei, 99)).toFixed(1)}× the exact-LEI p99)`;
    console.log(`search over ${N.toLocaleString('en')} records, ${names.length} queries each:`);
    console.log(`  exact LEI (baseline): p50 ${percentile(byLei, 50).toFixed(1)} ms, p99 ${percentile(byLei, 99).toFixed(1)} ms`);
    console.log(`  ${line('exact name', exact)}; the name was in the first 10 for ${found}/${names.length}`);
    console.log(`  ${line('name with one letter changed', typo)}`);
  } finally {
    await drop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
