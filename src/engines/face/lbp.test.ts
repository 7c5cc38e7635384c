import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { colourChannel, lbpDescriptor, lbpHistogram, uniformBinCount, uniformMapping, LBP_SCALES } from './lbp.js';
import { seededInts } from '../../../test/helpers/random.js';

const sum = (h: Float32Array): number => h.reduce((s, v) => s + v, 0);

function noise(size: number, seed: number): Float32Array {
  const int = seededInts(seed);
  return Float32Array.from({ length: size * size }, () => int(256));
}

describe('uniform LBP', () => {
  test('uniform patterns get a bin each and the rest share the last (59 bins for P=8, 243 for P=16)', () => {
    for (const points of [8, 16]) {
      const m = uniformMapping(points);
      const bins = uniformBinCount(points);
      const used = new Set(m);
      assert.equal(used.size, bins, `P=${points}`);
      assert.equal(Math.max(...used), bins - 1);
    }
    const m = uniformMapping(8);
    assert.equal(uniformBinCount(8), 59);
    assert.notEqual(m[0], 58);
    assert.notEqual(m[0b00011100], 58);
    assert.equal(m[0b01010101], 58, 'eight transitions: not uniform');
    assert.equal(m[0b00100100], 58, 'four transitions: not uniform');
  });

  test('one pixel worked by hand: only the right neighbour is brighter than the centre', () => {
    // 3 × 3, centre 50, right 100, all else 0: the diagonal samples next to the right one interpolate to ≈ 25 < 50.
    const img = Float32Array.from([0, 0, 0, 0, 50, 100, 0, 0, 0]);
    const h = lbpHistogram(img, 3, { points: 8, radius: 1 });
    assert.equal(h[uniformMapping(8)[0b00000001]!], 1);
    // Bits go counter-clockwise from the right: the neighbour above is bit 2, the one below bit 6.
    const above = Float32Array.from([0, 100, 0, 0, 50, 0, 0, 0, 0]);
    assert.equal(lbpHistogram(above, 3, { points: 8, radius: 1 })[uniformMapping(8)[0b00000100]!], 1);
  });

  test('a flat patch is all "all ones" and every histogram sums to 1', () => {
    const flat = new Float32Array(32 * 32).fill(77);
    for (const s of LBP_SCALES) {
      const h = lbpHistogram(flat, 32, s);
      assert.equal(h[uniformMapping(s.points)[(1 << s.points) - 1]!], 1, `P=${s.points} R=${s.radius}`);
      assert.ok(Math.abs(sum(lbpHistogram(noise(32, 7), 32, s)) - 1) < 1e-5);
    }
  });

  test('unchanged by a monotonic (affine) grey-level change, changed by a different image', () => {
    const a = noise(40, 1);
    const brighter = a.map((v) => 3 * v + 7);
    const other = noise(40, 2).map((v, i) => (i % 40 < 20 ? v : (v + a[i]!) / 2));
    for (const s of LBP_SCALES) {
      const [h, g, o] = [lbpHistogram(a, 40, s), lbpHistogram(brighter, 40, s), lbpHistogram(other, 40, s)];
      assert.ok(
        h.every((v, i) => Math.abs(v - g[i]!) < 1e-6),
        `P=${s.points} R=${s.radius}`,
      );
      assert.ok(
        h.some((v, i) => Math.abs(v - o[i]!) > 1e-3),
        `P=${s.points} R=${s.radius}: another image gave the same histogram`,
      );
    }
  });

  test('one-pixel stripes are mostly non-uniform patterns, a smooth ramp has none', () => {
    const size = 32;
    const stripes = Float32Array.from({ length: size * size }, (_, i) => (i % 2 === 0 ? 200 : 20));
    const ramp = Float32Array.from({ length: size * size }, (_, i) => (i % size) * 3 + Math.floor(i / size));
    const s = { points: 8 as const, radius: 1 };
    assert.ok(lbpHistogram(stripes, size, s)[58]! > 0.4);
    assert.equal(lbpHistogram(ramp, size, s)[58], 0);
  });

  test('blur shifts the pattern distribution of a noisy texture (what a reprint does)', () => {
    const size = 48;
    const sharp = noise(size, 3);
    const blurred = new Float32Array(sharp.length);
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++) {
        let s = 0;
        let n = 0;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const [u, v] = [x + dx, y + dy];
            if (u >= 0 && v >= 0 && u < size && v < size) ((s += sharp[v * size + u]!), n++);
          }
        blurred[y * size + x] = s / n;
      }
    const s = { points: 8 as const, radius: 1 };
    const [a, b] = [lbpHistogram(sharp, size, s), lbpHistogram(blurred, size, s)];
    // Blur makes neighbourhoods smoother: fewer non-uniform patterns.
    assert.ok(b[58]! < 0.75 * a[58]!, `blurred ${b[58]} vs sharp ${a[58]}`);
  });
});

describe('colour LBP descriptor', () => {
  test('length is channels × (59 + 59 + 243) and channels come in the asked order', () => {
    const size = 16;
    const rgb = Uint8Array.from({ length: size * size * 3 }, (_, i) => (i * 37) % 251);
    assert.equal(lbpDescriptor(rgb, size, ['grey']).length, 361);
    const d = lbpDescriptor(rgb, size, ['y', 'cb', 'cr']);
    assert.equal(d.length, 3 * 361);
    assert.deepEqual([...d.subarray(0, 361)], [...lbpDescriptor(rgb, size, ['grey'])]);
    assert.deepEqual([...d.subarray(361, 722)], [...lbpDescriptor(rgb, size, ['cb'])]);
  });

  test('a grey image has texture in luma only: Cb, Cr and saturation are flat', () => {
    const size = 24;
    const g = noise(size, 5);
    const rgb = new Uint8Array(size * size * 3);
    g.forEach((v, i) => rgb.fill(v, i * 3, i * 3 + 3));
    const allOnes = uniformMapping(8)[255]!;
    for (const ch of ['cb', 'cr', 's'] as const) {
      const plane = colourChannel(rgb, size * size, ch);
      assert.equal(lbpHistogram(plane, size, { points: 8, radius: 1 })[allOnes], 1, ch);
    }
    assert.ok(lbpHistogram(colourChannel(rgb, size * size, 'y'), size, { points: 8, radius: 1 })[allOnes]! < 0.2);
  });

  test('YCbCr is full-range BT.601 (JPEG): pure red and pure blue', () => {
    const px = Uint8Array.from([255, 0, 0, 0, 0, 255]);
    const near = (a: Float32Array, b: number[]): boolean => b.every((v, i) => Math.abs(a[i]! - v) < 0.05);
    assert.ok(near(colourChannel(px, 2, 'y'), [76.245, 29.07]));
    assert.ok(near(colourChannel(px, 2, 'cb'), [84.97, 255.5]));
    assert.ok(near(colourChannel(px, 2, 'cr'), [255.5, 107.27]));
  });

  test('hue: pure red 0, green 85, blue 170', () => {
    const px = Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255]);
    assert.deepEqual([...colourChannel(px, 3, 'h')].map(Math.round), [0, 85, 170]);
  });
});
