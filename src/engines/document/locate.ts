import { resizeGray } from './gray-resize.js';
import { blackhat, close, components, gradientX, otsuThreshold, type Component, type GrayImage } from './image-ops.js';
import { warpPerspective, type Homography, type Point } from './warp.js';

/**
 * Finds the MRZ the way PassportEye does (blackhat to bring out dark print, horizontal gradient, closing to
 * fuse characters into line blobs, Otsu), then groups 2-3 parallel blobs of equal length into a band.
 * Orientation comes from the blobs' principal axes, so skew of any angle is measured, not searched.
 */

export interface MrzBand {
  /** Centre, direction and size in working-image pixels; `angle` is the text direction in radians. */
  center: Point;
  angle: number;
  length: number;
  /** Distance from the top of the first line to the bottom of the last one. */
  height: number;
  lineCount: number;
  /** Mean distance between line centres (0 for a single blob). */
  linePitch: number;
  score: number;
}

const ANALYSIS_WIDTH = 1000;

export async function findMrzBands(gray: GrayImage): Promise<MrzBand[]> {
  const f = Math.min(1, ANALYSIS_WIDTH / Math.max(gray.width, gray.height));
  const small = f < 1 ? await resizeGray(gray, Math.max(1, Math.round(gray.width * f)), Math.max(1, Math.round(gray.height * f))) : gray;
  const k = Math.max(small.width, small.height) / ANALYSIS_WIDTH;
  const bands: MrzBand[] = [];
  const grad = gradientX(blackhat(small, Math.round(15 * k) | 1, Math.round(9 * k) | 1));
  // Two closing widths: a narrow one keeps lines of small or tilted MRZs apart, a wide one fuses sparse lines.
  for (const fuse of [13, 21]) {
    const closed = close(grad, Math.round(fuse * k) | 1, 1);
    const t = Math.max(otsuThreshold(closed.data), 20);
    const mask = new Uint8Array(closed.data.length);
    for (let i = 0; i < mask.length; i++) mask[i] = (closed.data[i] ?? 0) > t ? 1 : 0;
    const blobs = components(mask, small.width, small.height, 30).filter(
      (c) => c.length > 0.2 * Math.max(small.width, small.height) * 0.5 && c.length > 8 * Math.max(c.thickness, 1),
    );
    for (const b of groupLines(blobs)) bands.push(scaleBand(b, 1 / f));
  }
  return dedupe(bands.filter((b) => lineEvidence(gray, b) >= MIN_LINE_EVIDENCE)).sort((a, b) => b.score - a.score);
}

/**
 * Below this a band is not lines of print (docs/documents.md, "Hostile input: bands in noise"). Measured with
 * `lineEvidence` on every band the locator proposed (before de-duplication): random pixels at most 4.0 (6,652 bands of
 * 47 images, JPEG and PNG, grey and colour, 160 to 960 px a side, all three orientations searched); the top-ranked
 * band of every real upright capture (sets A, C and B, 202 images) 8.0 at the lowest. Set a little nearer the real
 * side: noise let through costs seconds (bounded by the search's ceiling), a real MRZ turned away costs the document.
 */
export const MIN_LINE_EVIDENCE = 5.5;

/**
 * How clearly the band's rows alternate between print and blank, in units that do not depend on its size: the line
 * contrast (below) times the square root of the band's length in image pixels. The row means of random texture vary
 * only by chance, about 1 / sqrt(pixels in a row), so on noise this stays near 1-4 however large the band (a short
 * band of noise can reach a contrast of 0.3); lines of print are 0.4-0.9 over hundreds of pixels.
 */
export function lineEvidence(gray: GrayImage, band: MrzBand): number {
  return lineContrast(gray, band) * Math.sqrt(band.length);
}

function lineContrast(gray: GrayImage, band: MrzBand): number {
  // At the image's own scale: one cut pixel per image pixel, so a row's mean is over the pixels the band holds.
  const { h, width, height } = bandWarp(band, { scale: 1 });
  const crop = warpPerspective({ data: gray.data, width: gray.width, height: gray.height, channels: 1 }, h, width, height, { fill: [255] });
  const rows: number[] = [];
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 0; y < height; y++) {
    let row = 0;
    let k = 0;
    for (let x = 0; x < width; x++) {
      // The same mapping as the warp: pixels that fall outside the image are its fill, not the band's.
      const sx = h[0] * x + h[1] * y + h[2];
      const sy = h[3] * x + h[4] * y + h[5];
      if (sx < 0 || sy < 0 || sx > gray.width - 1 || sy > gray.height - 1) continue;
      const v = crop[y * width + x] ?? 0;
      row += v;
      sum += v;
      sumSq += v * v;
      k++;
      n++;
    }
    if (k > width / 2) rows.push(row / k);
  }
  if (rows.length < 2 || n === 0) return 0;
  const sd = Math.sqrt(Math.max(0, sumSq / n - (sum / n) ** 2));
  const rowMean = rows.reduce((a, r) => a + r, 0) / rows.length;
  const rowSd = Math.sqrt(rows.reduce((a, r) => a + (r - rowMean) ** 2, 0) / rows.length);
  return sd > 0 ? rowSd / sd : 0;
}

function angleDiff(a: number, b: number): number {
  let d = Math.abs(a - b) % Math.PI;
  if (d > Math.PI / 2) d = Math.PI - d;
  return d;
}

/** Groups parallel, equally long, evenly spaced line blobs (MRZ lines) and scores each group. */
function groupLines(blobs: Component[]): MrzBand[] {
  const out: MrzBand[] = [];
  const sorted = [...blobs].sort((a, b) => b.length - a.length);
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i] as Component;
    const ux = Math.cos(a.angle);
    const uy = Math.sin(a.angle);
    const members = [a];
    for (let j = 0; j < sorted.length; j++) {
      const b = sorted[j] as Component;
      if (j === i || angleDiff(a.angle, b.angle) > 0.06) continue;
      if (b.length < 0.8 * a.length || b.length > 1.25 * a.length) continue;
      const dx = b.cx - a.cx;
      const dy = b.cy - a.cy;
      const along = dx * ux + dy * uy;
      const across = -dx * uy + dy * ux;
      if (Math.abs(along) > 0.12 * a.length || Math.abs(across) > 3 * 2.6 * Math.max(a.thickness, b.thickness)) continue;
      members.push(b);
    }
    const lines = members
      .map((m) => ({ m, across: -(m.cx - a.cx) * uy + (m.cy - a.cy) * ux }))
      .sort((p, q) => p.across - q.across)
      .slice(0, 3);
    const pitches = lines.slice(1).map((l, n) => l.across - (lines[n]?.across ?? 0));
    const thick = lines.reduce((s, l) => s + l.m.thickness, 0) / lines.length;
    // Neighbouring MRZ lines are 1.3-3 line heights apart; reject stacks of unrelated text lines.
    if (pitches.some((p) => p < 1.1 * thick || p > 3.2 * thick)) continue;
    const linePitch = pitches.length ? pitches.reduce((s, p) => s + p, 0) / pitches.length : 0;
    const cx = lines.reduce((s, l) => s + l.m.cx, 0) / lines.length;
    const cy = lines.reduce((s, l) => s + l.m.cy, 0) / lines.length;
    const length = Math.max(...lines.map((l) => l.m.length));
    const height = (lines.at(-1)?.across ?? 0) - (lines[0]?.across ?? 0) + thick;
    const score = length * (lines.length >= 2 ? 2 + 0.1 * lines.length : 1);
    out.push({ center: { x: cx, y: cy }, angle: a.angle, length, height, lineCount: lines.length, linePitch, score });
  }
  return out;
}

function scaleBand(b: MrzBand, s: number): MrzBand {
  return {
    ...b,
    center: { x: b.center.x * s, y: b.center.y * s },
    length: b.length * s,
    height: b.height * s,
    linePitch: b.linePitch * s,
    score: b.score * s,
  };
}

function dedupe(bands: MrzBand[]): MrzBand[] {
  const kept: MrzBand[] = [];
  for (const b of [...bands].sort((x, y) => y.score - x.score)) {
    const dup = kept.some(
      (k) =>
        Math.hypot(k.center.x - b.center.x, k.center.y - b.center.y) < 0.25 * k.length &&
        angleDiff(k.angle, b.angle) < 0.1 &&
        k.lineCount >= b.lineCount,
    );
    if (!dup) kept.push(b);
  }
  return kept.slice(0, 4);
}

/**
 * Cuts the band out of the image, rotated upright and rescaled so the text is about `lineHeightPx` high,
 * in one bilinear warp. `flip` turns it 180 degrees for documents photographed upside down.
 */
export function extractBand(gray: GrayImage, band: MrzBand, options: BandCut = {}): GrayImage {
  const { h, width, height } = bandWarp(band, options);
  const data = warpPerspective({ data: gray.data, width: gray.width, height: gray.height, channels: 1 }, h, width, height, { fill: [255] });
  return { data, width, height };
}

interface BandCut {
  flip?: boolean;
  lineHeightPx?: number;
  /** Cut pixels per image pixel, in place of the scale `lineHeightPx` sets. */
  scale?: number;
  marginX?: number;
  marginY?: number;
}

/** The cut's size and the homography from its pixels to the image's. */
function bandWarp(band: MrzBand, options: BandCut): { h: Homography; width: number; height: number } {
  const lineH = band.lineCount > 1 ? band.height - (band.lineCount - 1) * band.linePitch : band.height;
  const s = options.scale ?? (options.lineHeightPx ?? 34) / Math.max(4, lineH * 0.85);
  const halfL = band.length * (0.5 + (options.marginX ?? 0.04));
  const halfH = band.height * 0.5 + Math.max(band.linePitch * 0.45, lineH) * (options.marginY ?? 1);
  const width = Math.round(2 * halfL * s);
  const height = Math.round(2 * halfH * s);
  const angle = band.angle + (options.flip ? Math.PI : 0);
  const c = Math.cos(angle) / s;
  const sn = Math.sin(angle) / s;
  // Output (x, y) -> source: centre + (x - W/2) * u + (y - H/2) * n, with u the text direction.
  const h: Homography = [
    c,
    -sn,
    band.center.x - (c * width) / 2 + (sn * height) / 2,
    sn,
    c,
    band.center.y - (sn * width) / 2 - (c * height) / 2,
    0,
    0,
    1,
  ];
  return { h, width, height };
}

/** Corners (working pixels) of a rectangle given in band units: x along the text from the band centre, y across. */
export function bandToImage(band: MrzBand, p: Point): Point {
  const c = Math.cos(band.angle);
  const s = Math.sin(band.angle);
  return { x: band.center.x + p.x * c - p.y * s, y: band.center.y + p.x * s + p.y * c };
}
