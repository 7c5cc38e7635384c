import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { chromiumMissing, said, shots, startConsole, type Console } from './console-harness.js';
import { readZip } from '../../src/modules/verifications/evidence/evidence-zip.js';
import { verifyEvidenceBundle } from '../../src/modules/verifications/evidence/evidence.js';
import { openPdf } from '../../src/engines/text/pdf-text.js';
import { verifyWebhook } from '../../src/sdk/webhooks.js';

/**
 * What the "tested as a person would" asks beyond the other console tests, in Debian's Chromium
 * against the real server with its job runner: a reviewer downloads a referred sandbox session's
 * evidence zip and PDF report from the evidence viewer (the files the browser saves are read back),
 * approves the session and sees the verification.completed webhook delivered in the webhooks screen
 * (a local receiver checks the signature with the published helper); an admin switches to production
 * and back (the badge says so, and data of one environment is never shown in the other); the wallet,
 * journeys list, business lookup and a filled review queue pass axe-core. Screenshots at laptop and
 * tablet width go to test/browser/screenshots/.
 */
const skip = chromiumMissing;
if (skip && process.env.CI) test('Chromium is installed for the console flows test', () => assert.fail(`${skip}: .ci/run installs it.`));

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe(
  'console flows in Chromium: downloads, webhook after approval, environments, axe on every screen',
  { skip: skip || undefined },
  () => {
    let c: Console;
    let receiver: Server;
    const received: Received[] = [];
    let secret: string;
    let sessionId: string;
    let caseId: string;

    const referred = async (reference: string) => {
      const created = await c.api('POST', '/v1/verifications', { journey: 'kyc_standard', subject: { type: 'individual', reference } });
      assert.equal(created.status, 201, JSON.stringify(created.data));
      for (let i = 0; ; i++) {
        if ((await c.api('GET', `/v1/verifications/${created.data.id}`)).data.status === 'referred') break;
        assert.ok(i < 180, 'the sandbox session was not referred in 180 s');
        await new Promise((r) => setTimeout(r, 1000));
      }
      return created.data.id as string;
    };

    before(async () => {
      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (d: Buffer) => chunks.push(d));
        req.on('end', () => {
          received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
          res.writeHead(200).end('ok');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      c = await startConsole('flows', { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_REQUIRE_HTTPS: 'false' });
      c.operator('rita@example.com', 'reviewer');
      c.operator('ada@example.com', 'admin');
      const hook = await c.api('POST', '/v1/webhooks', {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        event_types: ['verification.completed'],
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.data));
      secret = hook.data.secret;
      sessionId = await referred('sandbox_referred');
      caseId = (await c.api('GET', `/v1/cases?verification_id=${sessionId}`)).data.data[0].id;
    });
    after(async () => {
      await c?.close();
      await new Promise((resolve) => receiver?.close(resolve));
    });

    test('a reviewer downloads the evidence zip and the PDF report, approves, and sees the signed webhook delivered', async () => {
      const rita = await c.open('rita@example.com', '#/queue');
      const { page } = rita;
      // The filled queue: screenshot and axe-core.
      await page.locator('#queue-list').getByRole('link', { name: caseId }).waitFor();
      await shots(page, 'queue-filled');
      await page.locator('#queue-list').getByRole('link', { name: caseId }).click();
      await page.getByRole('heading', { name: `Session ${sessionId}` }).waitFor();
      await page.getByRole('button', { name: 'Claim this review' }).click();
      await page.locator('#review-owner').filter({ hasText: 'rita@example.com (you)' }).waitFor();

      // The evidence zip, as the browser saves it: the manifest, the session, its checks; the bundle verifies.
      const [zipDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download evidence zip' }).click(),
      ]);
      assert.equal(zipDownload.suggestedFilename(), `${sessionId}-evidence.zip`);
      const zip = readFileSync((await zipDownload.path())!);
      const entries = readZip(zip).map((e) => e.path);
      for (const name of ['manifest.json', 'manifest.sha256', 'session.json'])
        assert.ok(entries.includes(name), `${name} in ${entries.join(', ')}`);
      const checks = (await c.api('GET', `/v1/verifications/${sessionId}`)).data.checks as { id: string }[];
      assert.ok(checks.length > 0);
      for (const check of checks) assert.ok(entries.includes(`checks/${check.id}.json`), `checks/${check.id}.json in the zip`);
      const session = JSON.parse(
        readZip(zip)
          .find((e) => e.path === 'session.json')!
          .data.toString('utf8'),
      );
      assert.equal(session.id, sessionId);
      assert.equal(session.status, 'referred');
      const bundle = verifyEvidenceBundle(zip);
      assert.equal(bundle.ok, true, JSON.stringify(bundle.problems));
      assert.equal(bundle.session_id, sessionId);

      // The PDF report: a PDF whose text names the session.
      const [pdfDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download PDF report' }).click(),
      ]);
      assert.equal(pdfDownload.suggestedFilename(), `${sessionId}-report.pdf`);
      const pdf = readFileSync((await pdfDownload.path())!);
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
      const doc = await openPdf(pdf);
      let text = '';
      for (let i = 1; i <= doc.numPages; i++)
        text += (await (await doc.getPage(i)).getTextContent()).items.map((x) => ('str' in x ? x.str : '')).join(' ');
      await doc.destroy();
      assert.ok(text.includes(sessionId), 'the report names the session');
      assert.ok(text.includes('sandbox_referred'), 'the report names the subject');
      await shots(page, 'evidence-downloads');

      // Approve; the receiver gets verification.completed for this session, signed with the destination's secret.
      await page.getByLabel('Approve').check();
      await page.getByLabel('Reason code').selectOption('screening_false_positive');
      await page.getByRole('button', { name: 'Record decision' }).click();
      await page.locator('#session-status').filter({ hasText: 'approved' }).waitFor();
      let delivery: Received | undefined;
      for (let i = 0; !delivery; i++) {
        delivery = received.find((r) => {
          const e = JSON.parse(r.body);
          return e.type === 'verification.completed' && e.data.id === sessionId && e.data.decision === 'approved';
        });
        assert.ok(delivery || i < 600, 'no verification.completed (approved) delivered in 60 s');
        if (!delivery) await new Promise((r) => setTimeout(r, 100));
      }
      const event = verifyWebhook<{ id: string; decision: string }>({
        rawBody: delivery.body,
        signature: delivery.headers['verity-signature'],
        secrets: secret,
      });
      assert.equal(event.data.decision, 'approved');
      assert.throws(() =>
        verifyWebhook({ rawBody: delivery.body, signature: delivery.headers['verity-signature'], secrets: 'whsec_other' }),
      );
      assert.deepEqual(rita.errors, []);
      await rita.close();

      // The admin sees the delivery (succeeded, one attempt with the 200) in the webhooks screen.
      const ada = await c.open('ada@example.com', '#/webhooks');
      const eventId = String(delivery.headers['verity-event-id']);
      const deliveries = (await c.api('GET', '/v1/webhook-deliveries?state=succeeded')).data.data as any[];
      const shown = deliveries.find((d) => d.event_id === eventId) ?? deliveries.find((d) => d.event_type === 'verification.completed');
      assert.ok(shown, JSON.stringify(deliveries));
      const row = ada.page.locator('#deliveries').getByRole('row').filter({ hasText: shown.id });
      await row.waitFor();
      assert.match(await row.innerText(), /verification\.completed\s+succeeded/);
      await row.getByText(String(shown.attempts), { exact: true }).click();
      await row.locator('li').filter({ hasText: '200' }).first().waitFor();
      await shots(ada.page, 'webhook-delivered');
      assert.deepEqual(ada.errors, []);
      await ada.close();
    });

    test('an admin switches to production and back: the badge says which, and data of one is never shown in the other', async () => {
      const sandboxEntry = 'only-in-sandbox@example.com';
      const productionEntry = 'only-in-production@example.com';
      const add = (value: string, key: string) =>
        c.api('POST', '/v1/lists/blocklist/entries', { kind: 'email', value, reason: 'environment test' }, key);
      assert.equal((await add(sandboxEntry, c.key)).status, 201);
      assert.equal((await add(productionEntry, c.productionKey)).status, 201);
      const openCase = await referred('sandbox_referred');
      const openCaseId = (await c.api('GET', `/v1/cases?verification_id=${openCase}`)).data.data[0].id as string;

      const ada = await c.open('ada@example.com', '#/queue');
      const { page } = ada;
      const entry = (value: string) => page.locator('#list-entries').getByRole('cell', { name: value, exact: true });
      assert.equal(await page.locator('#env-badge').textContent(), 'Sandbox');
      await page.locator('#queue-list').getByRole('link', { name: openCaseId }).waitFor();
      await page.evaluate(() => (location.hash = '#/lists'));
      await page.getByRole('heading', { name: 'Lists' }).waitFor();
      await entry(sandboxEntry).waitFor();
      assert.equal(await entry(productionEntry).count(), 0, 'no production entry in sandbox');

      // Production is switched to on purpose: the page asks first; declining keeps sandbox.
      page.once('dialog', (d) => void d.dismiss());
      await page.getByRole('button', { name: 'Switch to production' }).click();
      await page.waitForTimeout(300);
      assert.equal(await page.locator('#env-badge').textContent(), 'Sandbox');
      page.once('dialog', (d) => {
        assert.match(d.message(), /PRODUCTION/);
        void d.accept();
      });
      await page.getByRole('button', { name: 'Switch to production' }).click();
      await page.locator('#env-badge').filter({ hasText: 'PRODUCTION' }).waitFor();
      assert.equal(await page.locator('#environment-now').textContent(), 'production');
      assert.equal(await page.evaluate(() => document.body.dataset.environment), 'production');
      await page.getByRole('heading', { name: 'Review queue' }).waitFor();
      await page.locator('#queue-list table, #queue-list p').first().waitFor();
      assert.equal(await page.locator('#queue-list').getByRole('link', { name: openCaseId }).count(), 0, 'no sandbox case in production');
      await shots(page, 'production-queue');

      await page.evaluate(() => (location.hash = '#/lists'));
      await page.getByRole('heading', { name: 'Lists' }).waitFor();
      await entry(productionEntry).waitFor();
      assert.equal(await entry(sandboxEntry).count(), 0, 'no sandbox entry in production');
      // What is written in production stays there.
      await page.getByLabel('Kind', { exact: true }).last().selectOption('email');
      await page.getByLabel('Value').fill('written-in-production@example.com');
      await page.getByLabel('Reason').fill('added while in production');
      await page.getByRole('button', { name: 'Add entry' }).click();
      await said(page, 'Added written-in-production@example.com to the blocklist.');
      await shots(page, 'production-lists');
      const inProduction = JSON.stringify((await c.api('GET', '/v1/lists/blocklist/entries?kind=email', undefined, c.productionKey)).data);
      const inSandbox = JSON.stringify((await c.api('GET', '/v1/lists/blocklist/entries?kind=email')).data);
      assert.ok(inProduction.includes('written-in-production@example.com'));
      assert.ok(!inSandbox.includes('written-in-production@example.com'), 'written in production, shown in sandbox');

      // Back to sandbox: no question, the badge and the data follow.
      await page.getByRole('button', { name: 'Switch to sandbox' }).click();
      await page.locator('#env-badge').filter({ hasText: 'Sandbox' }).waitFor();
      await page.locator('#queue-list').getByRole('link', { name: openCaseId }).waitFor();
      await page.evaluate(() => (location.hash = '#/lists'));
      await entry(sandboxEntry).waitFor();
      assert.equal(await entry('written-in-production@example.com').count(), 0);
      assert.deepEqual(ada.errors, []);
      await ada.close();
    });

    test('axe-core on the wallet view, the journeys list and the business lookup', async () => {
      const monitor = await c.api('POST', '/v1/wallets/monitor', {
        address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
        subject_reference: 'cus_console_wallet',
      });
      assert.equal(monitor.status, 201, JSON.stringify(monitor.data));
      const ada = await c.open('ada@example.com', `#/wallets/${monitor.data.id}`);
      const { page } = ada;
      await page.getByRole('heading', { name: `Wallet ${monitor.data.id}` }).waitFor();
      assert.match(await page.locator('#record').innerText(), /cus_console_wallet/);
      await shots(page, 'wallet');
      await page.evaluate(() => (location.hash = '#/journeys'));
      await page.getByRole('link', { name: 'kyc_standard' }).waitFor();
      await shots(page, 'journeys');
      await page.evaluate(() => (location.hash = '#/businesses'));
      await page.getByRole('heading', { name: /Businesses/ }).waitFor();
      await shots(page, 'business-lookup');
      assert.deepEqual(ada.errors, []);
      await ada.close();
    });
  },
);

declare const location: { hash: string };
declare const document: { body: { dataset: Record<string, string | undefined> } };
