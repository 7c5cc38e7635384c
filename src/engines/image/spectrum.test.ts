import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spectralMeasures, spectralPeakRatio } from './spectrum.js';
import { seeded } from '../../../test/helpers/random.js';

function noise(seed: number, n: number): Float32Array {
  const rnd = seeded(seed);
  return Float32Array.from({ length: n }, () => rnd() * 255);
}

test('spectralPeakRatio equals the face engine measure (noise, and noise plus a rotated grating)', () => {
  const size = 256;
  const plain = noise(7, size * size);
  const grating = plain.map((v, i) => v + 60 * Math.sin(0.9 * (i % size) + 0.31 * Math.floor(i / size)));
  for (const img of [plain, grating]) assert.equal(spectralPeakRatio(img, size), spectralMeasures(img, size).peakRatio);
  assert.ok(spectralPeakRatio(grating, size) > 20 * spectralPeakRatio(plain, size));
});

test('skipLattice ignores an axis-aligned 16 px block pattern (JPEG) but not a rotated moiré grating', () => {
  const size = 256;
  const base = noise(11, size * size);
  const blocks = base.map((v, i) => v + ((i % size) % 16 === 0 || Math.floor(i / size) % 16 === 0 ? 50 : 0));
  const plain = spectralPeakRatio(base, size);
  assert.ok(spectralPeakRatio(blocks, size) > 2 * plain, 'the block grid stands out without skipping');
  assert.ok(spectralPeakRatio(blocks, size, { skipLattice: 16 }) < 1.2 * plain, 'and is gone with it');
  const moire = base.map((v, i) => v + 60 * Math.sin(0.9 * (i % size) + 0.31 * Math.floor(i / size)));
  assert.ok(spectralPeakRatio(moire, size, { skipLattice: 16 }) > 0.9 * spectralPeakRatio(moire, size));
});
