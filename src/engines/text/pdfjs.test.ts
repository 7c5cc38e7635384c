import { test } from 'node:test';
import assert from 'node:assert/strict';

// Before anything in this process has loaded pdfjs: the built-ins core-js would replace.
const originals = { stringify: JSON.stringify, parse: JSON.parse, push: Array.prototype.push, toString: Function.prototype.toString };

test('loading pdfjs and reading a PDF leaves JSON, Array.prototype.push and Function.prototype.toString as they were', async () => {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const { extractText } = await import('./extract-text.js');
  const doc = await PDFDocument.create();
  doc.addPage().drawText('Verity 2026', { font: await doc.embedFont(StandardFonts.Helvetica), x: 50, y: 700 });
  const text = await extractText(Buffer.from(await doc.save()), 'application/pdf');
  assert.deepEqual(
    text.pages[0]!.words.map((w) => w.text),
    ['Verity', '2026'],
  );
  assert.equal(JSON.stringify, originals.stringify);
  assert.equal(JSON.parse, originals.parse);
  assert.equal(Array.prototype.push, originals.push);
  assert.equal(Function.prototype.toString, originals.toString);
  // What pdfjs does need from core-js stays (Node 20 lacks it).
  assert.equal(typeof (Promise as { withResolvers?: unknown }).withResolvers, 'function');
});
