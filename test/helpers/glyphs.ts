/** Drawn OCR-B-like look-alike glyphs for the document engine's shape-test tests (issue #19). */
import type { GrayImage } from '../../src/engines/document/image-ops.js';
import type { Lookalike } from '../../src/engines/document/mrz-glyph.js';

type Stroke = [number, number, number, number];

/** Strokes of OCR-B-like H, M, N, W in a unit box (x right, y down). */
export const SHAPES: Record<Lookalike, Stroke[]> = {
  H: [
    [0.1, 0, 0.1, 1],
    [0.9, 0, 0.9, 1],
    [0.1, 0.5, 0.9, 0.5],
  ],
  M: [
    [0.1, 0, 0.1, 1],
    [0.9, 0, 0.9, 1],
    [0.1, 0, 0.5, 0.55],
    [0.9, 0, 0.5, 0.55],
  ],
  N: [
    [0.1, 0, 0.1, 1],
    [0.9, 0, 0.9, 1],
    [0.1, 0, 0.9, 1],
  ],
  W: [
    [0.1, 0, 0.1, 1],
    [0.9, 0, 0.9, 1],
    [0.1, 1, 0.5, 0.45],
    [0.9, 1, 0.5, 0.45],
  ],
};

/** Draws strokes (thickness in px) into a white canvas, in the box (x0, y0, w, h). */
export function drawGlyph(canvas: GrayImage, strokes: Stroke[], box: { x: number; y: number; w: number; h: number }, thick: number): void {
  for (const [ax, ay, bx, by] of strokes) {
    const x0 = box.x + ax * box.w;
    const y0 = box.y + ay * box.h;
    const x1 = box.x + bx * box.w;
    const y1 = box.y + by * box.h;
    const steps = Math.ceil(Math.hypot(x1 - x0, y1 - y0) * 2) + 1;
    for (let s = 0; s <= steps; s++) {
      const cx = x0 + ((x1 - x0) * s) / steps;
      const cy = y0 + ((y1 - y0) * s) / steps;
      for (let y = Math.floor(cy - thick / 2); y <= Math.ceil(cy + thick / 2); y++)
        for (let x = Math.floor(cx - thick / 2); x <= Math.ceil(cx + thick / 2); x++) {
          if (x < 0 || y < 0 || x >= canvas.width || y >= canvas.height) continue;
          if (Math.hypot(x - cx, y - cy) <= thick / 2) canvas.data[y * canvas.width + x] = 20;
        }
    }
  }
}
