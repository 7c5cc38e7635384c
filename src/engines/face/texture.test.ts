import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { laplacianVariance } from './texture.js';
import { fft1d } from '../image/fft.js';
import { spectralMeasures } from '../image/spectrum.js';
import { seededInts } from '../../../test/helpers/random.js';

const SIZE = 256;

// Deterministic smooth "natural-like" texture: a sum of a few low-frequency blobs, no periodic grid.
function smoothImage(): Float32Array {
  const img = new Float32Array(SIZE * SIZE);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const d1 = Math.hypot(x - 90, y - 110) / 60;
      const d2 = Math.hypot(x - 170, y - 150) / 45;
      img[y * SIZE + x] = 120 + 60 * Math.exp(-d1 * d1) - 40 * Math.exp(-d2 * d2) + ((x * 7 + y * 13) % 5);
    }
  }
  return img;
}

describe('texture measures', () => {
  test('fft1d matches a direct DFT', () => {
    const n = 16;
    const re = Float64Array.from({ length: n }, (_, i) => Math.sin(i) + (i % 3));
    const im = new Float64Array(n);
    const [xr, xi] = [Float64Array.from(re), Float64Array.from(im)];
    fft1d(re, im);
    for (let k = 0; k < n; k++) {
      let sr = 0;
      let si = 0;
      for (let t = 0; t < n; t++) {
        sr += xr[t]! * Math.cos((-2 * Math.PI * k * t) / n) - xi[t]! * Math.sin((-2 * Math.PI * k * t) / n);
        si += xr[t]! * Math.sin((-2 * Math.PI * k * t) / n) + xi[t]! * Math.cos((-2 * Math.PI * k * t) / n);
      }
      assert.ok(Math.abs(sr - re[k]!) < 1e-9 && Math.abs(si - im[k]!) < 1e-9, `bin ${k}`);
    }
  });

  test('a screen-like periodic grid raises the moiré peak ratio far above a smooth image', () => {
    const smooth = smoothImage();
    const grid = smooth.map((v, i) => v + 25 * Math.sin((2 * Math.PI * (i % SIZE)) / 5.3 + (2 * Math.PI * Math.floor(i / SIZE)) / 7.1));
    const a = spectralMeasures(smooth, SIZE);
    const b = spectralMeasures(grid, SIZE);
    assert.ok(b.peakRatio > 10 * a.peakRatio, `grid ${b.peakRatio} vs smooth ${a.peakRatio}`);
    assert.ok(b.highShare > a.highShare);
  });

  test('blurring lowers the Laplacian variance', () => {
    const int = seededInts(12345);
    const noise = (): number => int(64);
    const sharp = smoothImage().map((v) => v + noise());
    const blurred = new Float32Array(sharp.length);
    for (let y = 1; y < SIZE - 1; y++) {
      for (let x = 1; x < SIZE - 1; x++) {
        let s = 0;
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) s += sharp[(y + dy) * SIZE + x + dx]!;
        blurred[y * SIZE + x] = s / 9;
      }
    }
    const [b, s] = [laplacianVariance(blurred, SIZE), laplacianVariance(sharp, SIZE)];
    assert.ok(b < s / 4, `blurred ${b} vs sharp ${s}`);
  });
});
