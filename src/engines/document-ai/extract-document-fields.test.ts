import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { extractDocumentFields } from './extract-document-fields.js';
import { analysePdfTampering } from './tamper-pdf.js';
import { analyseImageTampering } from './tamper-image.js';
import type { FieldSpec } from './field-spec.js';
import type { Signal } from '../signal.js';
import { createTesseractOcr } from '../text/ocr.js';
import { makeInvoice } from '../../../test/fixtures/poa/invoice-fixture.js';
import { layoutToImage, layoutToPdf } from '../../../test/fixtures/poa/layout.js';
import {
  appendInfoUpdate,
  appendSignature,
  appendTextEdit,
  pasteTextIntoJpeg,
  resaveJpeg,
  withSoftwareTag,
} from '../../../test/fixtures/poa/tamper.js';

const specs: FieldSpec[] = [
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
const failed = (signals: Signal[]) =>
  signals
    .filter((s) => s.passed === false)
    .map((s) => s.name)
    .sort();

describe('extractDocumentFields on a generated invoice PDF', () => {
  test('finds every field with its normalised value and position', async () => {
    const { layout, truth } = makeInvoice(5);
    const r = await extractDocumentFields(await layoutToPdf(layout), specs);
    const by = Object.fromEntries(r.fields.map((f) => [f.name, f]));
    assert.equal(by.invoice_number?.value, truth.invoiceNumber);
    assert.equal(by.invoice_date?.normalized, truth.invoiceDateIso);
    assert.equal(by.total?.normalized, truth.totalValue);
    assert.equal(by.iban?.normalized, truth.ibanNormalized);
    assert.equal(by.iban?.valid, true);
    assert.equal(by.email?.normalized, truth.email);
    assert.equal(by.phone?.normalized, truth.phoneE164);
    assert.equal(by.reference?.value, truth.invoiceNumber);
    assert.match(String(by.customer?.normalized), new RegExp(truth.customer));
    assert.equal(by.po_number?.value, null);
    assert.equal(by.po_number?.confidence, 0);
    // The total is drawn at x=430pt, y=totalBox.y from the top.
    assert.ok(Math.abs((by.total?.box?.x ?? 0) - 430) < 2);
    assert.ok(Math.abs((by.total?.box?.y ?? 0) - truth.totalBox.y) < 4);
    assert.equal(r.verdict, 'passed');
    assert.deepEqual(failed(r.tampering), []);
  });

  test('an IBAN with a wrong check digit is found but marked invalid', async () => {
    const { layout, truth } = makeInvoice(6);
    const digit = truth.iban.at(-1) === '1' ? '2' : '1';
    for (const item of layout.items) if (item.field === 'iban') item.text = truth.iban.slice(0, -1) + digit;
    const r = await extractDocumentFields(await layoutToPdf(layout), [{ name: 'iban', anchor: 'IBAN', type: 'iban' }]);
    assert.equal(r.fields[0]?.valid, false);
    assert.deepEqual(r.reasons, ['field_invalid_iban']);
    assert.equal(r.verdict, 'needs_review');
  });
});

describe('PDF tampering', () => {
  let pdf: Buffer;
  let truth: ReturnType<typeof makeInvoice>['truth'];
  before(async () => {
    const inv = makeInvoice(9);
    truth = inv.truth;
    pdf = await layoutToPdf(inv.layout);
  });

  test('an appended edit of the total is caught three ways and the edited value is what shows', async () => {
    const edited = await appendTextEdit(pdf, { ...truth.totalBox, text: 'EUR 12.00', coverWidth: 120 });
    const r = await extractDocumentFields(edited, [{ name: 'total', anchor: 'Total due', type: 'amount' }]);
    assert.equal(r.verdict, 'failed');
    assert.deepEqual(failed(r.tampering), ['pdf_content_changed_in_update', 'pdf_font_objects_mixed_on_line']);
    assert.equal(r.tampering.find((s) => s.name === 'pdf_incremental_updates')?.value, 1);
  });

  test('a metadata-only update by an editor flags the producer, not the content', async () => {
    const s = await analysePdfTampering(await appendInfoUpdate(pdf, { producer: 'iLovePDF', modDate: 'D:20260801000000Z' }));
    assert.deepEqual(failed(s), ['pdf_producer']);
  });

  test('signing alone passes; editing after signing fails', async () => {
    const signed = await appendSignature(pdf);
    assert.deepEqual(failed(await analysePdfTampering(signed)), []);
    const edited = await appendTextEdit(signed, { ...truth.totalBox, text: 'EUR 1.00', coverWidth: 120 });
    assert.deepEqual(failed(await analysePdfTampering(edited)), [
      'pdf_changed_after_signing',
      'pdf_content_changed_in_update',
      'pdf_font_objects_mixed_on_line',
    ]);
  });

  test('modification long after creation is flagged', async () => {
    const { layout } = makeInvoice(9);
    const late = await layoutToPdf(layout, { creationDate: new Date('2026-01-01T00:00:00Z'), modDate: new Date('2026-03-15T00:00:00Z') });
    const s = await analysePdfTampering(late);
    assert.equal(s.find((x) => x.name === 'pdf_modified_after_creation_days')?.value, 73);
    assert.deepEqual(failed(s), ['pdf_modified_after_creation_days']);
  });
});

describe('image tampering and OCR extraction', () => {
  const ocr = createTesseractOcr();
  after(() => ocr.close());
  let jpeg: Buffer;
  let truth: ReturnType<typeof makeInvoice>['truth'];
  before(async () => {
    const inv = makeInvoice(11);
    truth = inv.truth;
    jpeg = await layoutToImage(inv.layout, { scale: 2, format: 'jpeg', jpegQuality: 75, noise: 10 });
  });

  test('reads fields from a scan-like JPEG by OCR, with no tampering flagged', async () => {
    const r = await extractDocumentFields(jpeg, specs.slice(0, 4), { ocr });
    assert.equal(r.textSource, 'ocr');
    const by = Object.fromEntries(r.fields.map((f) => [f.name, f]));
    assert.equal(by.invoice_number?.value, truth.invoiceNumber);
    assert.equal(by.total?.normalized, truth.totalValue);
    assert.equal(by.iban?.normalized, truth.ibanNormalized);
    assert.ok((by.total?.confidence ?? 0) > 0.5);
    assert.deepEqual(failed(r.tampering), []);
  });

  test('editing software in EXIF and a pasted region are flagged; a plain re-save is not', async () => {
    assert.deepEqual(failed(await analyseImageTampering(await withSoftwareTag(jpeg, 'GIMP 2.10.36'), 'image/jpeg')), ['image_software']);
    assert.deepEqual(failed(await analyseImageTampering(await resaveJpeg(jpeg, 92), 'image/jpeg')), []);
    const pasted = await pasteTextIntoJpeg(
      jpeg,
      { x: truth.totalBox.x * 2, y: truth.totalBox.y * 2 - 4, w: 220, h: 34, text: 'EUR 12.00', fontPx: 24 },
      92,
    );
    const s = await analyseImageTampering(pasted, 'image/jpeg');
    assert.deepEqual(failed(s), ['jpeg_compression_inconsistent']);
    const detail = s.find((x) => x.name === 'jpeg_compression_inconsistent')?.detail ?? '';
    const x = Number(/x=(\d+)/.exec(detail)?.[1]);
    assert.ok(Math.abs(x - truth.totalBox.x * 2) < 40, detail);
    const skipped = (await analyseImageTampering(pasted, 'image/jpeg', { maxGhostPixels: 1000 })).find(
      (x) => x.name === 'jpeg_compression_inconsistent',
    );
    assert.deepEqual([skipped?.value, skipped?.passed], [null, null]);
  });
});
