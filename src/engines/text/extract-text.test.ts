import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { extractText } from './extract-text.js';
import { createTesseractOcr } from './ocr.js';
import { TextInputError } from './input-error.js';
import { groupLines, pageText } from './lines.js';
import { LayoutBuilder, layoutToPdf, layoutToImage, imageToScannedPdf } from '../../../test/fixtures/poa/layout.js';

function sampleLayout() {
  return new LayoutBuilder()
    .text('Invoice number: INV-20417', 60, 80, 14)
    .text('Total due 1,234.50 EUR', 60, 120, 14)
    .text('Customer: Alice Martin', 320, 120, 12).layout;
}

describe('extractText', () => {
  const ocr = createTesseractOcr();
  after(() => ocr.close());

  test('reads a PDF text layer with word boxes in top-left page points', async () => {
    const doc = await extractText(await layoutToPdf(sampleLayout(), { producer: 'Test Producer' }), 'application/pdf', { ocr });
    assert.equal(doc.source, 'pdf_text');
    assert.equal(doc.pdfInfo?.producer, 'Test Producer');
    const page = doc.pages[0]!;
    assert.deepEqual([page.width, page.height], [595, 842]);
    const inv = page.words.find((w) => w.text === 'INV-20417');
    assert.ok(inv);
    // Laid out at y=80 (top of the line box), 14 pt.
    assert.ok(Math.abs(inv.y - 80) < 4, `y=${inv.y}`);
    assert.ok(inv.x > 150 && inv.x < 220, `x=${inv.x}`);
    const lines = groupLines(page.words).map((l) => l.text);
    assert.equal(lines[0], 'Invoice number: INV-20417');
    assert.match(lines[1] ?? '', /^Total due 1,234\.50 EUR\s{3}Customer: Alice Martin$/);
  });

  test('OCRs a scanned PDF page and maps boxes back to page points', async () => {
    const jpeg = await layoutToImage(sampleLayout(), { scale: 2.5, format: 'jpeg', jpegQuality: 85 });
    const doc = await extractText(await imageToScannedPdf(jpeg), undefined, { ocr });
    assert.equal(doc.source, 'ocr');
    const text = pageText(doc.pages[0]!.words);
    assert.match(text, /Invoice number: INV-20417/);
    const inv = doc.pages[0]!.words.find((w) => w.text.includes('INV-20417'));
    assert.ok(inv && Math.abs(inv.y - 80) < 8, `y=${inv?.y}`);
  });

  test('OCRs an image and reports pixel coordinates of the original', async () => {
    const png = await layoutToImage(sampleLayout(), { scale: 2, format: 'png' });
    const doc = await extractText(png, 'image/png', { ocr });
    assert.equal(doc.source, 'ocr');
    assert.deepEqual([doc.pages[0]!.width, doc.pages[0]!.height], [1190, 1684]);
    assert.match(pageText(doc.pages[0]!.words), /Alice Martin/);
    const alice = doc.pages[0]!.words.find((w) => w.text === 'Alice');
    assert.ok(alice && Math.abs(alice.x - 320 * 2 - 75 * 2) < 40, `x=${alice?.x}`);
  });

  test('a transparent PNG (a screenshot) is read as dark text on white, not on black', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="500"><text x="60" y="200" font-size="72" font-family="DejaVu Sans">Invoice number INV-20417</text><text x="60" y="380" font-size="72" font-family="DejaVu Sans">Total due 1,234.50 EUR</text></svg>`;
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    assert.equal((await sharp(png).metadata()).hasAlpha, true);
    const doc = await extractText(png, 'image/png', { ocr });
    assert.match(pageText(doc.pages[0]!.words), /Invoice number INV-20417/);
    assert.deepEqual([doc.pages[0]!.width, doc.pages[0]!.height], [1600, 500]);
  });

  test('rejects bad input with typed errors before parsing', async () => {
    const code = async (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: unknown) => (e instanceof TextInputError ? e.code : String(e)),
      );
    assert.equal(await code(extractText(Buffer.alloc(0))), 'empty_input');
    assert.equal(await code(extractText(Buffer.from('hello world'))), 'unsupported_media_type');
    const pdf = await layoutToPdf(sampleLayout());
    assert.equal(await code(extractText(pdf, 'image/png')), 'media_type_mismatch');
    assert.equal(await code(extractText(pdf, 'application/pdf', { limits: { maxBytes: 100 } })), 'too_large');
    assert.equal(await code(extractText(Buffer.from('%PDF-1.7\n garbage'), 'application/pdf')), 'unreadable');
    const many = await PDFDocument.create();
    for (let i = 0; i < 3; i++) many.addPage();
    assert.equal(await code(extractText(Buffer.from(await many.save()), undefined, { limits: { maxPages: 2 } })), 'too_many_pages');
    assert.equal(await code(extractText(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), 'image/jpeg', { ocr })), 'unreadable');
  });
});
