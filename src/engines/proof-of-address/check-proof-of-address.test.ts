import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { checkProofOfAddress } from './check-proof-of-address.js';
import { classifyDocument } from './classify.js';
import { extractText } from '../text/extract-text.js';
import { groupLines } from '../text/lines.js';
import { makePoaSample, FIXTURE_NOW } from '../../../test/fixtures/poa/poa-dataset.js';
import { POA_CLASSES } from '../../../test/fixtures/poa/poa-common.js';

// Seeds below 100000 are never used to train the classifier (see bench/poa-train-classifier.ts).
const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T12:00:00Z`) + days * 86_400_000);

describe('checkProofOfAddress on generated PDFs', () => {
  test('classifies every class and reads name, address and date', async () => {
    for (const cls of POA_CLASSES) {
      const sample = await makePoaSample(41, 'pdf', cls);
      const r = await checkProofOfAddress(sample.bytes, {
        subjectName: sample.label.subjectName,
        country: sample.label.country,
        now: addDays(sample.label.issueDate, 10),
      });
      assert.equal(r.documentClass, cls);
      assert.equal(r.fields.name, sample.label.holderName, cls);
      assert.equal(r.fields.issueDate, sample.label.issueDate, cls);
      assert.equal(r.fields.address?.postcode, sample.label.postcode, cls);
      assert.equal(r.fields.country, sample.label.country, cls);
      assert.equal(r.textSource, 'pdf_text');
      assert.equal(r.verdict, cls === 'other' ? 'failed' : 'passed', `${cls}: ${r.reasons.join(',')}`);
      assert.ok(r.classification.features.length > 0);
    }
  });

  test('fails an old document, a different person and a different country', async () => {
    const sample = await makePoaSample(7, 'pdf', 'utility_bill');
    const base = { subjectName: sample.label.subjectName, country: sample.label.country };
    const old = await checkProofOfAddress(sample.bytes, { ...base, now: addDays(sample.label.issueDate, 120) });
    assert.equal(old.verdict, 'failed');
    assert.deepEqual(old.reasons, ['document_too_old']);
    assert.equal(old.validations.find((v) => v.name === 'document_age_days')?.value, 120);
    const custom = await checkProofOfAddress(sample.bytes, { ...base, maxAgeDays: 180, now: addDays(sample.label.issueDate, 120) });
    assert.equal(custom.verdict, 'passed');
    const other = await checkProofOfAddress(sample.bytes, {
      subjectName: 'Zebediah Quarrington',
      country: sample.label.country,
      now: addDays(sample.label.issueDate, 1),
    });
    assert.deepEqual(other.reasons, ['name_mismatch']);
    const elsewhere = sample.label.country === 'US' ? 'CA' : 'US';
    const abroad = await checkProofOfAddress(sample.bytes, { ...base, country: elsewhere, now: addDays(sample.label.issueDate, 1) });
    assert.deepEqual(abroad.reasons, ['country_mismatch']);
    const future = await checkProofOfAddress(sample.bytes, { ...base, now: addDays(sample.label.issueDate, -5) });
    assert.deepEqual(future.reasons, ['issue_date_in_future']);
  });

  test('explains the class with weighted features', async () => {
    const sample = await makePoaSample(12, 'pdf', 'tenancy_agreement');
    const doc = await extractText(sample.bytes, sample.mime);
    const c = classifyDocument(doc.pages.flatMap((p) => groupLines(p.words)));
    assert.equal(c.class, 'tenancy_agreement');
    assert.ok(c.features.some((f) => f.feature === 'kw_tenancy' && f.contribution > 0));
    const sum = Object.values(c.probabilities).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 0.01);
  });

  test('an edited bill (incremental update) goes to review with the tamper signals attached', async () => {
    const { appendTextEdit } = await import('../../../test/fixtures/poa/tamper.js');
    const sample = await makePoaSample(3, 'pdf', 'utility_bill');
    const options = { subjectName: sample.label.subjectName, country: sample.label.country, now: addDays(sample.label.issueDate, 2) };
    const clean = await checkProofOfAddress(sample.bytes, options);
    assert.equal(clean.verdict, 'passed');
    const edited = await appendTextEdit(sample.bytes, { x: 300, y: 400, size: 10, text: 'Amount due 0.00', coverWidth: 10 });
    const r = await checkProofOfAddress(edited, options);
    assert.equal(r.verdict, 'needs_review');
    assert.deepEqual(r.reasons, ['document_tampered']);
    assert.equal(r.tampering.find((t) => t.name === 'pdf_content_changed_in_update')?.passed, false);
  });

  test('a page with no recognisable content needs review rather than passing', async () => {
    const { LayoutBuilder, layoutToPdf } = await import('../../../test/fixtures/poa/layout.js');
    const pdf = await layoutToPdf(new LayoutBuilder().text('Shopping list: milk, eggs, bread and a large bag of flour', 50, 50).layout);
    const r = await checkProofOfAddress(pdf, { subjectName: 'Anyone', now: FIXTURE_NOW });
    assert.notEqual(r.verdict, 'passed');
    assert.ok(
      r.reasons.includes('name_not_found') && r.reasons.includes('address_not_found') && r.reasons.includes('issue_date_not_found'),
    );
  });
});

test('a bill the classifier splits between two accepted kinds is judged on the accepted mass, not the top class', async () => {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const lines = [
    'British Gas',
    'Your electricity bill',
    'Account statement',
    'Mrs Jane Doe',
    '1 High Street',
    'London SW1A 1AA',
    'Statement date 01 November 2026',
    'Sort code 20-00-00 Account number 12345678',
    'Amount due £54.20',
    'Direct debit',
    'Balance brought forward',
  ];
  lines.forEach((l, i) => page.drawText(l, { x: 50, y: 780 - i * 20, size: 11, font }));
  const r = await checkProofOfAddress(Buffer.from(await doc.save()), {
    subjectName: 'Jane Doe',
    country: 'GB',
    now: new Date('2026-11-10T12:00:00Z'),
  });
  assert.equal(r.documentClass, 'utility_bill');
  assert.ok(r.classification.confidence < 0.6, `the top class alone is unsure (${r.classification.confidence})`);
  const signal = r.validations.find((v) => v.name === 'class_confidence')!;
  assert.ok((signal.value as number) >= 0.9, `accepted kinds together: ${signal.value}`);
  assert.equal(signal.passed, true);
  assert.ok(!r.reasons.includes('low_class_confidence'), r.reasons.join(','));
});
