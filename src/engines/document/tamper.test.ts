import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { assessTamper, mrzGlyphHeightDeviation } from './tamper.js';
import type { ImageMetadata } from './image-input.js';
import type { OcrLine } from './mrz-ocr.js';

const META: ImageMetadata = {
  format: 'jpeg',
  width: 3024,
  height: 4032,
  orientation: 1,
  exif: { make: 'Apple', model: 'iPhone 13', hasCameraExposure: true },
  hasExif: true,
  xmpTools: [],
  hasIccProfile: true,
  chromaSubsampling: '4:2:0',
  bytes: 2_000_000,
};

function line(heights: number[]): OcrLine {
  return {
    text: 'X'.repeat(heights.length),
    confidence: 90,
    symbols: heights.map((h, i) => ({ text: 'A', confidence: 90, x0: i * 20, x1: i * 20 + 14, y0: 10, y1: 10 + h })),
  };
}

describe('tamper signals', () => {
  test('a camera photo with no editor is clean', () => {
    const r = assessTamper(META, [line(Array(30).fill(30))], 20);
    assert.equal(r.editingSoftware, null);
    assert.equal(r.screenshot, false);
    assert.equal(r.mrzPrintInconsistent, false);
  });
  test('editing software in EXIF or XMP is named', () => {
    assert.equal(
      assessTamper({ ...META, exif: { ...META.exif, software: 'Adobe Photoshop 24.1' } }, null, null).editingSoftware,
      'Adobe Photoshop 24.1',
    );
    assert.equal(assessTamper({ ...META, xmpTools: ['GIMP 2.10'] }, null, null).editingSoftware, 'GIMP 2.10');
    assert.equal(assessTamper({ ...META, exif: { ...META.exif, software: 'iOS 17.1' } }, null, null).editingSoftware, null);
  });
  test('screen-sized image without camera EXIF is a screenshot hint', () => {
    const shot = { ...META, format: 'png', width: 1170, height: 2532, exif: { hasCameraExposure: false }, hasExif: false };
    assert.equal(assessTamper(shot, null, null).screenshot, true);
    assert.equal(assessTamper({ ...shot, width: 1171 }, null, null).screenshot, false);
  });
  test('one glyph taller than the rest breaks print consistency; segmentation errors are ignored', () => {
    assert.equal(mrzGlyphHeightDeviation([line([...Array(29).fill(30), 36])]), 0.2);
    assert.equal(mrzGlyphHeightDeviation([line([...Array(29).fill(30), 60])]), 0);
    assert.equal(mrzGlyphHeightDeviation([line([30, 30])]), null);
    assert.equal(assessTamper(META, [line([...Array(29).fill(30), 36])], 20).mrzPrintInconsistent, true);
    assert.equal(assessTamper(META, [line([...Array(29).fill(30), 36])], 8).mrzPrintInconsistent, null, 'too small to judge');
  });
});
