import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { makeInvoice, type InvoiceTruth } from '../fixtures/poa/invoice-fixture.js';
import { layoutToPdf } from '../fixtures/poa/layout.js';
import { appendTextEdit } from '../fixtures/poa/tamper.js';
import { multipartBody } from '../helpers/multipart.js';

let t: TestApp;
let pdf: Buffer;
let truth: InvoiceTruth;
before(async () => {
  t = await createTestApp();
  const inv = makeInvoice(5);
  truth = inv.truth;
  pdf = await layoutToPdf(inv.layout);
});
after(() => t.close());

const fields = [
  { name: 'invoice_number', anchor: 'Invoice number', required: true },
  { name: 'invoice_date', anchor: 'Invoice date', type: 'date' },
  { name: 'total', anchor: 'Total due', type: 'amount' },
  { name: 'iban', type: 'iban' },
  { name: 'email', type: 'email' },
  { name: 'phone', anchor: 'Phone', type: 'phone' },
  { name: 'reference', pattern: 'Reference (INV-\\d+)' },
  { name: 'customer', region: { page: 1, x: 0.05, y: 0.15, w: 0.4, h: 0.06 } },
  { name: 'po_number', anchor: 'Purchase order' },
];
type Field = {
  name: string;
  value: string | null;
  normalized: unknown;
  valid: boolean;
  confidence: number;
  method: string | null;
  page: number | null;
  box: { x: number; y: number; w: number; h: number } | null;
  relative_box: { x: number } | null;
};
const byName = (c: { result: { fields: Field[] } }) => Object.fromEntries(c.result.fields.map((f) => [f.name, f]));

routeSecurityTests('checkDocumentAi', () => t, {
  method: 'POST',
  url: () => '/v1/checks/document-ai',
  scope: 'checks:write',
  body: { document: 'JVBERi0=', fields: [{ name: 'a', type: 'iban' }] },
  malformed: { body: { document: 'JVBERi0=', fields: [{ name: 'a', colour: 'red' }] }, field: 'fields[0].colour' },
});

test('extracts every requested field with value, normalised value, confidence and box; stored and billed once', async () => {
  const o = await t.tenant();
  const res = await t.call('POST', '/v1/checks/document-ai', {
    key: o.sandboxKey,
    body: { document: pdf.toString('base64'), fields, subject_reference: 'sup_1' },
  });
  assert.equal(res.statusCode, 200, res.body);
  const c = res.json();
  assert.equal(c.type, 'document_ai');
  assert.equal(c.status, 'passed', c.reasons.join(','));
  const f = byName(c);
  assert.equal(f.invoice_number!.value, truth.invoiceNumber);
  assert.equal(f.invoice_number!.method, 'anchor');
  assert.equal(f.invoice_date!.normalized, truth.invoiceDateIso);
  assert.equal(f.total!.normalized, truth.totalValue);
  assert.equal(f.iban!.normalized, truth.ibanNormalized);
  assert.equal(f.iban!.valid, true);
  assert.equal(f.email!.normalized, truth.email);
  assert.equal(f.phone!.normalized, truth.phoneE164);
  assert.equal(f.reference!.value, truth.invoiceNumber);
  assert.match(String(f.customer!.normalized), new RegExp(truth.customer));
  assert.equal(f.po_number!.value, null);
  assert.equal(f.po_number!.confidence, 0);
  // The total is printed at x = 430 pt, y = totalBox.y from the top of page 1.
  assert.equal(f.total!.page, 1);
  assert.ok(Math.abs(f.total!.box!.x - 430) < 2);
  assert.ok(Math.abs(f.total!.box!.y - truth.totalBox.y) < 4);
  assert.ok(Math.abs(f.total!.relative_box!.x - 430 / 595) < 0.01);
  assert.ok(f.total!.confidence > 0.5);
  assert.equal(c.result.tampered, false);
  assert.ok(c.score > 0 && c.score < 1);
  assert.equal(c.media[0].content_type, 'application/pdf');
  const usage = (await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json();
  assert.deepEqual(usage.modules, [{ module: 'checks', count: 1, operations: [{ operation: 'document_ai', count: 1 }] }]);
  const ev = (await t.call('GET', `/v1/events?resource_id=${c.id}`, { key: o.sandboxKey })).json();
  assert.equal(ev.data[0].type, 'check.completed');
  const [row] = await t.db.query<{ result_sealed: string }>('SELECT result_sealed FROM checks WHERE id = $1', [c.id]);
  assert.ok(!row!.result_sealed.includes(truth.invoiceNumber));
});

test('an IBAN with a wrong check digit is found but flagged invalid: review', async () => {
  const o = await t.tenant();
  const inv = makeInvoice(6);
  const digit = inv.truth.iban.at(-1) === '1' ? '2' : '1';
  for (const item of inv.layout.items) if (item.field === 'iban') item.text = inv.truth.iban.slice(0, -1) + digit;
  const doc = (await layoutToPdf(inv.layout)).toString('base64');
  const c = (
    await t.call('POST', '/v1/checks/document-ai', {
      key: o.sandboxKey,
      body: { document: doc, fields: [{ name: 'iban', anchor: 'IBAN', type: 'iban' }] },
    })
  ).json();
  assert.equal(c.status, 'needs_review');
  assert.deepEqual(c.reasons, ['field_invalid_iban']);
  assert.equal(c.result.fields[0].valid, false);
  assert.ok(c.result.fields[0].value);
});

test('an amount edited in an incremental update fails as tampered', async () => {
  const o = await t.tenant();
  const edited = await appendTextEdit(pdf, { ...truth.totalBox, text: 'EUR 12.00', coverWidth: 120 });
  const c = (
    await t.call('POST', '/v1/checks/document-ai', {
      key: o.sandboxKey,
      body: { document: edited.toString('base64'), fields: [{ name: 'total', anchor: 'Total due', type: 'amount' }] },
    })
  ).json();
  assert.equal(c.status, 'failed');
  assert.equal(c.result.tampered, true);
  assert.ok(c.reasons.includes('tamper_pdf_content_changed_in_update'), c.reasons.join(','));
  assert.equal(c.signals.find((s: { name: string }) => s.name === 'pdf_content_changed_in_update').passed, false);
});

test('bad field specs are 400 naming the spec; a bad file is 400 on document; nothing billed', async () => {
  const o = await t.tenant();
  const doc = pdf.toString('base64');
  const cases: [unknown, string][] = [
    [[{ name: 'ref', pattern: '(unclosed' }], 'fields[0].pattern'],
    [
      [
        { name: 'ok', type: 'iban' },
        { name: 'bad', pattern: '(a+)+$' },
      ],
      'fields[1].pattern',
    ],
    [
      [
        { name: 'a', type: 'iban' },
        { name: 'a', type: 'email' },
      ],
      'fields[1].name',
    ],
    [[{ name: 'loose' }], 'fields[0]'],
    [[{ name: 'r', region: { page: 1, x: 0.8, y: 0.1, w: 0.5, h: 0.1 } }], 'fields[0].region'],
    [[], 'fields'],
    [Array.from({ length: 51 }, (_, i) => ({ name: `f${i}`, type: 'iban' })), 'fields'],
  ];
  for (const [specs, field] of cases) {
    const res = await t.call('POST', '/v1/checks/document-ai', { key: o.sandboxKey, body: { document: doc, fields: specs } });
    assert.equal(res.statusCode, 400, `${field}: ${res.body}`);
    assert.equal(res.json().error.field, field);
  }
  const res = await t.call('POST', '/v1/checks/document-ai', {
    key: o.sandboxKey,
    body: { document: Buffer.from('GIF89a....').toString('base64'), fields: [{ name: 'a', type: 'iban' }] },
  });
  assert.equal(res.statusCode, 400);
  assert.equal(res.json().error.field, 'document');
  const usage = (await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json();
  assert.deepEqual(usage.modules, []);
});

test('multipart/form-data: the document as a file, fields as a JSON text part', async () => {
  const o = await t.tenant();
  const mp = multipartBody(
    { fields: JSON.stringify(fields.slice(0, 3)), country: 'DE' },
    { document: { filename: 'invoice.pdf', type: 'application/pdf', data: pdf } },
  );
  const res = await t.call('POST', '/v1/checks/document-ai', {
    key: o.sandboxKey,
    body: mp.body,
    headers: { 'content-type': mp.contentType },
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(byName(res.json()).total!.normalized, truth.totalValue);
  const bad = multipartBody({ fields: '[{"name":' }, { document: { filename: 'invoice.pdf', type: 'application/pdf', data: pdf } });
  const r2 = await t.call('POST', '/v1/checks/document-ai', {
    key: o.sandboxKey,
    body: bad.body,
    headers: { 'content-type': bad.contentType },
  });
  assert.equal(r2.statusCode, 400);
  assert.equal(r2.json().error.field, 'fields');
});
