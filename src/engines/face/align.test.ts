import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { alignedChip, CHIP_SIZE, CHIP_TEMPLATE, fitSimilarity, fivePoints, FIVE_POINT_MESH_INDICES, warpChip } from './align.js';

/** A 468-point mesh whose five alignment points are `points` (x, y pairs); every other point at the centroid. */
function meshWith(points: number[]): Float32Array {
  const mesh = new Float32Array(468 * 2);
  FIVE_POINT_MESH_INDICES.forEach((indices, k) => {
    for (const i of indices) {
      mesh[2 * i] = points[2 * k]!;
      mesh[2 * i + 1] = points[2 * k + 1]!;
    }
  });
  return mesh;
}

describe('face alignment', () => {
  test('the similarity fit recovers a known scale, rotation and shift', () => {
    const angle = 0.3;
    const scale = 1.7;
    const [a, b] = [scale * Math.cos(angle), scale * Math.sin(angle)];
    const src = [10, 20, 60, 22, 35, 50, 15, 80, 55, 78];
    const dst = src.map((_, i) => {
      const x = src[i - (i % 2)]!;
      const y = src[i - (i % 2) + 1]!;
      return i % 2 === 0 ? a * x - b * y + 5 : b * x + a * y - 7;
    });
    const t = fitSimilarity(src, dst)!;
    assert.ok(Math.abs(t.a - a) < 1e-9 && Math.abs(t.b - b) < 1e-9);
    assert.ok(Math.abs(t.tx - 5) < 1e-9 && Math.abs(t.ty + 7) < 1e-9);
    assert.equal(fitSimilarity([1, 1, 1, 1], [0, 0, 5, 5]), null, 'coincident source points have no transform');
  });

  test('five points are read from the mesh; a missing mesh gives none', () => {
    const pts = [100, 120, 160, 118, 130, 150, 108, 180, 152, 182];
    assert.deepEqual(Array.from(fivePoints(meshWith(pts))!), pts);
    assert.equal(fivePoints(new Float32Array(10)), null);
  });

  test('the chip puts each landmark where the template says', () => {
    // An image with a bright dot at each of the five points of a face rotated by 20° and twice chip size.
    const width = 400;
    const height = 400;
    const angle = (20 * Math.PI) / 180;
    const points: number[] = [];
    for (let k = 0; k < 5; k++) {
      const x = (CHIP_TEMPLATE[2 * k]! - 75) * 2;
      const y = (CHIP_TEMPLATE[2 * k + 1]! - 75) * 2;
      points.push(200 + x * Math.cos(angle) - y * Math.sin(angle), 200 + x * Math.sin(angle) + y * Math.cos(angle));
    }
    const rgb = new Uint8Array(width * height * 3);
    for (let k = 0; k < 5; k++) {
      for (let dy = -2; dy <= 2; dy++)
        for (let dx = -2; dx <= 2; dx++) {
          const o = (Math.round(points[2 * k + 1]! + dy) * width + Math.round(points[2 * k]! + dx)) * 3;
          rgb[o] = rgb[o + 1] = rgb[o + 2] = 255;
        }
    }
    const chip = alignedChip(rgb, width, height, meshWith(points))!;
    assert.equal(chip.length, CHIP_SIZE * CHIP_SIZE * 3);
    for (let k = 0; k < 5; k++) {
      const u = Math.floor(CHIP_TEMPLATE[2 * k]!);
      const v = Math.floor(CHIP_TEMPLATE[2 * k + 1]!);
      assert.ok(chip[(v * CHIP_SIZE + u) * 3]! > 100, `landmark ${k} is bright in the chip`);
    }
    // Far from every landmark the chip is dark.
    assert.equal(chip[(5 * CHIP_SIZE + 5) * 3], 0);
  });

  test('outside the image the chip is black', () => {
    const rgb = new Uint8Array(10 * 10 * 3).fill(200);
    const chip = warpChip(rgb, 10, 10, { a: 1, b: 0, tx: 0, ty: 0 });
    assert.ok(chip[(5 * CHIP_SIZE + 5) * 3]! > 190);
    assert.equal(chip[(100 * CHIP_SIZE + 100) * 3], 0);
  });
});
