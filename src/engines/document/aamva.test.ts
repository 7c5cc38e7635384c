import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { aamvaDate, parseAamva, readPdf417, AamvaFormatError } from './aamva.js';
import { AAMVA_SAMPLE, renderPdf417 } from '../../../test/fixtures/documents/pdf417.js';

async function rgbOf(png: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

describe('AAMVA PDF417', () => {
  test('parses the elements of an AAMVA payload', () => {
    const f = parseAamva(AAMVA_SAMPLE);
    assert.equal(f.documentType, 'driving_licence');
    assert.equal(f.issuerIdentificationNumber, '636000');
    assert.equal(f.aamvaVersion, 8);
    assert.equal(f.documentNumber, 'T64235789');
    assert.equal(f.surname, 'SAMPLE');
    assert.equal(f.givenNames, 'MICHAEL JOHN');
    assert.equal(f.birthDate, '1986-06-06');
    assert.equal(f.expiryDate, '2034-12-10');
    assert.equal(f.sex, 'M');
    assert.equal(f.jurisdiction, 'VA');
    assert.equal(f.country, 'USA');
    assert.equal(f.address?.city, 'RICHMOND');
  });
  test('rejects text without an AAMVA header', () => {
    assert.throws(() => parseAamva('hello'), AamvaFormatError);
  });
  test('dates: US MMDDCCYY, Canadian CCYYMMDD', () => {
    assert.equal(aamvaDate('06061986', 'USA'), '1986-06-06');
    assert.equal(aamvaDate('19860606', 'CAN'), '1986-06-06');
    assert.equal(aamvaDate('13451986', 'USA'), null);
  });
  test('decodes a generated PDF417 symbol and recovers the payload', async () => {
    const img = await rgbOf(await renderPdf417(AAMVA_SAMPLE));
    const texts = await readPdf417(img.data, img.width, img.height);
    assert.equal(texts.length, 1);
    assert.equal(parseAamva(texts[0] ?? '').documentNumber, 'T64235789');
  });
  test('decodes a rotated symbol', async () => {
    const img = await rgbOf(await renderPdf417(AAMVA_SAMPLE, { rotateDeg: 90 }));
    const texts = await readPdf417(img.data, img.width, img.height);
    assert.equal(parseAamva(texts[0] ?? '').surname, 'SAMPLE');
  });
  test('finds nothing in an image without a barcode', async () => {
    const blank = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } })
      .raw()
      .toBuffer();
    assert.deepEqual(await readPdf417(blank, 300, 200), []);
  });
});
