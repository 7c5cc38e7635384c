import type { GrayImage } from './image-ops.js';

/**
 * Cell geometry of one MRZ line for the fixed-pitch reader (mrz-grid.ts): the text rows, the pitch, and the
 * N + 1 cell boundaries, and each cell sampled into a small normalised grid.
 */

export const CELL_W = 12;
export const CELL_H = 20;
const WIDTH_PENALTY = 4;

export interface CellGeometry {
  /** The N + 1 cell boundaries (x), the line's pitch, and the text rows [y0, y1). */
  bounds: number[];
  pitch: number;
  y0: number;
  y1: number;
}

/** Ink darkness per pixel (0 paper … 1 ink), from the line's own paper and ink levels. */
export function darkness(img: GrayImage): Float32Array {
  const hist = new Uint32Array(256);
  for (const v of img.data) hist[v] = (hist[v] ?? 0) + 1;
  const pct = (q: number): number => {
    let acc = 0;
    for (let v = 0; v < 256; v++) {
      acc += hist[v] ?? 0;
      if (acc >= q * img.data.length) return v;
    }
    return 255;
  };
  const ink = pct(0.03);
  const paper = pct(0.7);
  const span = Math.max(16, paper - ink);
  const out = new Float32Array(img.data.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.min(1, Math.max(0, (paper - (img.data[i] ?? 255)) / span));
  return out;
}

/**
 * The N cells of one line image: text rows from the row profile (largest run), ink extent from the column
 * profile, then the pitch and phase that put the N − 1 cell boundaries on the least ink while the cells
 * cover the ink extent. Null when the line has no usable ink.
 */
export function cutCells(img: GrayImage, n: number, dark = darkness(img)): CellGeometry | null {
  const { width, height } = img;
  if (width < n * 3 || height < 6) return null;
  const rows = new Float64Array(height);
  for (let y = 0; y < height; y++) {
    let s = 0;
    for (let x = 0; x < width; x++) s += (dark[y * width + x] ?? 0) > 0.5 ? 1 : 0;
    rows[y] = s;
  }
  const rowMax = Math.max(...rows);
  if (rowMax <= 0) return null;
  let best: [number, number] = [0, 0];
  let start = -1;
  let bestMass = 0;
  let mass = 0;
  for (let y = 0; y <= height; y++) {
    const on = y < height && (rows[y] ?? 0) > rowMax * 0.12;
    if (on) {
      if (start < 0) {
        start = y;
        mass = 0;
      }
      mass += rows[y] ?? 0;
    } else if (start >= 0) {
      if (mass > bestMass) {
        bestMass = mass;
        best = [start, y];
      }
      start = -1;
    }
  }
  const [y0, y1] = best;
  const h = y1 - y0;
  if (h < 5) return null;
  const cols = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    let s = 0;
    for (let y = y0; y < y1; y++) s += dark[y * width + x] ?? 0;
    cols[x] = s;
  }
  // Ink extent: first and last columns with ink, ignoring specks thinner than a stroke.
  const inkCol = (x: number): boolean => (cols[x] ?? 0) > h * 0.12;
  let xa = 0;
  while (xa < width - 1 && !(inkCol(xa) && inkCol(xa + 1))) xa++;
  let xb = width - 1;
  while (xb > 0 && !(inkCol(xb) && inkCol(xb - 1))) xb--;
  if (xb - xa < n * 2) return null;
  const extent = xb - xa + 1;
  const p0 = extent / (n - 0.3);
  // The pitch: the column profile's autocorrelation peak near the extent's pitch (the extent alone is off
  // when a speck or a guilloche stroke lies beyond the first or last glyph).
  let mean = 0;
  for (let x = xa; x <= xb; x++) mean += cols[x] ?? 0;
  mean /= extent;
  const centred = new Float64Array(extent);
  for (let x = 0; x < extent; x++) centred[x] = (cols[xa + x] ?? 0) - mean;
  const corr = (lag: number): number => {
    let s = 0;
    for (let x = 0; x + lag < extent; x++) s += (centred[x] ?? 0) * (centred[x + lag] ?? 0);
    return s / Math.max(1, extent - lag);
  };
  const lags: number[] = [];
  const lagLo = Math.max(3, Math.floor(p0 * 0.8));
  const lagHi = Math.ceil(p0 * 1.25);
  for (let lag = lagLo; lag <= lagHi; lag++) lags.push(corr(lag));
  let li = 0;
  for (let i = 1; i < lags.length; i++) if ((lags[i] ?? 0) > (lags[li] ?? 0)) li = i;
  let pa = lagLo + li;
  if (li > 0 && li < lags.length - 1) {
    const [l, m, r] = [lags[li - 1] ?? 0, lags[li] ?? 0, lags[li + 1] ?? 0];
    const den = l - 2 * m + r;
    if (den < 0) pa += (0.5 * (l - r)) / den;
  }
  // A period far from the extent's is a harmonic or texture: trust the extent then.
  if (Math.abs(pa / p0 - 1) > 0.12) pa = p0;
  const at = (x: number): number => {
    const i = Math.floor(x);
    const f = x - i;
    return (cols[i] ?? 0) * (1 - f) + (cols[i + 1] ?? 0) * f;
  };
  // The pitch refined with the phase: cell boundaries on the least ink inside the extent.
  let bestCost = Infinity;
  let pitch = pa;
  for (let k = -20; k <= 20; k++) {
    const p = pa * (1 + k * 0.001);
    for (let ph = 0; ph < p; ph += 0.25) {
      let cost = 0;
      let count = 0;
      for (let x = xa + ph; x <= xb; x += p) {
        cost += at(x);
        count++;
      }
      cost /= Math.max(1, count);
      if (cost < bestCost) {
        bestCost = cost;
        pitch = p;
      }
    }
  }
  // Printed MRZs are not always at an exact pitch (perspective, specimens typeset in a near-OCR-B font):
  // the N + 1 boundaries by dynamic programming, each cell 0.7–1.3 pitch wide, on the least ink, with a
  // penalty for a width away from the pitch; the first and last boundary near the ink extent.
  const ink = (x: number): number => (cols[x] ?? 0) / h;
  const wLo = Math.max(2, Math.round(pitch * 0.7));
  const wHi = Math.round(pitch * 1.3);
  const startLo = Math.max(0, Math.round(xa - pitch * 0.5));
  const startHi = Math.round(xa + pitch * 0.1);
  const endLo = Math.round(xb - pitch * 0.1);
  const endHi = Math.min(width, Math.round(xb + pitch * 0.5));
  const W = width + 1;
  let cost = new Float64Array(W).fill(Infinity);
  for (let x = startLo; x <= startHi; x++) cost[x] = 0;
  const back: Int32Array[] = [];
  for (let i = 0; i < n; i++) {
    const next = new Float64Array(W).fill(Infinity);
    const from = new Int32Array(W).fill(-1);
    for (let x = 0; x < W; x++) {
      const c = cost[x] ?? Infinity;
      if (c === Infinity) continue;
      for (let w = wLo; w <= wHi && x + w < W; w++) {
        const d = (w - pitch) / pitch;
        const v = c + WIDTH_PENALTY * d * d + (i < n - 1 ? ink(x + w) : 0);
        if (v < (next[x + w] ?? Infinity)) {
          next[x + w] = v;
          from[x + w] = x;
        }
      }
    }
    back.push(from);
    cost = next;
  }
  let end = -1;
  for (let x = endLo; x <= endHi; x++) if ((cost[x] ?? Infinity) < (end < 0 ? Infinity : (cost[end] ?? Infinity))) end = x;
  if (end < 0) return null;
  const bounds = [end];
  for (let i = n - 1; i >= 0; i--) bounds.unshift(back[i]?.[bounds[0] ?? 0] ?? 0);
  return { bounds, pitch, y0, y1 };
}

/** One cell sampled (bilinear, darkness) into CELL_W × CELL_H, zero mean and unit norm. */
export function cellVector(dark: Float32Array, width: number, height: number, g: CellGeometry, i: number, shift = 0): Float32Array {
  const h = g.y1 - g.y0;
  const x0 = (g.bounds[i] ?? 0) + shift;
  const ya = g.y0 - h * 0.08;
  const sx = ((g.bounds[i + 1] ?? 0) - (g.bounds[i] ?? 0)) / CELL_W;
  const sy = (h * 1.16) / CELL_H;
  const v = new Float32Array(CELL_W * CELL_H);
  const px = (x: number, y: number): number => (x < 0 || y < 0 || x >= width || y >= height ? 0 : (dark[y * width + x] ?? 0));
  let mean = 0;
  for (let cy = 0; cy < CELL_H; cy++)
    for (let cx = 0; cx < CELL_W; cx++) {
      const x = x0 + (cx + 0.5) * sx - 0.5;
      const y = ya + (cy + 0.5) * sy - 0.5;
      const xi = Math.floor(x);
      const yi = Math.floor(y);
      const fx = x - xi;
      const fy = y - yi;
      const s =
        px(xi, yi) * (1 - fx) * (1 - fy) + px(xi + 1, yi) * fx * (1 - fy) + px(xi, yi + 1) * (1 - fx) * fy + px(xi + 1, yi + 1) * fx * fy;
      v[cy * CELL_W + cx] = s;
      mean += s;
    }
  mean /= v.length;
  let norm = 0;
  for (let k = 0; k < v.length; k++) {
    const d = (v[k] ?? 0) - mean;
    v[k] = d;
    norm += d * d;
  }
  norm = Math.sqrt(norm) || 1;
  for (let k = 0; k < v.length; k++) v[k] = (v[k] ?? 0) / norm;
  return v;
}
