import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { GrayImage } from './image-ops.js';
import { classifyLookalike, glyphFeatures, type Lookalike } from './mrz-glyph.js';
import { drawGlyph, SHAPES } from '../../../test/helpers/glyphs.js';

function cell(letter: Lookalike, h: number, thick: number): GrayImage {
  const w = Math.round(h * 0.75);
  const img = { data: new Uint8Array(w * h).fill(235), width: w, height: h };
  drawGlyph(img, SHAPES[letter], { x: w * 0.12, y: h * 0.1, w: w * 0.76, h: h * 0.8 }, thick);
  return img;
}

describe('OCR-B look-alike shape test (issue #19 names)', () => {
  for (const letter of ['H', 'M', 'N', 'W'] as const)
    // OCR-B strokes are bold: about a sixth of the glyph's height, as on the real captures.
    test(`${letter} is told from the other three at 24, 36 and 48 px`, () => {
      for (const [h, thick] of [
        [24, 4],
        [36, 6],
        [48, 8],
      ] as const) {
        const f = glyphFeatures(cell(letter, h, thick));
        assert.ok(f, `${letter} ${h}px`);
        assert.equal(classifyLookalike(f), letter, `${letter} ${h}px ${JSON.stringify(f)}`);
      }
    });
  test('a blob, a glyph of another shape or a cell too small to judge gets no answer', () => {
    const blob = { data: new Uint8Array(20 * 28).fill(235), width: 20, height: 28 };
    for (let y = 4; y < 24; y++) for (let x = 3; x < 17; x++) blob.data[y * 20 + x] = 20;
    const f = glyphFeatures(blob);
    assert.ok(f);
    assert.equal(classifyLookalike(f), null);
    // X: ink top and bottom on both sides.
    const x = { data: new Uint8Array(24 * 32).fill(235), width: 24, height: 32 };
    drawGlyph(
      x,
      [
        [0, 0, 1, 1],
        [1, 0, 0, 1],
      ],
      { x: 3, y: 3, w: 18, h: 26 },
      5,
    );
    const fx = glyphFeatures(x);
    assert.ok(fx);
    assert.equal(classifyLookalike(fx), null);
    assert.equal(glyphFeatures(cell('M', 7, 1)), null);
  });
  test("a neighbour's edge inside the margin is not counted as the glyph's ink", () => {
    const img = cell('H', 30, 3);
    // A stroke of the next glyph at the right margin, outside the box.
    for (let y = 3; y < 27; y++) img.data[y * img.width + img.width - 1] = 20;
    const f = glyphFeatures(img, { x0: 1, y0: 0, x1: img.width - 3, y1: img.height });
    assert.ok(f);
    assert.equal(classifyLookalike(f), 'H');
  });
});
