import { spectralPeakRatio } from '../image/spectrum.js';
import { insideQuad } from './layout.js';
import type { Point } from './warp.js';

/**
 * Screen-photo hint: a document photographed off a monitor or phone screen carries the screen's sub-pixel
 * grid, which the camera's own pixel grid resamples into moiré — narrow, strong peaks in the 2-D spectrum
 * everywhere on the page. Printed paper has none. Same measure as the face engine's texture check
 * (image/spectrum.ts `spectralMeasures`: Hann-windowed power spectrum, largest bin between 1/8 and 15/16 of
 * Nyquist over the median of its frequency ring), applied at full working
 * resolution (moiré is fine; downscaling would blur it away) on up to six 256 px tiles inside the page, on
 * the red−green opponent channel and, when that one is high, on luma; the lattice of JPEG block artefacts
 * (period 16 px: 8 × 8 blocks, 4:2:0 chroma) is excluded from the peak search. The
 * median over tiles is used: the grid covers the whole screen, while printed periodic detail (an MRZ's fixed
 * pitch, guilloche) is local to a few tiles. Flat periodic print (synthetic renders' background waves) can
 * reach high luma ratios; the colour channel is what separates a sub-pixel grid from print.
 */

export const TILE = 256;

export const MOIRE_THRESHOLDS = {
  /**
   * Median tile peak ratio of the red−green opponent channel. An RGB-stripe screen puts its grid mostly in
   * colour (R, G and B sub-pixels side by side), print rarely has periodic colour detail this fine.
   * Calibration (docs/documents.md): synthetic screen recaptures ≥ 24.6k (JPEG q60 the weakest); paper renders
   * ≤ 1.9k; real specimen photos ≤ 0.55k except the Onfido UK licence (rainbow print) 6.7k. 13k sits ~1.9×
   * from both sides.
   */
  minChromaPeakRatio: 13_000,
  /** The same on luma (the grid's sub-pixels differ in brightness too): screens ≥ 10.6k, real ≤ 1.7k (renders reach 19k). */
  minLumaPeakRatio: 3_000,
};

export interface MoireMeasure {
  /** Median spectral peak ratios over the tiles (luma, red−green); null when not measured (page smaller than a tile; luma only when chroma is high). */
  lumaPeakRatio: number | null;
  chromaPeakRatio: number | null;
  tiles: number;
  /** Both ratios above their thresholds; null when not measured. */
  screen: boolean | null;
}

/** `rgb` is the interleaved working copy; `quad` the page outline (null: the image's centre is used). */
export function measureScreenMoire(rgb: Uint8Array, width: number, height: number, quad: Point[] | null): MoireMeasure {
  const w = width,
    h = height;
  if (w < TILE || h < TILE) return { lumaPeakRatio: null, chromaPeakRatio: null, tiles: 0, screen: null };
  // Tile centres on a 3 × 2 grid over the page's central 70 % (or the image's, without an outline).
  const xs = quad ? quad.map((p) => p.x) : [0, w - 1];
  const ys = quad ? quad.map((p) => p.y) : [0, h - 1];
  const x0 = Math.min(...xs),
    x1 = Math.max(...xs),
    y0 = Math.min(...ys),
    y1 = Math.max(...ys);
  const cx = (x0 + x1) / 2,
    cy = (y0 + y1) / 2;
  const rx = ((x1 - x0) * 0.7) / 2,
    ry = ((y1 - y0) * 0.7) / 2;
  const lumaTiles: Float32Array[] = [];
  const chroma: number[] = [];
  const seen = new Set<string>();
  for (const fy of [-0.5, 0.5]) {
    for (const fx of [-2 / 3, 0, 2 / 3]) {
      const tx = Math.round(Math.min(w - TILE, Math.max(0, cx + fx * rx - TILE / 2)));
      const ty = Math.round(Math.min(h - TILE, Math.max(0, cy + fy * ry - TILE / 2)));
      const key = `${tx},${ty}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (quad && !insideQuad(quad, tx + TILE / 2, ty + TILE / 2)) continue;
      const l = new Float32Array(TILE * TILE);
      const c = new Float32Array(TILE * TILE);
      for (let y = 0; y < TILE; y++) {
        for (let x = 0; x < TILE; x++) {
          const i = ((ty + y) * w + tx + x) * 3;
          const r = rgb[i] ?? 0,
            g = rgb[i + 1] ?? 0,
            b = rgb[i + 2] ?? 0;
          l[y * TILE + x] = 0.299 * r + 0.587 * g + 0.114 * b;
          c[y * TILE + x] = r - g;
        }
      }
      lumaTiles.push(l);
      chroma.push(spectralPeakRatio(c, TILE, { skipLattice: 16 }));
    }
  }
  if (chroma.length === 0) return { lumaPeakRatio: null, chromaPeakRatio: null, tiles: 0, screen: null };
  const t = MOIRE_THRESHOLDS;
  const chromaPeakRatio = Math.round(median(chroma));
  // Luma only matters when colour already looks like a screen (halves the cost on ordinary captures).
  if (chromaPeakRatio < t.minChromaPeakRatio) return { lumaPeakRatio: null, chromaPeakRatio, tiles: chroma.length, screen: false };
  const lumaPeakRatio = Math.round(median(lumaTiles.map((l) => spectralPeakRatio(l, TILE, { skipLattice: 16 }))));
  return { lumaPeakRatio, chromaPeakRatio, tiles: chroma.length, screen: lumaPeakRatio >= t.minLumaPeakRatio };
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}
