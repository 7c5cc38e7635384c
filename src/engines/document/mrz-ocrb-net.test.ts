import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { OCRB_FONT } from './mrz-grid.js';
import { OCRB_NET, ocrbInput } from './mrz-ocrb-net.js';
import { PpOcrRecogniser } from './mrz-ppocr.js';

// The ICAO 9303 specimen (fictitious Utopia passport), as printed in Part 4.
const LINES = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];

async function render(text: string, options: { fontPx: number; blur?: number; scaleX?: number }) {
  const { fontPx } = options;
  const esc = text.replace(/</g, '&lt;');
  const width = Math.ceil(text.length * fontPx * 0.78 + fontPx);
  const height = Math.ceil(fontPx * 1.5);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/><text x="${fontPx / 2}" y="${(fontPx * 1.1).toFixed(1)}" font-family="OCR B" font-size="${fontPx}" fill="black">${esc}</text></svg>`;
  let img = sharp(Buffer.from(svg)).grayscale();
  if (options.blur) img = img.blur(options.blur);
  const png = await img.png().toBuffer();
  let out = sharp(png).grayscale();
  if (options.scaleX) out = out.resize(Math.round(width * options.scaleX), height, { fit: 'fill' });
  const { data, info } = await out.raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

describe('OCR-B line network (issue #19 item 2)', () => {
  test('the model ships in the repository; its input is the line at 32 px high in [-1, 1], cut to its ink', async () => {
    assert.ok(existsSync(OCRB_NET.file()), OCRB_NET.file());
    assert.equal(OCRB_NET.classes().length, 37);
    // 400 × 20 px, ink in columns 150–249: at 32 px high that is columns 240–399, kept with 16 px each side.
    const line = { data: new Uint8Array(400 * 20).map((_, i) => (i % 400 >= 150 && i % 400 < 250 ? 30 : 220)), width: 400, height: 20 };
    const { data, dims } = await ocrbInput(line);
    assert.equal(dims.length, 4);
    assert.deepEqual(dims.slice(0, 3), [1, 1, 32]);
    const w = dims[3] ?? 0;
    assert.ok(w >= 190 && w <= 194, `width ${w}`);
    assert.equal(Math.min(...data), -1);
    assert.equal(Math.max(...data), 1);
    // A line without ink is passed whole.
    const blank = await ocrbInput({ data: new Uint8Array(400 * 20).fill(200), width: 400, height: 20 });
    assert.deepEqual(blank.dims, [1, 1, 32, 640]);
  });

  const font = existsSync(OCRB_FONT);
  test(
    'reads rendered OCR-B MRZ lines exactly: sharp, blurred, and condensed',
    { skip: font ? false : 'fonts-ocr-b not installed' },
    async () => {
      const net = new PpOcrRecogniser(OCRB_NET);
      try {
        for (const text of LINES)
          for (const opts of [{ fontPx: 40 }, { fontPx: 30, blur: 1.2 }, { fontPx: 48, scaleX: 0.8 }]) {
            const read = await net.recogniseLine(await render(text, opts));
            assert.equal(read.text, text, JSON.stringify(opts));
            assert.ok(read.chars.every((c) => c.p > 0.5));
          }
      } finally {
        await net.terminate();
      }
    },
  );
});
