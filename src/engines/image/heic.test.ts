import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { decodeHevcHeif, HeicDecodeError } from './heic.js';
import { decodeImage as decodeDocumentImage, DocumentInputError } from '../document/image-input.js';
import { decodeImage as decodeFaceImage, DEFAULT_IMAGE_LIMITS } from '../face/image-input.js';
import { FaceInputError } from '../face/errors.js';
import { readDocument } from '../document/read-document.js';
import { MrzOcr } from '../document/mrz-ocr.js';
import { addRotation, encodeHeic, forgeIspe, hasHeifEnc } from '../../../test/fixtures/documents/heic.js';
import { ocrBAvailable, renderDocument } from '../../../test/fixtures/documents/render.js';
import { ANNA } from '../../../test/fixtures/documents/specimen-mrz.js';

// heif-enc (Debian libheif-examples, installed by .ci/run) is the only HEVC encoder here; in CI its absence fails.
const skip = hasHeifEnc() || process.env.CI ? false : 'heif-enc (Debian libheif-examples) not installed: no HEVC encoder to make a HEIC';

/** Four coloured quadrants: top-left red, top-right green, bottom-left blue, bottom-right white. */
async function quadrants(w: number, h: number): Promise<Buffer> {
  const rgb = Buffer.alloc(w * h * 3);
  const colours = [
    [220, 30, 30],
    [30, 200, 40],
    [30, 40, 220],
    [250, 250, 250],
  ] as const;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = colours[(y < h / 2 ? 0 : 2) + (x < w / 2 ? 0 : 1)]!;
      rgb.set(c, (y * w + x) * 3);
    }
  }
  return sharp(rgb, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toBuffer();
}

function pixel(rgb: Buffer, width: number, x: number, y: number): number[] {
  const i = (y * width + x) * 3;
  return [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
}

function near(actual: number[], expected: readonly number[], tolerance = 30): boolean {
  return actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance);
}

describe('HEVC-coded HEIC (iPhone) decoding', { skip }, () => {
  const ocr = new MrzOcr();
  after(() => ocr.terminate());

  test('a real heif-enc HEIC is HEVC-coded, which sharp alone cannot decode', async () => {
    const heic = encodeHeic(await quadrants(400, 240));
    const meta = await sharp(heic).metadata();
    assert.equal(meta.format, 'heif');
    assert.equal(meta.compression, 'hevc');
    await assert.rejects(sharp(heic).raw().toBuffer());
  });

  test('document engine decodes it: size, format and colours of each quadrant', async () => {
    const img = await decodeDocumentImage(encodeHeic(await quadrants(400, 240)));
    assert.deepEqual([img.width, img.height, img.metadata.format], [400, 240, 'heif']);
    assert.ok(near(pixel(img.rgb, img.width, 50, 50), [220, 30, 30]));
    assert.ok(near(pixel(img.rgb, img.width, 350, 50), [30, 200, 40]));
    assert.ok(near(pixel(img.rgb, img.width, 50, 200), [30, 40, 220]));
    assert.ok(near(pixel(img.rgb, img.width, 350, 200), [250, 250, 250]));
  });

  test('HEIF rotation (irot, as iPhones write it) is applied once: upright size and quadrants', async () => {
    const rotated = addRotation(encodeHeic(await quadrants(400, 240)), 1); // 90° anticlockwise
    const doc = await decodeDocumentImage(rotated);
    assert.deepEqual([doc.width, doc.height], [240, 400]);
    // Anticlockwise: the old top-right (green) is now top-left, the old top-left (red) bottom-left.
    assert.ok(near(pixel(doc.rgb, doc.width, 50, 50), [30, 200, 40]));
    assert.ok(near(pixel(doc.rgb, doc.width, 50, 350), [220, 30, 30]));
    const face = await decodeFaceImage(rotated, DEFAULT_IMAGE_LIMITS);
    assert.deepEqual([face.info.width, face.info.height, face.width, face.height], [240, 400, 240, 400]);
    assert.ok(near(pixel(face.rgb, face.width, 50, 50), [30, 200, 40]));
  });

  test('a pixel bomb header is refused before decoding (document and face: 400 codes, no crash)', async () => {
    const bomb = forgeIspe(encodeHeic(await quadrants(400, 240)), 60000, 60000);
    await assert.rejects(decodeDocumentImage(bomb), (e: unknown) => e instanceof DocumentInputError && e.code === 'image_too_many_pixels');
    await assert.rejects(
      decodeFaceImage(bomb, DEFAULT_IMAGE_LIMITS),
      (e: unknown) => e instanceof FaceInputError && e.reason === 'image_too_many_pixels',
    );
    // The decoder's own guard, on the item header libheif reads, before the pixels are decoded.
    await assert.rejects(
      decodeHevcHeif(encodeHeic(await quadrants(400, 240)), 400 * 240 - 1),
      (e: unknown) => e instanceof HeicDecodeError && e.kind === 'too_many_pixels',
    );
  });

  test('truncated HEVC data is a corrupt-image error, not a crash', async () => {
    const heic = encodeHeic(await quadrants(640, 480));
    const cut = heic.subarray(0, heic.length - Math.floor(heic.length / 3));
    await assert.rejects(
      decodeDocumentImage(cut),
      (e: unknown) => e instanceof DocumentInputError && (e.code === 'image_corrupt' || e.code === 'unsupported_format'),
    );
    await assert.rejects(decodeFaceImage(cut, DEFAULT_IMAGE_LIMITS), (e: unknown) => e instanceof FaceInputError);
  });

  test(
    'readDocument reads the MRZ of a passport sent as HEIC',
    { skip: ocrBAvailable() ? false : 'OCR-B font not installed' },
    async () => {
      const heic = encodeHeic(await renderDocument({ kind: 'td3', person: ANNA }), 85);
      const r = await readDocument(heic, { ocr, now: new Date('2026-01-01T00:00:00Z'), acceptSpecimens: true, compareVisualZone: false });
      assert.equal(r.image.format, 'heif');
      assert.equal(r.mrz?.valid, true);
      assert.equal(r.fields?.documentNumber, ANNA.documentNumber);
      assert.equal(r.fields?.surname, ANNA.surname);
    },
  );
});
