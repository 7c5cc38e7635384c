import { existsSync } from 'node:fs';
import sharp from 'sharp';
import type { GrayImage } from './image-ops.js';
import { CELL_H, CELL_W, cellVector, cutCells, darkness } from './mrz-grid-cells.js';
import { seededRandom } from '../seeded-random.js';

export { cutCells, type CellGeometry } from './mrz-grid-cells.js';

/**
 * A fixed-pitch OCR-B cell reader for one MRZ line (issue #19 item 2). An MRZ line is N equally spaced
 * character cells (N = 30, 36 or 44 from the format), which neither tesseract's legacy engine nor PP-OCR's CTC
 * knows: CTC merges a doubled letter ("LL" read as "L") and neither engine can say a line is one cell short.
 * Here the line's ink extent and its column profile give the pitch, and the N cells are cut on the least ink
 * (mrz-grid-cells.ts); each cell, sampled into a small fixed grid, is compared by normalised cross-correlation with cells cut the same way from
 * lines rendered on first use from the OCR-B font installed on the machine (package fonts-ocr-b), blurred,
 * thickened or thinned, noised and JPEG-coded. No font, no reader: `GridReader.load()` answers null.
 */

export const GRID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';
export const OCRB_FONT = '/usr/share/fonts/opentype/ocr-b/OCRB.otf';

export interface GridCell {
  ch: string;
  /** Normalised cross-correlation (−1..1) of the best template of the best class. */
  score: number;
  /** Runner-up class and its score. */
  alt: string;
  altScore: number;
}

export interface GridLine {
  text: string;
  cells: GridCell[];
  pitch: number;
}

/** Classes (nearest by class mean) whose templates are compared one by one. */
const SHORTLIST = 8;

interface Degradation {
  fontPx: number;
  blur: number;
  /** Threshold after the blur: under 0.5 thickens the strokes, over 0.5 thins them; null keeps the grey. */
  weight: number | null;
  noise: number;
  jpeg: number | null;
  /** Final scale of the line (down-sampling to a small capture). */
  scale: number;
}

/** One rendered and degraded template line as a GrayImage. */
async function renderLine(text: string, d: Degradation, rnd: () => number): Promise<GrayImage> {
  const esc = text.replace(/</g, '&lt;');
  const width = Math.ceil(text.length * d.fontPx * 0.75 + d.fontPx * 2);
  const height = Math.ceil(d.fontPx * 2);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/><text x="${d.fontPx}" y="${(d.fontPx * 1.35).toFixed(1)}" font-family="OCR B" font-size="${d.fontPx}" fill="black">${esc}</text></svg>`;
  let img = sharp(Buffer.from(svg)).grayscale();
  if (d.blur > 0.3) img = img.blur(d.blur);
  let { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  const px = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) {
    let v = data[i] ?? 255;
    if (d.weight !== null) v = v < 255 * d.weight ? 30 : 225;
    v += (rnd() - 0.5) * 2 * d.noise;
    px[i] = Math.max(0, Math.min(255, Math.round(v)));
  }
  const w = Math.max(8, Math.round(info.width * d.scale));
  const h = Math.max(8, Math.round(info.height * d.scale));
  let out = sharp(Buffer.from(px), { raw: { width: info.width, height: info.height, channels: 1 } }).resize(w, h, { fit: 'fill' });
  if (d.jpeg !== null) {
    const jpg = await out.jpeg({ quality: d.jpeg }).toBuffer();
    out = sharp(jpg).grayscale();
  }
  ({ data, info } = await out.raw().toBuffer({ resolveWithObject: true }));
  return { data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height), width: info.width, height: info.height };
}

/** A random MRZ-like line: fillers in runs, letters and digits otherwise; every class appears. */
function templateText(n: number, rnd: () => number, offset: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.25) s += '<';
    else s += GRID_ALPHABET.charAt((offset + i * 7 + Math.floor(rnd() * 3)) % (GRID_ALPHABET.length - 1));
  }
  return s;
}

export class GridReader {
  private constructor(
    /** Templates, class index per template, and the flat vectors (templates × CELL_W·CELL_H). */
    private readonly labels: Uint8Array,
    private readonly vectors: Float32Array,
  ) {
    const size = CELL_W * CELL_H;
    this.means = new Float32Array(GRID_ALPHABET.length * size);
    this.byClass = GRID_ALPHABET.split('').map(() => []);
    labels.forEach((c, t) => {
      this.byClass[c]?.push(t);
      for (let k = 0; k < size; k++) this.means[c * size + k] = (this.means[c * size + k] ?? 0) + (vectors[t * size + k] ?? 0);
    });
    for (let c = 0; c < GRID_ALPHABET.length; c++) {
      let norm = 0;
      for (let k = 0; k < size; k++) norm += (this.means[c * size + k] ?? 0) ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let k = 0; k < size; k++) this.means[c * size + k] = (this.means[c * size + k] ?? 0) / norm;
    }
  }

  /** Class means (unit norm) and template indices per class. */
  private readonly means: Float32Array;
  private readonly byClass: number[][];

  static templateCount(r: GridReader): number {
    return r.labels.length;
  }

  /** Renders the templates from the installed OCR-B font (about a second); null when the font is missing. */
  static async load(options: { lines?: number; seed?: number } = {}): Promise<GridReader | null> {
    if (!existsSync(OCRB_FONT)) return null;
    const rnd = seededRandom(options.seed ?? 19);
    const labels: number[] = [];
    const vecs: Float32Array[] = [];
    const count = options.lines ?? 36;
    for (let l = 0; l < count; l++) {
      const n = 44;
      const text = templateText(n, rnd, l);
      const d: Degradation = {
        fontPx: 40,
        blur: [0, 0.6, 1, 1.6, 2.2][l % 5] ?? 0,
        weight: [null, 0.35, 0.5, 0.65][Math.floor(l / 5) % 4] ?? null,
        noise: rnd() * 30,
        jpeg: l % 3 === 0 ? null : 35 + Math.floor(rnd() * 40),
        scale: [1, 0.6, 0.42][l % 3] ?? 1,
      };
      const img = await renderLine(text, d, rnd);
      const dark = darkness(img);
      const g = cutCells(img, n, dark);
      if (!g) continue;
      for (let i = 0; i < n; i++) {
        const k = GRID_ALPHABET.indexOf(text.charAt(i));
        // Small phase errors of the cutter, seen as shifted templates.
        for (const shift of [0, (rnd() - 0.5) * 0.3 * g.pitch]) {
          labels.push(k);
          vecs.push(cellVector(dark, img.width, img.height, g, i, shift));
        }
      }
    }
    const size = CELL_W * CELL_H;
    const vectors = new Float32Array(vecs.length * size);
    vecs.forEach((v, i) => vectors.set(v, i * size));
    return new GridReader(Uint8Array.from(labels), vectors);
  }

  /** Per-class best correlation of one cell vector, over the templates of the classes whose mean is nearest. */
  private scores(v: Float32Array): Float32Array {
    const size = CELL_W * CELL_H;
    const best = new Float32Array(GRID_ALPHABET.length).fill(-1);
    const dot = (arr: Float32Array, o: number): number => {
      let s = 0;
      for (let k = 0; k < size; k++) s += (v[k] ?? 0) * (arr[o + k] ?? 0);
      return s;
    };
    const byMean = [...Array(GRID_ALPHABET.length).keys()].map((c) => ({ c, s: dot(this.means, c * size) }));
    byMean.sort((a, b) => b.s - a.s);
    for (const { c } of byMean.slice(0, SHORTLIST))
      for (const t of this.byClass[c] ?? []) best[c] = Math.max(best[c] ?? -1, dot(this.vectors, t * size));
    return best;
  }

  /**
   * Reads one deskewed line image of N cells; null when no cells could be cut. `allowed(i)` restricts cell
   * i to some classes (a names line holds no digits: OCR-B O and 0 differ by little more than width).
   */
  readLine(img: GrayImage, n: number, allowed?: (cell: number) => string): GridLine | null {
    const dark = darkness(img);
    const g = cutCells(img, n, dark);
    if (!g) return null;
    const cells: GridCell[] = [];
    for (let i = 0; i < n; i++) {
      // The cell and the cell nudged a sixth of the pitch either way: the best fit of each class.
      const per = new Float32Array(GRID_ALPHABET.length).fill(-1);
      for (const shift of [0, -g.pitch / 6, g.pitch / 6]) {
        const s = this.scores(cellVector(dark, img.width, img.height, g, i, shift));
        for (let c = 0; c < per.length; c++) per[c] = Math.max(per[c] ?? -1, s[c] ?? -1);
      }
      const only = allowed?.(i);
      if (only !== undefined) for (let c = 0; c < per.length; c++) if (!only.includes(GRID_ALPHABET.charAt(c))) per[c] = -1;
      let a = 0;
      let b = 1;
      for (let c = 0; c < per.length; c++) {
        if ((per[c] ?? -1) > (per[a] ?? -1)) {
          b = a;
          a = c;
        } else if (c !== a && (per[c] ?? -1) > (per[b] ?? -1)) b = c;
      }
      cells.push({ ch: GRID_ALPHABET.charAt(a), score: per[a] ?? -1, alt: GRID_ALPHABET.charAt(b), altScore: per[b] ?? -1 });
    }
    return { text: cells.map((c) => c.ch).join(''), cells, pitch: g.pitch };
  }
}
