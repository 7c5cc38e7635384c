import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MISSING_DATA, sharedDataDir } from '../fixtures/documents/shared-data.js';
import { ocrBAvailable, renderDocument } from '../fixtures/documents/render.js';
import { DEFAULT_JOURNEYS } from '../../src/modules/journeys/defaults.js';
import { seriousViolations } from './axe.js';
import { chromiumMissing, LAPTOP, SHOTS, startConsole, TABLET, type Console } from './console-harness.js';

/**
 * The operator console as a reviewer and a viewer use it, in Debian's Chromium against the real
 * server with its job runner (real engines on a real capture): a session captured through the capture
 * API with a rendered passport of the sandbox list's sanctioned person and a real selfie is referred;
 * the reviewer signs in, claims it from the queue, looks at the document (zoom), the MRZ check digits,
 * the face score, liveness signals and the screening hit beside the list entry, corrects a field,
 * approves with a reason code and sees the audit rows naming them. The viewer sees the queue and the
 * evidence without any action, and the API refuses the actions the page does not offer.
 * Screenshots at laptop and tablet widths go to test/browser/screenshots/.
 */
declare const document: { documentElement: { scrollWidth: number }; querySelectorAll(s: string): ArrayLike<{ naturalWidth: number }> };

const dataDir = sharedDataDir();
if (chromiumMissing && process.env.CI) {
  test('Chromium is installed for the console review browser test', () => assert.fail(`${chromiumMissing}: .ci/run installs it.`));
}
const skip = chromiumMissing || (ocrBAvailable() ? false : 'OCR-B font (fonts-ocr-b) missing') || (dataDir ? false : MISSING_DATA);

describe('console review in Chromium', { skip: skip || undefined }, () => {
  let c: Console;
  let sessionId: string;
  const api = (method: string, path: string, body?: unknown) => c.api(method, path, body);

  before(async () => {
    c = await startConsole('console-review', {}, 900_000);
    c.operator('rita@example.com', 'reviewer');
    c.operator('vic@example.com', 'viewer');

    // A journey where a person reviews every session (document read or not), with screening.
    const standard = structuredClone(DEFAULT_JOURNEYS[0]!.definition);
    const journey = await api('POST', '/v1/journeys', {
      key: 'console_review',
      name: 'Every session reviewed',
      publish: true,
      definition: {
        ...standard,
        decision_rules: {
          decline: [],
          refer: [
            { check: 'document', statuses: ['passed', 'needs_review', 'failed'] },
            { check: 'sanctions_pep', statuses: ['potential_match', 'match'] },
          ],
          decline_at_band: null,
          refer_at_band: 'high',
        },
        enrol_on_approval: { face_search: false, monitoring: false },
      },
    });
    assert.equal(journey.status, 201, JSON.stringify(journey.data));
    const created = await api('POST', '/v1/verifications', {
      journey: 'console_review',
      subject: { type: 'individual', reference: 'cus_console_review' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.data));
    sessionId = created.data.id;
    const token = created.data.session_token as string;
    const face = (name: string) => readFileSync(`${dataDir}/faces/deepface_subset/images/${name}`);
    const passport = await renderDocument({
      kind: 'td3',
      person: {
        surname: 'PERSON',
        givenNames: 'SANDBOX SANCTIONED',
        documentNumber: 'X12345678',
        issuingState: 'UTO',
        nationality: 'UTO',
        birthDate: '1970-01-01',
        sex: 'M',
        expiryDate: '2033-05-01',
      },
      portrait: face('img5.jpg'),
    });
    for (const [kind, data, type] of [
      ['document_front', passport, 'image/png'],
      ['selfie', face('img2.jpg'), 'image/jpeg'],
    ] as const) {
      const put = await fetch(`${c.server.base}/capture/v1/media/${kind}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': type },
        body: data,
      });
      assert.equal(put.status, 201, await put.text());
    }
    const submit = await fetch(`${c.server.base}/capture/v1/submit`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    assert.equal(submit.status, 202, await submit.text());
    const deadline = Date.now() + 300_000;
    for (;;) {
      const s = await api('GET', `/v1/verifications/${sessionId}`);
      if (s.data.status === 'referred') break;
      assert.ok(['processing', 'awaiting_subject'].includes(s.data.status), `the session ended ${s.data.status}, not referred`);
      assert.ok(Date.now() < deadline, 'the pipeline did not finish in 300 s');
      await new Promise((r) => setTimeout(r, 1000));
    }
  });

  after(() => c?.close());

  test('a reviewer claims the referred session, inspects its evidence, corrects a field, approves it, and the audit names them', async () => {
    const { page, errors, close } = await c.open('rita@example.com', '#/queue');
    assert.equal(await page.locator('#env-badge').textContent(), 'Sandbox');
    await page.getByRole('link', { name: sessionId }).or(page.locator('#queue-list table')).first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'console-queue.png'), fullPage: true });

    await page.getByRole('button', { name: 'Claim next' }).click();
    await page.getByRole('heading', { name: `Session ${sessionId}` }).waitFor();
    await page.locator('#review-owner').filter({ hasText: 'rita@example.com (you)' }).waitFor();

    // The document image arrives through /v1 and can be zoomed.
    await page.waitForFunction(() =>
      [...(document.querySelectorAll('.zoom-frame img') as unknown as { naturalWidth: number }[])].some((i) => i.naturalWidth > 0),
    );
    await page.getByRole('button', { name: 'Zoom in on Document: document front' }).click();
    assert.equal(await page.locator('.zoom-level').first().textContent(), '125 %');
    // MRZ check digits, face score, liveness signals, the screening hit beside its list entry.
    const mrz = page.getByRole('table', { name: /MRZ check digits/ });
    await mrz.waitFor();
    assert.ok((await mrz.locator('tbody tr').count()) >= 4, 'every check digit of the TD3 zone is listed');
    assert.match(await page.locator('#face-score').innerText(), /similarity \d\.\d{3}/);
    await page.getByRole('table', { name: 'Liveness signals' }).waitFor();
    const hit = page.locator('article.hit').first();
    await hit.waitFor();
    assert.match(await hit.innerText(), /Sandbox Sanctioned Person/);
    assert.match(await hit.innerText(), /sandbox:sanctioned-person/);

    // A correction (PATCH, audited).
    await page.getByLabel('Document number').fill('X12345679');
    await page.getByLabel('Reason for the correction').fill('OCR read the last digit wrong');
    await page.getByRole('button', { name: 'Save corrections' }).click();
    await page.getByRole('alert').filter({ hasText: 'Corrected: document number.' }).waitFor();
    await page.getByRole('table', { name: 'Corrections' }).filter({ hasText: 'rita@example.com (you)' }).waitFor();
    await page.waitForFunction(() =>
      [...(document.querySelectorAll('.zoom-frame img') as unknown as { naturalWidth: number }[])].every((i) => i.naturalWidth > 0),
    );
    await page.screenshot({ path: join(SHOTS, 'console-evidence-laptop.png'), fullPage: true });

    // Tablet width: one column, nothing wider than the screen.
    await page.setViewportSize(TABLET);
    const wider = (await page.evaluate(
      `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 1).slice(-5).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))`,
    )) as string[];
    assert.ok(
      (await page.evaluate(() => document.documentElement.scrollWidth)) <= TABLET.width,
      `no horizontal scrolling on a tablet: ${wider.join(', ')}`,
    );
    await page.screenshot({ path: join(SHOTS, 'console-evidence-tablet.png'), fullPage: true });
    // The evidence viewer with everything loaded (images, MRZ, hits, the decision form): axe-core finds
    // no serious or critical violation, at the tablet and the laptop width.
    assert.deepEqual(await seriousViolations(page), [], 'evidence viewer (tablet): axe-core');
    await page.setViewportSize(LAPTOP);
    assert.deepEqual(await seriousViolations(page), [], 'evidence viewer (laptop): axe-core');

    // Approve with a reason code; the trail and the audit rows name the operator.
    await page.getByLabel('Approve').check();
    await page.getByLabel('Reason code').selectOption('screening_false_positive');
    await page.getByLabel(/^Note/).fill('date of birth and nationality differ from the list entry');
    await page.getByRole('button', { name: 'Record decision' }).click();
    await page.locator('#session-status').filter({ hasText: 'approved' }).waitFor();
    const audit = page.locator('#session-audit');
    await audit
      .getByRole('row')
      .filter({ hasText: 'verification.manual_decision' })
      .filter({ hasText: 'rita@example.com (you)' })
      .waitFor();
    await audit
      .getByRole('row')
      .filter({ hasText: 'verification.fields_corrected' })
      .filter({ hasText: 'rita@example.com (you)' })
      .waitFor();
    await page.screenshot({ path: join(SHOTS, 'console-decided.png'), fullPage: true });

    // The server agrees: the decision and the audit row name the operator.
    const decision = await api('GET', `/v1/verifications/${sessionId}/decision`);
    assert.equal(decision.data.decision, 'approved');
    assert.match(String(decision.data.decided_reason), /^screening_false_positive: /);
    const rows = await api('GET', `/v1/audit-events?resource_id=${sessionId}&action=verification.manual_decision`);
    assert.equal(rows.data.data[0].actor.type, 'operator');
    assert.deepEqual(errors, []);
    await close();
  });

  test('a viewer sees the queue and the evidence without any action, and the API refuses the actions', async () => {
    const referred = await api('POST', '/v1/verifications', {
      journey: 'kyc_standard',
      subject: { type: 'individual', reference: 'sandbox_referred' },
    });
    for (let i = 0; ; i++) {
      if ((await api('GET', `/v1/verifications/${referred.data.id}`)).data.status === 'referred') break;
      assert.ok(i < 120, 'the sandbox session was not referred in 120 s');
      await new Promise((r) => setTimeout(r, 1000));
    }
    const caseId = (await api('GET', `/v1/cases?verification_id=${referred.data.id}`)).data.data[0].id as string;
    const { page, errors, close } = await c.open('vic@example.com', '#/queue', TABLET);
    await page.getByRole('link', { name: caseId }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Claim next' }).count(), 0);
    await page.getByRole('link', { name: caseId }).click();
    await page.getByRole('heading', { name: `Session ${referred.data.id}` }).waitFor();
    await page.getByRole('heading', { name: 'Extracted fields' }).waitFor();
    for (const name of ['Record decision', 'Save corrections', 'Claim this review'])
      assert.equal(await page.getByRole('button', { name }).count(), 0, `no ${name} button for a viewer`);
    await page.screenshot({ path: join(SHOTS, 'console-viewer.png'), fullPage: true });
    assert.deepEqual(await seriousViolations(page), [], 'evidence viewer as a viewer: axe-core');

    // The same calls the buttons would make, from the page with the viewer's session: refused.
    // A string, not a function: the test is compiled by tsx, whose helpers do not exist in the page.
    const refused = (await page.evaluate(`(async () => {
      const me = await (await fetch('/console/api/me')).json();
      const headers = { 'content-type': 'application/json', 'x-csrf-token': me.csrf_token, 'verity-environment': me.environment };
      const claim = await fetch('/v1/cases/claim', { method: 'POST', headers, body: '{}' });
      const decide = await fetch('/v1/verifications/${referred.data.id}/decision', { method: 'POST', headers, body: JSON.stringify({ decision: 'approved', reason: 'x' }) });
      return [claim.status, (await claim.json()).error.code, decide.status, (await decide.json()).error.code];
    })()`)) as unknown[];
    assert.deepEqual(refused, [403, 'insufficient_scope', 403, 'insufficient_scope']);
    assert.deepEqual(errors, []);
    await close();
  });
});
