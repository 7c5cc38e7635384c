import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { makePoaSample, type PoaSample } from '../fixtures/poa/poa-dataset.js';
import { multipartBody } from '../helpers/multipart.js';

let t: TestApp;
let bill: PoaSample;
before(async () => {
  t = await createTestApp();
  bill = await makePoaSample(7, 'pdf', 'utility_bill');
});
after(() => t.close());

// Fixture documents are dated around mid-2026; the check runs against today's clock, so a passing
// request widens max_age_days to cover the document's real age (an explicit, documented knob).
const ageDays = (iso: string) => Math.floor((Date.now() - Date.parse(`${iso}T00:00:00Z`)) / 86_400_000);
const body = (s: PoaSample, extra: Record<string, unknown> = {}) => ({
  document: s.bytes.toString('base64'),
  subject_name: s.label.subjectName,
  country: s.label.country,
  max_age_days: ageDays(s.label.issueDate) + 30,
  ...extra,
});

routeSecurityTests('checkProofOfAddress', () => t, {
  method: 'POST',
  url: () => '/v1/checks/proof-of-address',
  scope: 'checks:write',
  body: { document: 'JVBERi0=', subject_name: 'A B' },
  malformed: { body: { document: 'JVBERi0=' }, field: 'subject_name' },
});

test('a matching utility bill passes with class, fields and validations; stored sealed, billed once, evented', async () => {
  const o = await t.tenant();
  const res = await t.call('POST', '/v1/checks/proof-of-address', {
    key: o.sandboxKey,
    body: body(bill, { subject_reference: 'cus_poa_1' }),
  });
  assert.equal(res.statusCode, 200, res.body);
  const c = res.json();
  assert.equal(c.type, 'proof_of_address');
  assert.equal(c.status, 'passed', c.reasons.join(','));
  assert.equal(c.result.document_class, 'utility_bill');
  assert.equal(c.score, c.result.confidence);
  assert.ok(c.result.confidence >= 0.6);
  assert.equal(c.result.fields.name, bill.label.holderName);
  assert.equal(c.result.fields.issue_date, bill.label.issueDate);
  assert.equal(c.result.fields.address.postcode, bill.label.postcode);
  assert.equal(c.result.fields.country, bill.label.country);
  assert.equal(c.result.field_details.name.box.page, 1);
  for (const name of ['document_class', 'class_confidence', 'name_match', 'address_parsed', 'address_country', 'document_age_days']) {
    assert.equal(c.signals.find((s: { name: string }) => s.name === name)?.passed, true, name);
  }
  assert.equal(c.model[0].name, 'verity-poa');
  assert.ok(c.timings.total > 0);
  assert.equal(c.media[0].content_type, 'application/pdf');
  assert.equal(c.media[0].bytes, bill.bytes.length);
  const [row] = await t.db.query<{ result_sealed: string }>('SELECT result_sealed FROM checks WHERE id = $1', [c.id]);
  assert.ok(!row!.result_sealed.includes(bill.label.postcode));
  const usage = (await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json();
  assert.deepEqual(usage.modules, [{ module: 'checks', count: 1, operations: [{ operation: 'proof_of_address', count: 1 }] }]);
  const ev = (await t.call('GET', `/v1/events?resource_id=${c.id}`, { key: o.sandboxKey })).json();
  assert.equal(ev.data[0].type, 'check.completed');
  const [audit] = await t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1', [c.id]);
  assert.equal(audit?.action, 'check.created');
  assert.equal((await t.call('GET', `/v1/checks/${c.id}`, { key: o.sandboxKey })).json().result.fields.name, bill.label.holderName);
});

test('a different subject fails on the name; an old bill fails on its age (default 90 days)', async () => {
  const o = await t.tenant();
  const wrong = (
    await t.call('POST', '/v1/checks/proof-of-address', { key: o.sandboxKey, body: body(bill, { subject_name: 'Zebediah Quarrington' }) })
  ).json();
  assert.equal(wrong.status, 'failed');
  assert.deepEqual(wrong.reasons, ['name_mismatch']);
  assert.equal(wrong.signals.find((s: { name: string }) => s.name === 'name_match').passed, false);
  const { max_age_days: _, ...noAge } = body(bill);
  const old = (await t.call('POST', '/v1/checks/proof-of-address', { key: o.sandboxKey, body: noAge })).json();
  assert.equal(old.status, 'failed');
  assert.deepEqual(old.reasons, ['document_too_old']);
  const age = old.signals.find((s: { name: string }) => s.name === 'document_age_days');
  assert.equal(age.threshold, 90);
  assert.equal(age.value, ageDays(bill.label.issueDate));
});

test('what is not a PDF or an image is 400 on document; a wrong country is validated', async () => {
  const o = await t.tenant();
  const text = Buffer.from('Dear customer, this is not a document.').toString('base64');
  const res = await t.call('POST', '/v1/checks/proof-of-address', { key: o.sandboxKey, body: { document: text, subject_name: 'A B' } });
  assert.equal(res.statusCode, 400);
  assert.equal(res.json().error.field, 'document');
  const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(64, 0x41)]).toString('base64');
  const bad = await t.call('POST', '/v1/checks/proof-of-address', { key: o.sandboxKey, body: { document: broken, subject_name: 'A B' } });
  assert.equal(bad.statusCode, 400, bad.body);
  assert.equal(bad.json().error.field, 'document');
  const elsewhere = bill.label.country === 'US' ? 'CA' : 'US';
  const abroad = (
    await t.call('POST', '/v1/checks/proof-of-address', { key: o.sandboxKey, body: body(bill, { country: elsewhere }) })
  ).json();
  assert.deepEqual(abroad.reasons, ['country_mismatch']);
  const usage = (await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json();
  assert.equal(usage.modules[0].count, 1, 'refused uploads are not billed');
});

test('multipart/form-data upload of a scanned bill (JPEG, OCR through the shared engine)', async () => {
  const o = await t.tenant();
  const jpeg = await makePoaSample(21, 'jpeg', 'bank_statement');
  const mp = multipartBody(
    { subject_name: jpeg.label.subjectName, max_age_days: String(ageDays(jpeg.label.issueDate) + 30) },
    { document: { filename: 'statement.jpg', type: 'image/jpeg', data: jpeg.bytes } },
  );
  const res = await t.call('POST', '/v1/checks/proof-of-address', {
    key: o.sandboxKey,
    body: mp.body,
    headers: { 'content-type': mp.contentType },
  });
  assert.equal(res.statusCode, 200, res.body);
  const c = res.json();
  assert.equal(c.result.document_class, 'bank_statement');
  assert.equal(c.result.text_source, 'ocr');
  assert.equal(c.media[0].content_type, 'image/jpeg');
  assert.equal(c.status, 'passed', c.reasons.join(','));
});
