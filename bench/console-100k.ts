// The console at 100,000 sessions and 100,000 cases (issue 16): seeds one tenant's sandbox with
// BENCH_ROWS sessions (referred, approved, declined over 30 days) and as many review cases (30 % open,
// mixed severities, some claimed) in batched INSERTs straight into the database, then opens every
// console screen in Debian's Chromium as an admin and reports each one's time to interactive: from the
// hash change to the screen's data on the page (its table rows, counts or chart drawn), median and
// worst of BENCH_RUNS visits. Not a test: figures are printed with the machine's load.
// Usage: npm run bench -- console-100k ; BENCH_ROWS (default 100000), BENCH_RUNS (default 3),
// BENCH_DATABASE_URL=postgres://… (a fresh schema; default the embedded PGlite).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { openDb, migrate, type Db } from '../src/platform/db.js';
import { firstKeys, startServer } from '../test/helpers/spawn-server.js';
import { freshSchema } from './lib/children.js';
import { percentile } from './lib/stats.js';

declare const location: { hash: string };

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BATCH = 5_000;
const PASSWORD = 'bench console password 1';
const pgBase = process.env.BENCH_DATABASE_URL ?? null;

/** Each screen and what "interactive" means on it: the data a person came for is on the page. */
const SCREENS: { name: string; hash: string; ready: (page: Page) => Promise<unknown> }[] = [
  { name: 'review queue', hash: '#/queue', ready: (p) => p.locator('#queue-list tbody tr').first().waitFor() },
  {
    name: 'review queue, open, critical',
    hash: '#/queue',
    ready: async (p) => {
      await p.getByLabel('Severity').selectOption('critical');
      await p.locator('#queue-list tbody tr').first().waitFor();
    },
  },
  { name: 'dashboard', hash: '#/dashboard', ready: (p) => p.locator('#decisions-chart canvas').waitFor() },
  { name: 'session (evidence)', hash: '#/sessions/SESSION', ready: (p) => p.getByRole('heading', { name: 'Extracted fields' }).waitFor() },
  { name: 'case', hash: '#/cases/CASE', ready: (p) => p.getByRole('heading', { name: /^Case case_/ }).waitFor() },
  { name: 'audit log', hash: '#/audit', ready: (p) => p.getByRole('table').first().waitFor() },
  { name: 'usage', hash: '#/usage', ready: (p) => p.locator('#usage-total').waitFor() },
  { name: 'screening lists', hash: '#/snapshots', ready: (p) => p.locator('#snapshot-history tbody tr').first().waitFor() },
  { name: 'rules', hash: '#/rules', ready: (p) => p.locator('#shadow-hits table').waitFor() },
  { name: 'lists', hash: '#/lists', ready: (p) => p.getByRole('heading', { name: 'Lists' }).waitFor() },
];

async function seed(db: Db, account: string): Promise<{ session: string; kase: string }> {
  const t0 = Date.now();
  // Ids sort by time like newId's (prefix + 13 base32 time-ish characters): zero-padded sequence numbers.
  for (let from = 0; from < ROWS; from += BATCH) {
    const to = Math.min(ROWS, from + BATCH) - 1;
    await db.query(
      `INSERT INTO sessions (id, account_id, environment, journey_key, journey_version, definition, status, subject_type, subject_reference,
         expires_at, token_hash, token_expires_at, decision, decided_at, created_at, updated_at)
       SELECT 'ses_bench' || lpad(g::text, 9, '0'), $1, 'sandbox', 'kyc_standard', 1, '{}'::jsonb,
              (ARRAY['referred','approved','approved','approved','declined'])[1 + g % 5], 'individual', 'cus_bench' || g,
              now() + interval '1 day', 'bench_' || g, now() + interval '1 day',
              (ARRAY['referred','approved','approved','approved','declined'])[1 + g % 5],
              now() - (g % 30) * interval '1 day' - (g % 86400) * interval '1 second',
              now() - (g % 30) * interval '1 day' - (g % 86400) * interval '1 second' - interval '5 minutes', now()
         FROM generate_series($2::int, $3::int) g`,
      [account, from, to],
    );
    await db.query(
      `INSERT INTO cases (id, account_id, environment, session_id, kind, state, severity, owner, reason_code, reason_codes,
         subject_type, subject_id, created_at, updated_at, closed_at)
       SELECT 'case_bench' || lpad(g::text, 9, '0'), $1, 'sandbox', 'ses_bench' || lpad(g::text, 9, '0'), 'verification_review',
              CASE WHEN g % 10 < 3 THEN 'open' WHEN g % 10 = 3 THEN 'in_review' ELSE 'closed' END,
              (ARRAY['low','medium','medium','high','critical'])[1 + g % 5],
              CASE WHEN g % 10 = 3 THEN 'operator:opr_bench' END, 'screening_potential_match', ARRAY['screening_potential_match'],
              'verification', 'ses_bench' || lpad(g::text, 9, '0'),
              now() - (g % 30) * interval '1 day', now(), CASE WHEN g % 10 > 3 THEN now() END
         FROM generate_series($2::int, $3::int) g`,
      [account, from, to],
    );
  }
  if (pgBase) await db.query('ANALYZE sessions; ANALYZE cases');
  console.log(`seeded ${ROWS} sessions and ${ROWS} cases in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { session: `ses_bench${String(ROWS - 1).padStart(9, '0')}`, kase: `case_bench${String(ROWS - 1).padStart(9, '0')}` };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'verity-console-100k-'));
  const env: Record<string, string> = { DATA_DIR: join(dir, 'data'), MASTER_KEY: '68'.repeat(32), RUN_WORKER: 'false' };
  let dropSchema: (() => Promise<void>) | null = null;
  if (pgBase) {
    const s = await freshSchema(pgBase);
    env.DATABASE_URL = s.url;
    dropSchema = s.drop;
  }
  try {
    // First start: migrations, the first account and its keys; then the server stops so an embedded
    // database can be opened here for the seeding.
    let server = await startServer(env, 300_000);
    const account = firstKeys(env.DATA_DIR!).account;
    await server.stop();
    const db = await openDb({ databaseUrl: env.DATABASE_URL ?? null, dataDir: env.DATA_DIR });
    await migrate(db);
    const ids = await seed(db, account);
    await db.close();
    const cli = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli.ts',
        'operators',
        'create',
        '--account',
        account,
        '--email',
        'bench@example.com',
        '--role',
        'admin',
        '--password-stdin',
      ],
      { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, input: `${PASSWORD}\n`, encoding: 'utf8' },
    );
    if (cli.status !== 0) throw new Error(cli.stderr + cli.stdout);

    server = await startServer(env, 300_000);
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.base}/console`);
    await page.getByLabel('Email').fill('bench@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Review queue' }).waitFor();

    const rows: string[] = [];
    for (const s of SCREENS) {
      const hash = s.hash.replace('SESSION', ids.session).replace('CASE', ids.kase);
      const times: number[] = [];
      let failed = '';
      for (let i = 0; i < RUNS && !failed; i++) {
        // From a screen that reads nothing, so each visit starts from the same place.
        await page.evaluate(() => (location.hash = '#/businesses'));
        await page.getByRole('heading', { name: 'Businesses' }).waitFor();
        const t0 = performance.now();
        await page.evaluate((h) => (location.hash = h), hash);
        try {
          await s.ready(page);
          times.push(performance.now() - t0);
        } catch (e) {
          // A screen that never became interactive is reported as such (with what the page said), not hidden.
          failed = `not interactive in 30 s (${(await page.locator('#message').textContent()) || String(e).split('\n')[0]}; page errors: ${errors.join('; ') || 'none'})`;
        }
      }
      const row = failed
        ? `| ${s.name} | ${failed} | |`
        : `| ${s.name} | ${Math.round(percentile(times, 50))} | ${Math.round(Math.max(...times))} |`;
      console.log(row);
      rows.push(row);
    }
    const load = loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
    console.log(
      `\nConsole screens at ${ROWS} sessions and ${ROWS} cases (${pgBase ? 'PostgreSQL' : 'PGlite'}), ${RUNS} visits each, load ${load}`,
    );
    console.log('| Screen | median ms | worst ms |\n| --- | --- | --- |');
    for (const r of rows) console.log(r);
    await browser.close();
    await server.stop();
  } finally {
    await dropSchema?.();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
