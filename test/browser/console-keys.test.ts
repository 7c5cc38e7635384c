import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { chromiumMissing, shots as harnessShots, startConsole, LAPTOP, type Console } from './console-harness.js';
import type { Page } from 'playwright-core';

/**
 * The API keys screen in Debian's Chromium against the real server: an admin creates a key (the secret
 * shown once, gone after the screen is left), the key works, the admin revokes it after a confirmation
 * and the API refuses it at once; a viewer is offered nothing and the API refuses the viewer's calls made
 * from the page. Screenshots at laptop and tablet widths go to test/browser/screenshots/.
 */
declare const location: { hash: string };

const skip = chromiumMissing;
if (skip && process.env.CI) {
  test('Chromium is installed for the API keys browser test', () => assert.fail(`${skip}: .ci/run installs it.`));
}

describe('API keys screen in Chromium', { skip }, () => {
  let c: Console;

  const status = async (key: string, path: string) =>
    (await fetch(`${c.server.base}${path}`, { headers: { authorization: `Bearer ${key}` } })).status;

  const open = async (email: string, hash: string) => {
    const o = await c.open(email, hash);
    await o.page.getByRole('heading', { name: 'API keys' }).waitFor();
    return o;
  };

  /** The harness's screenshots and checks, then back to the laptop width the test goes on at. */
  const shots = async (page: Page, name: string) => {
    await harnessShots(page, name);
    await page.setViewportSize(LAPTOP);
  };

  before(async () => {
    c = await startConsole('console-keys');
    c.operator('kim@example.com', 'admin');
    c.operator('val@example.com', 'viewer');
  });

  after(() => c?.close());

  test('an admin creates a key (the secret shown once), the key works, the admin revokes it and the API refuses it', async () => {
    const kim = await open('kim@example.com', '#/keys');
    const { page } = kim;
    await page.getByLabel('Name', { exact: true }).fill('Browser CRM');
    // The checkboxes are the server's catalogue (GET /v1/api-keys/scopes), one per scope.
    const catalogue = await c.api('GET', '/v1/api-keys/scopes');
    assert.equal(await page.locator('fieldset.scopes input[type=checkbox]').count(), catalogue.data.scopes.length);
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
