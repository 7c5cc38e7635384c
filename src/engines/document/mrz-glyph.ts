import { otsuThreshold, type GrayImage } from './image-ops.js';

/**
 * Shape test for the OCR-B look-alikes H, M, N and W in MRZ names (issue #19). Both OCR engines read a
 * small or soft OCR-B M as H or N (the legacy tesseract engine almost always), and no check digit protects
 * a name. The four letters share two vertical stems and differ only in what lies between them:
 *   H: a crossbar at mid height, nothing above or below it;
 *   M: two diagonals from the stem tops meeting in the middle: ink in the upper half, on both sides;
 *   N: one diagonal from top left to bottom right: ink high on the left, low on the right;
 *   W: the mirror of M: ink in the lower half, on both sides.
 * The test binarises the glyph cell (from a tesseract glyph box), keeps the glyph's own ink, and measures
 * the ink between the stems in a 2 × 3 grid (left/right of the centre × top/middle/bottom third). It
 * answers a letter only when one shape is clearly nearer than the others, and abstains otherwise.
 */

export type Lookalike = 'H' | 'M' | 'N' | 'W';
export const LOOKALIKE_LETTERS: readonly Lookalike[] = ['H', 'M', 'N', 'W'];

/** Ink share of the inner region (between the stems) per cell: [top, middle, bottom] × [left, right]. */
export interface GlyphFeatures {
  topL: number;
  topR: number;
  midL: number;
  midR: number;
  botL: number;
  botR: number;
  /** Width / height of the glyph's ink box. */
  aspect: number;
}

/**
 * The glyph's features, or null when the cell holds too little ink or too few pixels to judge (a glyph
 * under 8 px high is not examined: the inner strokes merge).
 * `box` is the glyph box inside `cell` (the cell may carry a margin with parts of the neighbours).
 */
export function glyphFeatures(cell: GrayImage, box?: { x0: number; y0: number; x1: number; y1: number }): GlyphFeatures | null {
  const { width: w, height: h, data } = cell;
  if (w < 4 || h < 8) return null;
  const thr = otsuThreshold(data);
  const ink = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) ink[i] = (data[i] ?? 255) <= thr ? 1 : 0;
  // The glyph's own ink: connected components whose centre lies inside the box (neighbours' edges are not).
  const b = box ?? { x0: 0, y0: 0, x1: w, y1: h };
  const label = new Int32Array(w * h).fill(-1);
  let gx0 = w;
  let gy0 = h;
  let gx1 = -1;
  let gy1 = -1;
  const keep = new Uint8Array(w * h);
  let n = 0;
  const stack: number[] = [];
  for (let start = 0; start < w * h; start++) {
    if (!ink[start] || label[start] !== -1) continue;
    const members: number[] = [];
    label[start] = n;
    stack.push(start);
    let sx = 0;
    let sy = 0;
    while (stack.length) {
      const p = stack.pop() as number;
      members.push(p);
      const x = p % w;
      const y = (p - x) / w;
      sx += x;
      sy += y;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          if (ink[q] && label[q] === -1) {
            label[q] = n;
            stack.push(q);
          }
        }
    }
    n++;
    const cx = sx / members.length;
    const cy = sy / members.length;
    if (cx < b.x0 || cx >= b.x1 || cy < b.y0 || cy >= b.y1 || members.length < 3) continue;
    for (const p of members) {
      keep[p] = 1;
      const x = p % w;
      const y = (p - x) / w;
      gx0 = Math.min(gx0, x);
      gx1 = Math.max(gx1, x);
      gy0 = Math.min(gy0, y);
      gy1 = Math.max(gy1, y);
    }
  }
  const gw = gx1 - gx0 + 1;
  const gh = gy1 - gy0 + 1;
  if (gx1 < 0 || gh < 8 || gw < 4) return null;
  // Inner region: between the stems, taken as the middle 40 % of the ink box's width.
  const u0 = gx0 + gw * 0.3;
  const u1 = gx0 + gw * 0.7;
  const um = gx0 + gw * 0.5;
  const sums = [0, 0, 0, 0, 0, 0];
  const counts = [0, 0, 0, 0, 0, 0];
  for (let y = gy0; y <= gy1; y++) {
    const v = (y - gy0 + 0.5) / gh;
    const row = v < 1 / 3 ? 0 : v < 2 / 3 ? 1 : 2;
    for (let x = Math.floor(u0); x < Math.ceil(u1); x++) {
      const cxp = x + 0.5;
      if (cxp < u0 || cxp > u1) continue;
      const col = cxp < um ? 0 : 1;
      const k = row * 2 + col;
      counts[k] = (counts[k] ?? 0) + 1;
      sums[k] = (sums[k] ?? 0) + (keep[y * w + x] ?? 0);
    }
  }
  const f = sums.map((s, k) => s / Math.max(1, counts[k] ?? 0));
  return {
    topL: f[0] ?? 0,
    topR: f[1] ?? 0,
    midL: f[2] ?? 0,
    midR: f[3] ?? 0,
    botL: f[4] ?? 0,
    botR: f[5] ?? 0,
    aspect: gw / gh,
  };
}

/**
 * The look-alike the glyph's shape says, or null (abstain). Each letter has a shape rule over the inner ink
 * (see the file comment); a letter is answered only when exactly one rule holds. The rule limits sit between
 * the letters' typical inner ink shares, measured on tesseract glyph boxes of the even half of set B and set A
 * (bench/document-mrz-real.ts; 421 H/M/N/W glyphs): top third both sides M 0.53, H 0.05, N left 0.52 right
 * 0.03; bottom third right N 0.41, M/H 0.02-0.03; bottom both W 0.72.
 */
export function classifyLookalike(f: GlyphFeatures): Lookalike | null {
  const lo = LOOKALIKE_LIMITS.absent;
  const hi = LOOKALIKE_LIMITS.present;
  const top = (l: boolean, r: boolean): boolean => (l ? f.topL >= hi : f.topL <= lo) && (r ? f.topR >= hi : f.topR <= lo);
  const bot = (l: boolean, r: boolean): boolean => (l ? f.botL >= hi : f.botL <= lo) && (r ? f.botR >= hi : f.botR <= lo);
  const mid = f.midL >= hi && f.midR >= hi;
  const hits: Lookalike[] = [];
  // A bold M's vertex reaches into the bottom third on one side: for M and H the bottom's mean is what counts.
  const bottomEmpty = (f.botL + f.botR) / 2 <= lo;
  if (top(false, false) && bottomEmpty && mid) hits.push('H');
  if (top(true, true) && bottomEmpty) hits.push('M');
  if (top(true, false) && bot(false, true)) hits.push('N');
  if (top(false, false) && bot(true, true)) hits.push('W');
  return hits.length === 1 ? (hits[0] as Lookalike) : null;
}

/** Inner ink share at or under which a part is empty, and at or over which it holds a stroke. */
export const LOOKALIKE_LIMITS = { absent: 0.2, present: 0.25 };
