import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../seeded-random.js';
import { blackhat, close, dilate, erode, type GrayImage } from './image-ops.js';

/** The definition: each pixel the max (min) of its row's (column's) window [i − ⌊k/2⌋, i + ⌊k/2⌋], clipped. */
function reference(img: GrayImage, kw: number, kh: number, isMax: boolean): Uint8Array {
  const pass = (src: Uint8Array, k: number, horizontal: boolean): Uint8Array => {
    if (k <= 1) return src;
    const r = Math.floor(k / 2);
    const out = new Uint8Array(src.length);
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++) {
        let best = isMax ? 0 : 255;
        for (let d = -r; d <= r; d++) {
          const xx = horizontal ? x + d : x;
          const yy = horizontal ? y : y + d;
          if (xx < 0 || yy < 0 || xx >= img.width || yy >= img.height) continue;
          const v = src[yy * img.width + xx]!;
          best = isMax ? Math.max(best, v) : Math.min(best, v);
        }
        out[y * img.width + x] = best;
      }
    return out;
  };
  return pass(pass(img.data, kw, true), kh, false);
}

test('dilate and erode equal the windowed max and min at every size, window and border', () => {
  const rand = seededRandom(9303);
  for (let trial = 0; trial < 60; trial++) {
    const width = 1 + Math.floor(rand() * 40);
    const height = 1 + Math.floor(rand() * 30);
    const data = new Uint8Array(width * height);
    for (let i = 0; i < data.length; i++) data[i] = Math.floor(rand() * 256);
    const img = { data, width, height };
    // Odd and even kernels, wider and taller than the image too.
    const kw = 1 + Math.floor(rand() * 50);
    const kh = 1 + Math.floor(rand() * 40);
    assert.deepEqual(dilate(img, kw, kh).data, reference(img, kw, kh, true), `dilate ${width}x${height} k ${kw}x${kh}`);
    assert.deepEqual(erode(img, kw, kh).data, reference(img, kw, kh, false), `erode ${width}x${height} k ${kw}x${kh}`);
  }
});

test('close and blackhat are built from them (a dark stroke narrower than the kernel lights up)', () => {
  const width = 9;
  const data = new Uint8Array(width * 3).fill(200);
  data[width + 4] = 20; // one dark pixel in the middle row
  const img = { data, width, height: 3 };
  assert.equal(close(img, 3, 3).data[width + 4], 200);
  assert.equal(blackhat(img, 3, 3).data[width + 4], 180);
  assert.equal(blackhat(img, 3, 3).data[0], 0);
});
