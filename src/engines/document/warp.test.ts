import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../seeded-random.js';
import { applyHomography, homographyFromPoints, warpPerspective, type Homography } from './warp.js';

/** A grey image and the same pixels in three channels (the general loop's input). */
function images(width: number, height: number, seed: number) {
  const rnd = seededRandom(seed);
  const grey = new Uint8Array(width * height);
  // Smooth ramps plus noise: fractions of every kind at the sampled points.
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) grey[y * width + x] = Math.min(255, Math.floor(((x * 7 + y * 3) % 200) + rnd() * 56));
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < grey.length; i++) rgb.fill(grey[i]!, i * 3, i * 3 + 3);
  return { grey: { data: grey, width, height, channels: 1 }, rgb: { data: rgb, width, height, channels: 3 } };
}

function channel0(rgb: Uint8Array): Uint8Array {
  const out = new Uint8Array(rgb.length / 3);
  for (let i = 0; i < out.length; i++) out[i] = rgb[i * 3]!;
  return out;
}

test('the one-channel warp gives the general loop bytes, bit for bit (band cuts, perspective, fill, into, w = 0)', () => {
  const rnd = seededRandom(42);
  const { grey, rgb } = images(157, 93, 7);
  const cases: { h: Homography; w: number; h2: number; fill?: number[]; into?: boolean }[] = [];
  // Band cuts as locate.ts makes them: rotation and scale, affine, partly outside the image.
  for (let i = 0; i < 40; i++) {
    const a = (rnd() - 0.5) * 0.6 + (i % 2 ? Math.PI : 0);
    const s = 0.4 + rnd() * 2.5;
    const c = Math.cos(a) / s;
    const sn = Math.sin(a) / s;
    cases.push({ h: [c, -sn, rnd() * 180 - 10, sn, c, rnd() * 110 - 10, 0, 0, 1], w: 120 + i, h2: 30 + (i % 7), fill: [255] });
  }
  // Perspective (documents, layout) from four random corners, with and without a fill, into a given buffer.
  for (let i = 0; i < 40; i++) {
    const corners = [0, 1, 2, 3].map((k) => ({ x: (k % 3 ? 150 : 5) + (rnd() - 0.5) * 40, y: (k < 2 ? 5 : 88) + (rnd() - 0.5) * 30 }));
    const dst = [
      { x: 0, y: 0 },
      { x: 99, y: 0 },
      { x: 99, y: 69 },
      { x: 0, y: 69 },
    ];
    cases.push({ h: homographyFromPoints(dst, corners), w: 100, h2: 70, ...(i % 3 === 0 ? {} : { fill: [i % 256] }), into: i % 4 === 1 });
  }
  // Homographies whose w is 0 on a column of the output (x = 32): 0 / 0 there where the numerator vanishes too (NaN
  // coordinates), infinite elsewhere; with a fill, an empty fill and none.
  for (const fill of [[9], [], undefined]) cases.push({ h: [1, 0, -32, 0, 1, 0, 0.125, 0, -4], w: 90, h2: 20, ...(fill ? { fill } : {}) });
  for (const [i, k] of cases.entries()) {
    const base = k.into ? new Uint8Array(k.w * k.h2).fill(77) : undefined;
    const baseRgb = k.into ? new Uint8Array(k.w * k.h2 * 3).fill(77) : undefined;
    const fast = warpPerspective(grey, k.h, k.w, k.h2, { ...(k.fill ? { fill: k.fill } : {}), ...(base ? { into: base } : {}) });
    const general = warpPerspective(rgb, k.h, k.w, k.h2, {
      ...(k.fill ? { fill: k.fill.length ? [k.fill[0]!, k.fill[0]!, k.fill[0]!] : [] } : {}),
      ...(baseRgb ? { into: baseRgb } : {}),
    });
    assert.deepEqual(fast, channel0(general), `case ${i}`);
  }
  // The warp samples where the homography says: a pixel of a pure translation is the source pixel.
  const shifted = warpPerspective(grey, [1, 0, 3, 0, 1, 2, 0, 0, 1], 10, 10);
  const p = applyHomography([1, 0, 3, 0, 1, 2, 0, 0, 1], { x: 4, y: 5 });
  assert.equal(shifted[5 * 10 + 4], grey.data[p.y * grey.width + p.x]);
});
