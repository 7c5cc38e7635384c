import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { firstKeys, startServer, type RunningServer } from '../helpers/spawn-server.js';
import { createTestDb } from '../helpers/test-db.js';
import { seriousViolations } from './axe.js';

/**
 * The API keys screen in Debian's Chromium against the real server: an admin creates a key (the secret
 * shown once, gone after the screen is left), the key works, the admin revokes it after a confirmation
 * and the API refuses it at once; a viewer is offered nothing and the API refuses the viewer's calls made
 * from the page. Screenshots at laptop and tablet widths go to test/browser/screenshots/.
 */
declare const location: { hash: string };
declare const document: { documentElement: { scrollWidth: number } };

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (Debian package chromium)`;
if (skip && process.env.CI) {
  test('Chromium is installed for the API keys browser test', () => assert.fail(`${skip}: .ci/run installs it.`));
}
const SHOTS = join(process.cwd(), 'test/browser/screenshots');
const PASSWORD = 'browser keys password 7';
const LAPTOP = { width: 1280, height: 800 };
const TABLET = { width: 768, height: 1024 };

describe('API keys screen in Chromium', { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let browser: Browser;
  let dropDb: (() => Promise<void>) | null = null;
  let env: Record<string, string>;

  const status = async (key: string, path: string) =>
    (await fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${key}` } })).status;

  const operator = (email: string, role: string) => {
    const account = firstKeys(env.DATA_DIR!).account;
    const args = ['operators', 'create', '--account', account, '--email', email, '--role', role, '--password-stdin'];
    const cli = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      cwd: process.cwd(),
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      input: `${PASSWORD}\n`,
      encoding: 'utf8',
    });
    assert.equal(cli.status, 0, cli.stderr + cli.stdout);
  };

  const open = async (email: string, hash: string) => {
    const context = await browser.newContext({ viewport: LAPTOP });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.base}/console`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Review queue' }).waitFor();
    await page.evaluate((h) => (location.hash = h), hash);
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    return { page, errors, close: () => context.close() };
  };

  const shots = async (page: Page, name: string) => {
    mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize(LAPTOP);
    await page.screenshot({ path: join(SHOTS, `console-${name}-laptop.png`), fullPage: true });
    await page.setViewportSize(TABLET);
    await page.screenshot({ path: join(SHOTS, `console-${name}-tablet.png`), fullPage: true });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= TABLET.width, `${name}: the page is ${width} px wide at a ${TABLET.width} px tablet width`);
    assert.deepEqual(await seriousViolations(page), [], `${name}: axe-core`);
    await page.setViewportSize(LAPTOP);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'verity-console-keys-'));
    env = { DATA_DIR: join(dir, 'data'), MASTER_KEY: '77'.repeat(32) };
    if (process.env.TEST_DATABASE_URL) {
      const db = await createTestDb();
      env.DATABASE_URL = db.url!;
      dropDb = db.close;
    }
    server = await startServer(env, 300_000);
    operator('kim@example.com', 'admin');
    operator('val@example.com', 'viewer');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await dropDb?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('an admin creates a key (the secret shown once), the key works, the admin revokes it and the API refuses it', async () => {
    const kim = await open('kim@example.com', '#/keys');
    const { page } = kim;
    await page.getByLabel('Name', { exact: true }).fill('Browser CRM');
    await page.getByRole('checkbox', { name: 'usage:read' }).check();
    await page.getByRole('checkbox', { name: 'lists:read' }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#key-secret').filter({ hasText: 'shown once' }).waitFor();
    const secret = await page.getByLabel('New key').inputValue();
    assert.match(secret, /^sk_sandbox_[0-9A-Za-z]{40}$/);
    await page.getByRole('button', { name: 'Copy key' }).waitFor();
    await shots(page, 'keys-created');
    assert.equal(await status(secret, '/v1/usage'), 200);
    assert.equal(await status(secret, '/v1/webhooks'), 403, 'only the scopes ticked');

    // Leaving the screen and coming back: the key is listed, its secret is gone.
    await page.evaluate(() => (location.hash = '#/queue'));
    await page.getByRole('heading', { name: 'Review queue' }).waitFor();
    await page.evaluate(() => (location.hash = '#/keys'));
    await page.getByRole('cell', { name: 'Browser CRM', exact: true }).waitFor();
    assert.equal(await page.locator('#key-secret').count(), 0);
    assert.ok(!(await page.content()).includes(secret));

    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Revoke Browser CRM' }).click();
    await page.locator('#message').filter({ hasText: 'Revoked Browser CRM' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Revoke Browser CRM' }).count(), 0);
    assert.equal(await status(secret, '/v1/usage'), 401);
    await shots(page, 'keys');
    assert.deepEqual(kim.errors, []);
    await kim.close();
  });

  test('a viewer is offered no key actions and the API refuses the viewer’s calls from the page', async () => {
    const val = await open('val@example.com', '#/keys');
    const { page } = val;
    await page.getByText('Only an admin manages API keys.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Create key' }).count(), 0);
    const refused = (await page.evaluate(`(async () => {
      const me = await (await fetch('/console/api/me')).json();
      const headers = { 'content-type': 'application/json', 'x-csrf-token': me.csrf_token, 'verity-environment': me.environment };
      const list = await fetch('/v1/api-keys', { headers });
      const create = await fetch('/v1/api-keys', { method: 'POST', headers, body: JSON.stringify({ name: 'x', scopes: ['usage:read'] }) });
      return [list.status, create.status, (await create.json()).error.code];
    })()`)) as [number, number, string];
    assert.deepEqual(refused, [403, 403, 'insufficient_scope']);
    assert.deepEqual(val.errors, []);
    await val.close();
  });
});
