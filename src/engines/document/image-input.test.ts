import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { decodeImage, DocumentInputError } from './image-input.js';
import { parseExif } from './exif.js';

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A valid PNG header that claims `w` x `h` pixels with almost no data: the shape of a decompression bomb. */
function bombPng(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function rejects(input: Buffer, code: string, limits = {}): Promise<void> {
  await assert.rejects(decodeImage(input, limits), (e: unknown) => e instanceof DocumentInputError && e.code === code);
}

describe('decodeImage', () => {
  test('refuses a decompression bomb from its header, before decoding', async () => {
    const bomb = bombPng(60000, 60000);
    assert.ok(bomb.length < 2000);
    await rejects(bomb, 'image_too_many_pixels');
  });
  test('refuses inputs over the byte limit, empty, non-image and truncated inputs', async () => {
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#abc' } })
      .png()
      .toBuffer();
    await rejects(png, 'image_too_large', { maxBytes: 100 });
    await rejects(Buffer.alloc(0), 'empty_input');
    await rejects(Buffer.from('%PDF-1.7 not an image at all'), 'unsupported_format');
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#abc' } })
      .jpeg()
      .toBuffer();
    await rejects(jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'image_corrupt');
    await rejects(
      await sharp({ create: { width: 400, height: 300, channels: 3, background: '#abc' } })
        .gif()
        .toBuffer(),
      'unsupported_format',
    );
    await rejects(
      await sharp({ create: { width: 60, height: 40, channels: 3, background: '#abc' } })
        .png()
        .toBuffer(),
      'image_too_small',
    );
  });
  test('honours EXIF orientation and reads EXIF tags', async () => {
    const jpeg = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#fff' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'Canon', Model: 'EOS 5D', Software: 'GIMP 2.10' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const img = await decodeImage(jpeg);
    assert.deepEqual([img.width, img.height], [300, 600]);
    assert.equal(img.metadata.orientation, 6);
    assert.equal(img.metadata.exif.make, 'Canon');
    assert.equal(img.metadata.exif.software, 'GIMP 2.10');
    assert.equal(img.rgb.length, 300 * 600 * 3);
  });
  test('downscales large images to the working size and reports the scale', async () => {
    const png = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    const img = await decodeImage(png);
    assert.equal(img.width, 2400);
    assert.equal(img.metadata.width, 4000);
    assert.equal(img.scale, 0.6);
  });
  test('accepts WebP and AVIF-coded HEIF', async () => {
    const webp = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#123' } })
      .webp()
      .toBuffer();
    assert.equal((await decodeImage(webp)).metadata.format, 'webp');
    const avif = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#123' } })
      .avif({ effort: 0 })
      .toBuffer();
    assert.equal((await decodeImage(avif)).metadata.format, 'heif');
  });
  test('parseExif tolerates garbage', () => {
    assert.deepEqual(parseExif(Buffer.from('Exif\0\0garbage-garbage')), { hasCameraExposure: false });
    assert.deepEqual(parseExif(undefined), { hasCameraExposure: false });
  });
});
