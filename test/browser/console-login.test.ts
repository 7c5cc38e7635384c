import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { firstKeys, startServer, type RunningServer } from '../helpers/spawn-server.js';
import { createTestDb } from '../helpers/test-db.js';
import { seriousViolations } from './axe.js';

/**
 * The console's sign-in page in a real browser (Debian's Chromium through playwright-core) against
 * the real server: the first admin is created with the CLI (over the admin socket while the server
 * holds the embedded database, password on stdin), then a person signs in through the page and sees
 * their email and the environment; a wrong password shows the refusal. Screenshot in
 * test/browser/screenshots/.
 */
const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (Debian package chromium)`;
if (skip && process.env.CI) {
  test('Chromium is installed for the console browser test', () => assert.fail(`${skip}: .ci/run installs it.`));
}
const SHOTS = join(process.cwd(), 'test/browser/screenshots');
const PASSWORD = 'browser test password 7';

describe('console sign-in page in Chromium', { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let browser: Browser;
  let dropDb: (() => Promise<void>) | null = null;
  let env: Record<string, string>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'verity-console-'));
    env = { DATA_DIR: join(dir, 'data'), MASTER_KEY: '44'.repeat(32) };
    if (process.env.TEST_DATABASE_URL) {
      const db = await createTestDb();
      env.DATABASE_URL = db.url!;
      dropDb = db.close;
    }
    server = await startServer(env, 120_000);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await dropDb?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the CLI creates the first admin; signing in through the page shows the email and environment', async () => {
    const account = firstKeys(env.DATA_DIR!).account;
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
        'Ada@Example.com',
        '--role',
        'admin',
        '--password-stdin',
      ],
      { cwd: process.cwd(), env: { ...process.env, LOG_LEVEL: 'warn', ...env }, input: `${PASSWORD}\n`, encoding: 'utf8' },
    );
    assert.equal(cli.status, 0, cli.stderr + cli.stdout);
    assert.match(cli.stdout, /created operator opr_\w+ {2}ada@example\.com {2}admin/);
    assert.ok(!cli.stdout.includes(PASSWORD) && !cli.stderr.includes(PASSWORD));

    const context = await browser.newContext({ viewport: { width: 1024, height: 700 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // The address with a trailing slash reaches the page too (a 308 to /console), not a 404.
    const slash = await page.goto(`${server.base}/console/`);
    assert.equal(slash?.status(), 200);
    assert.equal(new URL(page.url()).pathname, '/console');
    assert.equal(slash?.request().redirectedFrom()?.url(), `${server.base}/console/`);
    assert.deepEqual(await seriousViolations(page), [], 'sign-in page: axe-core');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'The email or password is wrong.' }).waitFor();

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Environment').selectOption('sandbox');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#who').filter({ hasText: 'ada@example.com' }).waitFor();
    assert.equal(await page.locator('#environment-now').textContent(), 'sandbox');
    assert.equal(await page.locator('#env-badge').textContent(), 'Sandbox');
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'console-signed-in.png') });
    assert.deepEqual(await seriousViolations(page), [], 'review queue: axe-core');

    // The cookie is HttpOnly: the page's script cannot read it.
    assert.equal(await page.evaluate('document.cookie'), '');
    // A reload keeps the session (GET /console/api/me).
    await page.reload();
    await page.locator('#who').filter({ hasText: 'ada@example.com' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });
});
