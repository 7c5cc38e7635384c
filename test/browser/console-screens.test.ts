import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromiumMissing, said, shots, startConsole, type Console } from './console-harness.js';

/**
 * The console's configuration screens in Debian's Chromium against the real server (with its job
 * runner): journeys (a draft by an analyst, the approver cannot publish their own version but publishes
 * the analyst's), rules (an expression error shown at its line and column, a draft saved, published by
 * a second person, diff), lists (add, search, remove), monitoring subjects (enrol, remove), webhooks
 * (a destination, a failed delivery retried, the secret rotated), usage and the dashboard (the backlog
 * by kind after a transaction hits the published rule). Each action is checked through the API with
 * an API key; screenshots at laptop and tablet widths go to test/browser/screenshots/.
 */
declare const location: { hash: string };

const skip = chromiumMissing;
if (skip && process.env.CI) {
  test('Chromium is installed for the console screens browser test', () => assert.fail(`${skip}: .ci/run installs it.`));
}

describe('console screens in Chromium', { skip: skip || undefined }, () => {
  let c: Console;
  let receiver: Server;
  let receiverUrl: string;
  const received: string[] = [];
  let failNext = 1;
  const api = (method: string, path: string, body?: unknown) => c.api(method, path, body);
  const open = (email: string, hash: string) => c.open(email, hash);

  before(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(String(req.headers['content-type']));
        if (failNext > 0) {
          failNext--;
          res.writeHead(500).end('not now');
        } else res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    c = await startConsole('console-screens', {
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_REQUIRE_HTTPS: 'false',
      // After a failed attempt the next automatic one is an hour away: the retry is the operator's.
      WEBHOOK_RETRY_SCHEDULE: '3600',
    });
    c.operator('ada@example.com', 'admin');
    c.operator('ana@example.com', 'analyst');
    c.operator('abe@example.com', 'approver');
  });

  after(async () => {
    await c?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  test('journeys: the analyst saves a draft (a bad definition is shown at the field); the approver cannot publish their own version and publishes the analyst’s', async () => {
    const ana = await open('ana@example.com', '#/journeys');
    await ana.page.getByRole('link', { name: 'kyc_standard' }).click();
    await ana.page.getByRole('heading', { name: 'Journey kyc_standard' }).waitFor();
    assert.equal(await ana.page.getByRole('button', { name: /^Publish version/ }).count(), 0, 'an analyst is offered no publish');
    const definition = ana.page.getByLabel(/^Definition/);
    const good = JSON.parse(await definition.inputValue());
    await definition.fill(JSON.stringify({ ...good, checks: [] }));
    await ana.page.getByRole('button', { name: 'Save draft' }).click();
    await ana.page
      .locator('#definition-error')
      .filter({ hasText: /checks/ })
      .waitFor();
    assert.equal(await definition.getAttribute('aria-invalid'), 'true');
    await definition.fill(JSON.stringify({ ...good, session_lifetime_seconds: 7200 }, null, 2));
    await ana.page.getByRole('button', { name: 'Save draft' }).click();
    await said(ana.page, /Saved draft version \d+/);
    const draftVersion = Number(/version (\d+)/.exec((await ana.page.locator('#message').textContent())!)![1]);
    await shots(ana.page, 'journey');
    assert.deepEqual(ana.errors, []);
    await ana.close();

    const abe = await open('abe@example.com', '#/journeys/kyc_standard');
    await abe.page.getByRole('heading', { name: 'Journey kyc_standard' }).waitFor();
    await abe.page.getByRole('button', { name: 'Save draft' }).click();
    await said(abe.page, `Saved draft version ${draftVersion + 1}.`);
    await abe.page.getByRole('button', { name: `Publish version ${draftVersion + 1}` }).click();
    await said(abe.page, /Maker-checker/);
    await abe.page.getByRole('button', { name: `Publish version ${draftVersion}`, exact: true }).click();
    await said(abe.page, `Published version ${draftVersion}.`);
    const j = await api('GET', '/v1/journeys?key=kyc_standard');
    assert.equal(j.data.data[0].published_version, draftVersion);
    assert.equal(j.data.data[0].versions.find((v: any) => v.version === draftVersion).definition.session_lifetime_seconds, 7200);
    assert.deepEqual(abe.errors, []);
    await abe.close();
  });

  test('journeys: the analyst creates a new journey (a draft copy of another); the approver publishes it and a session can use it', async () => {
    const ana = await open('ana@example.com', '#/journeys');
    await ana.page.getByRole('heading', { name: 'Journeys' }).waitFor();
    await ana.page.getByLabel(/^Key/).fill('console_new');
    await ana.page.getByLabel('Name', { exact: true }).fill('Made in the console');
    await ana.page.getByLabel('Start from').selectOption('kyc_standard');
    await ana.page.getByRole('button', { name: 'Create draft' }).click();
    await ana.page.getByRole('heading', { name: 'Journey console_new' }).waitFor();
    await said(ana.page, 'Created journey console_new: draft version 1.');
    let j = (await api('GET', '/v1/journeys?key=console_new')).data.data[0];
    assert.equal(j.name, 'Made in the console');
    assert.equal(j.published_version, null);
    assert.equal(j.versions[0].created_by.includes('opr_'), true, JSON.stringify(j.versions[0]));
    // Not published yet: a session cannot start on it.
    const early = await api('POST', '/v1/verifications', {
      journey: 'console_new',
      subject: { type: 'individual', reference: 'cus_new_1' },
    });
    assert.notEqual(early.status, 201, 'a draft-only journey starts no session');
    await ana.page.evaluate(() => (location.hash = '#/journeys'));
    await ana.page.getByRole('link', { name: 'console_new' }).waitFor();
    await shots(ana.page, 'journeys-new');
    assert.deepEqual(ana.errors, []);
    await ana.close();

    const abe = await open('abe@example.com', '#/journeys/console_new');
    await abe.page.getByRole('button', { name: 'Publish version 1', exact: true }).click();
    await said(abe.page, 'Published version 1.');
    j = (await api('GET', '/v1/journeys?key=console_new')).data.data[0];
    assert.equal(j.published_version, 1);
    const started = await api('POST', '/v1/verifications', {
      journey: 'console_new',
      subject: { type: 'individual', reference: 'cus_new_2' },
    });
    assert.equal(started.status, 201, JSON.stringify(started.data));
    assert.deepEqual(abe.errors, []);
    await abe.close();
  });

  test('rules: an expression error is shown at its line and column; the analyst saves the draft, the approver publishes it; diff', async () => {
    // A second rule written through the API (another author): it makes the dashboard's transaction a case.
    const added = await api('POST', '/v1/rules', {
      key: 'console_large_amount',
      name: 'Large amount (console test)',
      expression: 'tx.amount > 1000.0',
      score: 100,
      severity: 'high',
      status: 'active',
    });
    assert.equal(added.status, 201, JSON.stringify(added.data));

    const ana = await open('ana@example.com', '#/rules');
    await ana.page.getByRole('heading', { name: 'Rules' }).waitFor();
    assert.equal(await ana.page.locator('#rules-publish').count(), 0, 'an analyst is offered no publish');
    const rule = ana.page.getByLabel('Rule', { exact: true });
    const ruleId = (await rule.locator('option').first().getAttribute('value'))!;
    await ana.page.getByLabel('Expression (CEL)').fill('tx.amount > 10.0 &&\n  tx.currency == ');
    await ana.page.getByRole('button', { name: 'Check' }).click();
    await ana.page
      .locator('#expression-errors')
      .filter({ hasText: /Line 2, column \d+/ })
      .waitFor();
    assert.match(await ana.page.locator('#expression-errors pre.caret').first().innerText(), /tx\.currency == \n\s+\^/);
    assert.equal(await ana.page.getByLabel('Expression (CEL)').getAttribute('aria-invalid'), 'true');
    await ana.page.getByLabel('Expression (CEL)').fill('tx.amount > 10.0 &&\n  tx.currency == "EUR"');
    await ana.page.getByLabel('Status').selectOption('test');
    await ana.page.getByRole('button', { name: 'Save to draft' }).click();
    await said(ana.page, /Saved \w+ to the draft/);
    assert.deepEqual(ana.errors, []);
    await ana.close();

    const abe = await open('abe@example.com', '#/rules');
    await abe.page.getByRole('heading', { name: /Draft · revision/ }).waitFor();
    await abe.page.getByLabel('Change note').fill('Console test');
    await abe.page.getByRole('button', { name: /^Publish revision/ }).click();
    await said(abe.page, 'Published v1.');
    await abe.page.locator('#rules-current').filter({ hasText: 'v1' }).waitFor();
    const set = await api('GET', '/v1/rules');
    assert.equal(set.data.current_version, 1);
    const saved = set.data.rules.find((r: any) => r.id === ruleId);
    assert.equal(saved.expression, 'tx.amount > 10.0 &&\n  tx.currency == "EUR"');
    assert.equal(saved.status, 'test');
    assert.ok(set.data.published_by.includes('opr_'));

    // A later draft change shows in the diff against v1.
    assert.equal((await api('PATCH', `/v1/rules/${added.data.id}`, { score: 90 })).status, 200);
    await abe.page.reload();
    await abe.page.getByRole('button', { name: 'Compare' }).click();
    const diff = abe.page.locator('#rules-diff');
    await diff.getByText('Changes from v1 to the draft').waitFor();
    assert.match(await diff.innerText(), /changed\s+console_large_amount\s+score: 100 → 90/);
    await shots(abe.page, 'rules');
    assert.deepEqual(abe.errors, []);
    await abe.close();
  });

  test('lists: an entry is added, found by search and removed', async () => {
    const ana = await open('ana@example.com', '#/lists');
    await ana.page.getByRole('heading', { name: 'Lists' }).waitFor();
    await ana.page.getByLabel('Kind', { exact: true }).last().selectOption('email');
    await ana.page.getByLabel('Value').fill('Fraud.Ring@Example.com');
    await ana.page.getByLabel('Reason').fill('Chargeback ring, case 42');
    await ana.page.getByRole('button', { name: 'Add entry' }).click();
    await said(ana.page, 'Added Fraud.Ring@Example.com to the blocklist.');
    let listed = await api('GET', '/v1/lists/blocklist/entries?kind=email');
    assert.equal(listed.data.data.length, 1);
    assert.equal(listed.data.data[0].created_by.includes('opr_'), true);
    await ana.page.getByRole('searchbox', { name: 'Search' }).fill('nobody-here');
    await ana.page.locator('#list-entries caption').filter({ hasText: '0 entries' }).waitFor();
    await ana.page.getByRole('searchbox', { name: 'Search' }).fill('chargeback');
    await ana.page.locator('#list-entries caption').filter({ hasText: '1 entry' }).waitFor();
    await shots(ana.page, 'lists');
    await ana.page.getByRole('button', { name: 'Remove Fraud.Ring@Example.com' }).click();
    await said(ana.page, 'Removed Fraud.Ring@Example.com.');
    listed = await api('GET', '/v1/lists/blocklist/entries?kind=email');
    assert.equal(listed.data.data.length, 0);
    assert.deepEqual(ana.errors, []);
    await ana.close();
  });

  test('monitoring: a subject is enrolled and removed', async () => {
    const ada = await open('ada@example.com', '#/monitoring');
    await ada.page.getByRole('heading', { name: 'Monitoring' }).waitFor();
    await ada.page.getByLabel('Subject reference', { exact: true }).last().fill('cus_console_m1');
    await ada.page.getByLabel('Full name').fill('Maria Example');
    await ada.page.getByLabel(/Date of birth/).fill('1980-02-03');
    await ada.page.getByRole('button', { name: 'Enrol' }).click();
    await said(ada.page, 'Monitoring cus_console_m1.');
    const got = await api('GET', '/v1/monitoring/subjects?subject_reference=cus_console_m1');
    assert.equal(got.data.data[0].name, 'Maria Example');
    assert.equal(got.data.data[0].date_of_birth, '1980-02-03');
    await shots(ada.page, 'monitoring');
    await ada.page.getByRole('button', { name: 'Stop monitoring cus_console_m1' }).click();
    await said(ada.page, 'Stopped monitoring cus_console_m1.');
    assert.equal((await api('GET', '/v1/monitoring/subjects?subject_reference=cus_console_m1')).data.data.length, 0);
    assert.deepEqual(ada.errors, []);
    await ada.close();
  });

  test('webhooks: a destination is added, its failed test delivery retried and delivered, its secret rotated', async () => {
    const ada = await open('ada@example.com', '#/webhooks');
    await ada.page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await ada.page.getByLabel('URL').fill(receiverUrl);
    await ada.page.getByRole('button', { name: 'Add destination' }).click();
    await ada.page
      .locator('#webhook-secret')
      .filter({ hasText: /whsec_|secret/ })
      .waitFor();
    const firstSecret = await ada.page.locator('#webhook-secret').textContent();
    await ada.page.getByRole('button', { name: `Send test to ${receiverUrl}` }).click();
    await said(ada.page, 'Test event queued.');
    // The receiver answers 500 once: the first attempt fails (the next automatic one is an hour away).
    let failed: any;
    for (;;) {
      const d = await api('GET', '/v1/webhook-deliveries');
      failed = d.data.data.find((x: any) => x.last_status === 500);
      if (failed) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await ada.page.reload();
    await ada.page.getByRole('button', { name: `Retry ${failed.id}` }).click();
    await said(ada.page, /Redelivery \w+ queued/);
    for (;;) {
      const d = await api('GET', '/v1/webhook-deliveries?state=succeeded');
      if (d.data.data.some((x: any) => x.redelivery_of === failed.id)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(received.length >= 2);
    await ada.page.reload();
    await ada.page.getByRole('button', { name: `Rotate secret of ${receiverUrl}` }).click();
    await ada.page.locator('#webhook-secret').filter({ hasText: 'shown once' }).waitFor();
    assert.notEqual(await ada.page.locator('#webhook-secret').textContent(), firstSecret);
    const dest = (await api('GET', '/v1/webhooks')).data.data[0];
    assert.ok(dest.previous_secret_expires_at, 'the rotation keeps the previous secret for the overlap');
    await ada.page.locator('#deliveries').getByText('succeeded').first().waitFor();
    await shots(ada.page, 'webhooks');
    assert.deepEqual(ada.errors, []);
    await ada.close();
  });

  test('dashboard and usage: a transaction hitting the published rule shows in the backlog; usage counts it', async () => {
    const tx = await api('POST', '/v1/transactions', {
      reference: 'tx_console_1',
      occurred_at: new Date().toISOString(),
      amount: '5000.00',
      currency: 'EUR',
      direction: 'out',
      subject: { reference: 'cus_console_tx' },
    });
    assert.ok(tx.status === 201 || tx.status === 200, JSON.stringify(tx.data));
    const open_ = await api('GET', '/v1/cases?state=open&kind=transaction_rule');
    assert.equal(open_.data.data.length, 1, JSON.stringify(tx.data));

    const ada = await open('ada@example.com', '#/dashboard');
    await ada.page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const row = ada.page.getByRole('row').filter({ has: ada.page.getByRole('link', { name: 'transaction rule' }) });
    await row.waitFor();
    const cells = await row.getByRole('cell').allInnerTexts();
    assert.deepEqual(cells.slice(1, 4), ['1', '1', '0']);
    await ada.page
      .locator('#backlog')
      .filter({ hasText: /Open cases: [1-9]/ })
      .waitFor();
    await shots(ada.page, 'dashboard');

    await ada.page.evaluate(() => (location.hash = '#/usage'));
    await ada.page.getByRole('heading', { name: 'Usage' }).waitFor();
    const usage = await api('GET', '/v1/usage');
    await ada.page
      .locator('#usage-total')
      .filter({ hasText: `${usage.data.total} billable operations` })
      .waitFor();
    assert.ok(usage.data.total > 0);
    await shots(ada.page, 'usage');
    assert.deepEqual(ada.errors, []);
    await ada.close();
  });
});
