import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import type { GrayImage } from './image-ops.js';
import { pnm } from '../image/pnm.js';
import { MrzOcr } from './mrz-ocr.js';

const NAMES = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';
const DATA = 'L898902C36UTO7408122F1204159ZE184226B<<<<<10';

/** Two MRZ lines in a monospace font (fonts-dejavu-core), grey on light grey, as a band crop. */
async function band(): Promise<GrayImage> {
  const px = 30;
  const w = Math.round(NAMES.length * px * 0.62 + 2 * px);
  const h = Math.round(3.6 * px);
  const line = (s: string, y: number): string =>
    `<text x="${px}" y="${y}" font-family="DejaVu Sans Mono" font-size="${px}" fill="#222">${s.replace(/</g, '&lt;')}</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#ddd"/>${line(NAMES, 1.3 * px)}${line(DATA, 2.9 * px)}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).grayscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

describe('the image tesseract.js is given: PNM (2026-11-30; a PNG before, the same pixels)', () => {
  test('grey is P5 and colour P6: a header, then exactly width x height x channels bytes', () => {
    const grey = pnm(Uint8Array.from([0, 128, 255, 7, 8, 9]), 3, 2, 1);
    assert.equal(grey.subarray(0, 11).toString('ascii'), 'P5\n3 2\n255\n');
    assert.deepEqual([...grey.subarray(11)], [0, 128, 255, 7, 8, 9]);
    // A longer buffer (a view on a larger image's rows) contributes only the image's own bytes.
    const rgb = pnm(Uint8Array.from([1, 2, 3, 4, 5, 6, 99]), 2, 1, 3);
    assert.equal(rgb.subarray(0, 11).toString('ascii'), 'P6\n2 1\n255\n');
    assert.deepEqual([...rgb.subarray(11)], [1, 2, 3, 4, 5, 6]);
    assert.throws(() => pnm(new Uint8Array(5), 3, 2, 1), RangeError);
  });

  const ocr = new MrzOcr({ secondEngine: false });
  after(() => ocr.terminate());

  test('tesseract reads a band given as P5 (plain pass) and as P6 (enhanced pass: sharp sharpens in colour)', async () => {
    const img = await band();
    for (const enhance of [false, true]) {
      const r = await ocr.recognise(img, { enhance });
      const lines = r.text
        .split('\n')
        .map((l) => l.replace(/\s/g, ''))
        .filter(Boolean);
      // The names line and the data line's number and dates come through (DejaVu's O and 0 look alike to the legacy engine).
      assert.match(lines[0] ?? '', /^P<UTOERIKSSON/, `enhance=${enhance}: ${r.text}`);
      assert.match(lines[1] ?? '', /^L898902C36UT[O0]7408122F1204159/, `enhance=${enhance}: ${r.text}`);
      assert.ok(r.lines.length >= 2 && r.lines[0]!.symbols.length > 20, 'glyph boxes come back as before');
    }
  });
});
