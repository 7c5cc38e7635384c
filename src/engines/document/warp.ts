/** Planar homographies and perspective warping on raw interleaved pixels (no native dependency needed). */

export interface Point {
  x: number;
  y: number;
}
export interface RawImage {
  data: Uint8Array | Uint8ClampedArray | Buffer;
  width: number;
  height: number;
  channels: number;
}
/** Row-major 3x3 matrix with h[8] normalised to 1. */
export type Homography = [number, number, number, number, number, number, number, number, number];

/** Homography mapping each `from[i]` onto `to[i]` (four point pairs, direct linear transform). */
export function homographyFromPoints(from: readonly Point[], to: readonly Point[]): Homography {
  if (from.length !== 4 || to.length !== 4) throw new Error('homography needs exactly four point pairs');
  const a: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i] as Point;
    const { x: u, y: v } = to[i] as Point;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  const h = solve(a, b);
  return [h[0] ?? 0, h[1] ?? 0, h[2] ?? 0, h[3] ?? 0, h[4] ?? 0, h[5] ?? 0, h[6] ?? 0, h[7] ?? 0, 1];
}

export function applyHomography(h: Homography, p: Point): Point {
  const w = h[6] * p.x + h[7] * p.y + h[8];
  return { x: (h[0] * p.x + h[1] * p.y + h[2]) / w, y: (h[3] * p.x + h[4] * p.y + h[5]) / w };
}

/** Gaussian elimination with partial pivoting; the 8x8 systems here are small and well conditioned. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] ?? 0]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]?.[col] ?? 0) > Math.abs(m[pivot]?.[col] ?? 0)) pivot = r;
    const tmp = m[col] as number[];
    m[col] = m[pivot] as number[];
    m[pivot] = tmp;
    const pr = m[col] as number[];
    const pv = pr[col] ?? 0;
    if (Math.abs(pv) < 1e-12) throw new Error('degenerate point configuration');
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const row = m[r] as number[];
      const f = (row[col] ?? 0) / pv;
      if (f === 0) continue;
      for (let c = col; c <= n; c++) row[c] = (row[c] ?? 0) - f * (pr[c] ?? 0);
    }
  }
  return m.map((row, i) => (row[n] ?? 0) / (row[i] ?? 1));
}

/**
 * Warps `src` into a `width` x `height` image where each output pixel p takes the source colour at
 * `dstToSrc(p)` (bilinear). Pixels that fall outside the source keep `fill` (or stay untouched in `into`).
 */
export function warpPerspective(
  src: RawImage,
  dstToSrc: Homography,
  width: number,
  height: number,
  options: { fill?: number[]; into?: Uint8Array } = {},
): Uint8Array {
  const ch = src.channels;
  if (ch === 1) return warpGray(src, dstToSrc, width, height, options);
  const out = options.into ?? new Uint8Array(width * height * ch);
  const fill = options.fill;
  const sw = src.width;
  const sh = src.height;
  const s = src.data;
  const h = dstToSrc;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const w = h[6] * x + h[7] * y + h[8];
      const sx = (h[0] * x + h[1] * y + h[2]) / w;
      const sy = (h[3] * x + h[4] * y + h[5]) / w;
      const o = (y * width + x) * ch;
      if (sx < 0 || sy < 0 || sx > sw - 1 || sy > sh - 1) {
        if (fill && !options.into) for (let c = 0; c < ch; c++) out[o + c] = fill[c] ?? 0;
        continue;
      }
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const x1 = Math.min(x0 + 1, sw - 1);
      const y1 = Math.min(y0 + 1, sh - 1);
      const fx = sx - x0;
      const fy = sy - y0;
      const i00 = (y0 * sw + x0) * ch;
      const i01 = (y0 * sw + x1) * ch;
      const i10 = (y1 * sw + x0) * ch;
      const i11 = (y1 * sw + x1) * ch;
      for (let c = 0; c < ch; c++) {
        const top = (s[i00 + c] ?? 0) * (1 - fx) + (s[i01 + c] ?? 0) * fx;
        const bot = (s[i10 + c] ?? 0) * (1 - fx) + (s[i11 + c] ?? 0) * fx;
        out[o + c] = Math.round(top * (1 - fy) + bot * fy);
      }
    }
  }
  return out;
}

/**
 * `warpPerspective` for one channel (the MRZ band cut at every reading pass, the band checks): the same arithmetic in
 * the same order, so the same bytes, written for speed. The terms of `y` are taken out of the row loop without
 * changing the order of the additions (`a * x + b * y + c` is `(a * x + b * y) + c` either way); an affine warp
 * (every band cut) needs no division; the source is read in bounds only (the range test comes first), so no read is
 * guarded; a NaN coordinate (w = 0) gives 0 as there; `Math.floor` of a coordinate ≥ 0 is its truncation.
 * 35 → 12 ns a pixel (2026-11-30); `warp.test.ts` compares it with the general loop.
 */
function warpGray(
  src: RawImage,
  h: Homography,
  width: number,
  height: number,
  options: { fill?: number[]; into?: Uint8Array },
): Uint8Array {
  const out = options.into ?? new Uint8Array(width * height);
  const fill = options.into ? undefined : options.fill?.[0];
  const sw = src.width;
  const sh = src.height;
  const maxX = sw - 1;
  const maxY = sh - 1;
  const s = src.data;
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = h;
  const affine = h6 === 0 && h7 === 0 && h8 === 1;
  for (let y = 0; y < height; y++) {
    const wy = h7 * y;
    const xy = h1 * y;
    const yy = h4 * y;
    let o = y * width;
    for (let x = 0; x < width; x++, o++) {
      let sx = h0 * x + xy + h2;
      let sy = h3 * x + yy + h5;
      if (!affine) {
        // Affine, w is exactly 1 (0 · x + 0 + 1), and a division by 1 changes no bit: skipped there.
        const w = h6 * x + wy + h8;
        sx /= w;
        sy /= w;
      }
      if (sx < 0 || sy < 0 || sx > maxX || sy > maxY) {
        if (fill !== undefined) out[o] = fill;
        continue;
      }
      if (Number.isNaN(sx) || Number.isNaN(sy)) {
        out[o] = 0; // NaN (w = 0): the general loop's reads come back undefined, its sum NaN, stored as 0
        continue;
      }
      const x0 = sx | 0;
      const y0 = sy | 0;
      const x1 = x0 + 1 < maxX ? x0 + 1 : maxX;
      const y1 = y0 + 1 < maxY ? y0 + 1 : maxY;
      const fx = sx - x0;
      const fy = sy - y0;
      const r0 = y0 * sw;
      const r1 = y1 * sw;
      const top = (s[r0 + x0] as number) * (1 - fx) + (s[r0 + x1] as number) * fx;
      const bot = (s[r1 + x0] as number) * (1 - fx) + (s[r1 + x1] as number) * fx;
      // Math.round(v) for v in [0, 255], branch-free (a compare on the fraction mispredicts half the time: ~10 ns a
      // pixel): ⌊v + 0.5⌋ is exact there except at the largest double below 0.5, where v + 0.5 rounds up to 1.
      const v = top * (1 - fy) + bot * fy;
      out[o] = v === 0.49999999999999994 ? 0 : (v + 0.5) | 0;
    }
  }
  return out;
}
