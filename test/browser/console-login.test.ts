import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumMissing, PASSWORD, SHOTS, startConsole, type Console } from './console-harness.js';
import { seriousViolations } from './axe.js';

/**
 * The console's sign-in page in a real browser (Debian's Chromium through playwright-core) against
 * the real server: the first admin is created with the CLI (over the admin socket while the server
 * holds the embedded database, password on stdin), then a person signs in through the page and sees
 * their email and the environment; a wrong password shows the refusal. Screenshot in
 * test/browser/screenshots/.
 */
const skip = chromiumMissing;
if (skip && process.env.CI) {
  test('Chromium is installed for the console browser test', () => assert.fail(`${skip}: .ci/run installs it.`));
}
describe('console sign-in page in Chromium', { skip: skip || undefined }, () => {
  let c: Console;
  before(async () => (c = await startConsole('console')));
  after(() => c?.close());

  test('the CLI creates the first admin; signing in through the page shows the email and environment', async () => {
    const cli = c.cli(
      ['operators', 'create', '--account', c.account, '--email', 'Ada@Example.com', '--role', 'admin', '--password-stdin'],
      `${PASSWORD}\n`,
    );
    assert.equal(cli.status, 0, cli.stderr + cli.stdout);
    assert.match(cli.stdout, /created operator opr_\w+ {2}ada@example\.com {2}admin/);
    assert.ok(!cli.stdout.includes(PASSWORD) && !cli.stderr.includes(PASSWORD));

    const { page, errors, close } = await c.blank({ width: 1024, height: 700 });
    // The address with a trailing slash reaches the page too (a 308 to /console), not a 404.
    const slash = await page.goto(`${c.server.base}/console/`);
    assert.equal(slash?.status(), 200);
    assert.equal(new URL(page.url()).pathname, '/console');
    assert.equal(slash?.request().redirectedFrom()?.url(), `${c.server.base}/console/`);
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
    await close();
  });
});
