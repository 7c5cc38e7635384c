import sharp from 'sharp';
import { bandToImage, type MrzBand } from './locate.js';
import type { MrzFormat } from './mrz-parse.js';
import type { GrayImage } from './image-ops.js';
import { homographyFromPoints, warpPerspective, type Point } from './warp.js';

/**
 * Document geometry predicted from the MRZ, using ICAO 9303 dimensions: the MRZ has a fixed character pitch
 * (2.54 mm) and sits at a fixed place on each format, so its size and position give the page outline and
 * the portrait zone without a separate edge detector.
 */

const PITCH_MM = 2.54;
const GLYPH_MM = 2.0;

interface FormatGeometry {
  chars: number;
  /** Page rectangle relative to the top-left of the first MRZ character, in mm. */
  page: { left: number; top: number; right: number; bottom: number };
  /** Zone V (portrait) on the MRZ side, relative to the same origin; null when ICAO puts it on the other side. */
  portrait: { left: number; top: number; right: number; bottom: number } | null;
  /** Printed personal data beside the portrait (visual inspection zone); null when not on the MRZ side. */
  viz: { left: number; top: number; right: number; bottom: number } | null;
}

const GEOMETRY: Partial<Record<MrzFormat, FormatGeometry>> = {
  // TD3 data page 125 x 88 mm; MRZ starts ~6 mm from the left, its top ~16 mm above the bottom edge.
  TD3: {
    chars: 44,
    page: { left: -6, top: -73, right: 119, bottom: 15 },
    portrait: { left: -3, top: -57, right: 38, bottom: -5 },
    viz: { left: 36, top: -71, right: 118, bottom: -2 },
  },
  MRVA: {
    chars: 44,
    page: { left: -4, top: -63, right: 116, bottom: 17 },
    portrait: { left: -2, top: -50, right: 33, bottom: -5 },
    viz: { left: 31, top: -55, right: 115, bottom: -2 },
  },
  TD2: {
    chars: 36,
    page: { left: -6, top: -57, right: 99, bottom: 17 },
    portrait: { left: -3, top: -48, right: 31, bottom: -4 },
    viz: { left: 29, top: -50, right: 98, bottom: -2 },
  },
  MRVB: {
    chars: 36,
    page: { left: -4, top: -63, right: 101, bottom: 17 },
    portrait: { left: -2, top: -50, right: 33, bottom: -5 },
    viz: { left: 31, top: -55, right: 100, bottom: -2 },
  },
  // TD1 85.6 x 54 mm; ICAO 9303-5 puts the MRZ on the back, away from the portrait.
  TD1: { chars: 30, page: { left: -4.7, top: -37.5, right: 80.9, bottom: 16.5 }, portrait: null, viz: null },
};

/** Working pixels per millimetre and the band-frame origin (top-left of the first MRZ character). */
function frame(band: MrzBand, format: MrzFormat): { pxPerMm: number; origin: Point } | null {
  const g = GEOMETRY[format];
  if (!g) return null;
  const pxPerMm = band.length / ((g.chars - 1) * PITCH_MM + GLYPH_MM);
  return { pxPerMm, origin: { x: -band.length / 2, y: -band.height / 2 } };
}

function toImage(band: MrzBand, flipped: boolean, f: { pxPerMm: number; origin: Point }, xMm: number, yMm: number): Point {
  const local = { x: f.origin.x + xMm * f.pxPerMm, y: f.origin.y + yMm * f.pxPerMm };
  return bandToImage(band, flipped ? { x: -local.x, y: -local.y } : local);
}

/** Predicted page corners (top-left, top-right, bottom-right, bottom-left) in working pixels. */
export function documentQuad(band: MrzBand, flipped: boolean, format: MrzFormat): Point[] | null {
  const g = GEOMETRY[format];
  const f = frame(band, format);
  if (!g || !f) return null;
  const { left, top, right, bottom } = g.page;
  return [
    [left, top],
    [right, top],
    [right, bottom],
    [left, bottom],
  ].map(([x, y]) => toImage(band, flipped, f, x ?? 0, y ?? 0));
}

/** How far (as a fraction of the page diagonal) the predicted page sticks out of the image; 0 when fully inside. */
export function outOfFrame(quad: Point[], width: number, height: number): number {
  const diag = Math.hypot((quad[2]?.x ?? 0) - (quad[0]?.x ?? 0), (quad[2]?.y ?? 0) - (quad[0]?.y ?? 0)) || 1;
  let worst = 0;
  for (const p of quad) worst = Math.max(worst, -p.x, -p.y, p.x - (width - 1), p.y - (height - 1));
  return Math.max(0, worst) / diag;
}

/** Point-in-convex-quad test used to restrict measurements (glare) to the document. */
export function insideQuad(quad: Point[], x: number, y: number): boolean {
  let sign = 0;
  for (let i = 0; i < quad.length; i++) {
    const a = quad[i] as Point;
    const b = quad[(i + 1) % quad.length] as Point;
    const cross = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
    if (cross !== 0) {
      if (sign === 0) sign = Math.sign(cross);
      else if (Math.sign(cross) !== sign) return false;
    }
  }
  return true;
}

/**
 * Upright crop of ICAO zone V (the portrait), 10 px/mm, as JPEG; null when the format has no portrait on
 * the MRZ side or the zone falls outside the image.
 */
export async function cropPortraitFromBand(
  rgb: Buffer,
  width: number,
  height: number,
  band: MrzBand,
  flipped: boolean,
  format: MrzFormat,
): Promise<Buffer | null> {
  const g = GEOMETRY[format];
  const f = frame(band, format);
  if (!g?.portrait || !f) return null;
  const { left, top, right, bottom } = g.portrait;
  const corners = [
    [left, top],
    [right, top],
    [right, bottom],
    [left, bottom],
  ].map(([x, y]) => toImage(band, flipped, f, x ?? 0, y ?? 0));
  if (outOfFrame(corners, width, height) > 0.05) return null;
  const outW = Math.round((right - left) * 10);
  const outH = Math.round((bottom - top) * 10);
  const dst: Point[] = [
    { x: 0, y: 0 },
    { x: outW - 1, y: 0 },
    { x: outW - 1, y: outH - 1 },
    { x: 0, y: outH - 1 },
  ];
  const pixels = warpPerspective({ data: rgb, width, height, channels: 3 }, homographyFromPoints(dst, corners), outW, outH, {
    fill: [255, 255, 255],
  });
  return sharp(Buffer.from(pixels.buffer, pixels.byteOffset, pixels.length), { raw: { width: outW, height: outH, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** 8 px/mm puts 3 mm type at ~17 px cap height: enough for the LSTM reader, and 36 % fewer pixels than 10. */
const VIZ_PX_PER_MM = 8;

/** Upright grey crop of the visual inspection zone, or null when the format has none on this side. */
export function vizRegion(gray: GrayImage, band: MrzBand, flipped: boolean, format: MrzFormat): GrayImage | null {
  const g = GEOMETRY[format];
  const f = frame(band, format);
  if (!g?.viz || !f) return null;
  const { left, top, right, bottom } = g.viz;
  const corners = [
    [left, top],
    [right, top],
    [right, bottom],
    [left, bottom],
  ].map(([x, y]) => toImage(band, flipped, f, x ?? 0, y ?? 0));
  if (outOfFrame(corners, gray.width, gray.height) > 0.1) return null;
  const width = Math.round((right - left) * VIZ_PX_PER_MM);
  const height = Math.round((bottom - top) * VIZ_PX_PER_MM);
  const dst: Point[] = [
    { x: 0, y: 0 },
    { x: width - 1, y: 0 },
    { x: width - 1, y: height - 1 },
    { x: 0, y: height - 1 },
  ];
  const data = warpPerspective(
    { data: gray.data, width: gray.width, height: gray.height, channels: 1 },
    homographyFromPoints(dst, corners),
    width,
    height,
    { fill: [255] },
  );
  return { data, width, height };
}
