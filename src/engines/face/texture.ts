import sharp from 'sharp';
import type { Box, TextureMeasures } from './types.js';
import { spectralMeasures } from '../image/spectrum.js';

/**
 * Texture measurements on the face crop for presentation-attack detection. They complement the
 * learned anti-spoofing score with physics the model may not have seen: a photographed screen shows
 * periodic moiré (narrow peaks in the 2-D spectrum), a reprint loses fine detail (low Laplacian
 * variance, little high-frequency energy), glossy prints and screens add glare. They are weak on their
 * own and their thresholds are conservative (see docs/face.md).
 */

export const TEXTURE_SIZE = 256;
/** Smallest face square (analysis pixels) the moiré peak is measured on; below it the signal is not reported. */
export const MOIRE_MIN_PX = 64;

/**
 * `sourceScale`: input pixels per analysis pixel (the decode's downsizing), to place the JPEG block grid.
 */
export async function measureTexture(rgb: Buffer, width: number, height: number, box: Box, sourceScale = 1): Promise<TextureMeasures> {
  const crop = clampBox(box, width, height);
  const { data } = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .extract(crop)
    .resize(TEXTURE_SIZE, TEXTURE_SIZE, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const n = TEXTURE_SIZE * TEXTURE_SIZE;
  const grey = new Float32Array(n);
  let saturationSum = 0;
  let glare = 0;
  for (let i = 0; i < n; i++) {
    const r = data[i * 3]!;
    const g = data[i * 3 + 1]!;
    const b = data[i * 3 + 2]!;
    grey[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    saturationSum += max === 0 ? 0 : (max - min) / max;
    if (min > 240) glare++;
  }
  const spectrum = spectralMeasures(grey, TEXTURE_SIZE);
  const moire = await moirePeak(rgb, width, height, crop, sourceScale);
  return {
    sharpness: laplacianVariance(grey, TEXTURE_SIZE),
    moirePeakRatio: moire.peakRatio,
    moireTilePx: moire.tile,
    highFrequencyShare: spectrum.highShare,
    saturation: saturationSum / n,
    glareShare: glare / n,
  };
}

/**
 * The moiré peak on the face's central square, never enlarged: the largest power of two not above the
 * square's side (at most TEXTURE_SIZE), so a small face is not upsampled. Upsampling a small JPEG face
 * (as the 256 px texture crop does) copies its spectrum and its 8/16 px block grid into narrow peaks
 * that read as moiré: on the real live captures of ../shared/data/real/liveness the old measure put half
 * the genuine faces above the threshold. The JPEG block lattice, at its period after the decode's and
 * this crop's scaling, is skipped as the document moiré check does.
 */
async function moirePeak(
  rgb: Buffer,
  width: number,
  height: number,
  crop: { left: number; top: number; width: number; height: number },
  sourceScale: number,
): Promise<{ peakRatio: number; tile: number }> {
  const side = Math.min(crop.width, crop.height);
  if (side < MOIRE_MIN_PX) return { peakRatio: 0, tile: 0 };
  let tile = MOIRE_MIN_PX;
  while (tile * 2 <= Math.min(side, TEXTURE_SIZE)) tile *= 2;
  const square = {
    left: crop.left + Math.floor((crop.width - side) / 2),
    top: crop.top + Math.floor((crop.height - side) / 2),
    width: side,
    height: side,
  };
  const { data } = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .extract(square)
    .resize(tile, tile, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const grey = new Float32Array(tile * tile);
  for (let i = 0; i < grey.length; i++) grey[i] = 0.299 * data[i * 3]! + 0.587 * data[i * 3 + 1]! + 0.114 * data[i * 3 + 2]!;
  // JPEG's 16 px chroma grid (its 8 px luma grid is on the same lattice) in tile pixels.
  const period = (16 / Math.max(1, sourceScale)) * (tile / side);
  return { peakRatio: spectralMeasures(grey, tile, period >= 2.5 ? { skipLattice: period } : {}).peakRatio, tile };
}

/** The face box cropped and resized (fill) to a size × size packed RGB square, as the LBP descriptor takes it (lbp.ts). */
export async function faceCropRgb(rgb: Buffer, width: number, height: number, box: Box, size: number): Promise<Buffer> {
  const { data } = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .extract(clampBox(box, width, height))
    .resize(size, size, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return data;
}

function clampBox([x, y, w, h]: Box, width: number, height: number): { left: number; top: number; width: number; height: number } {
  const left = Math.max(0, Math.min(width - 2, Math.round(x)));
  const top = Math.max(0, Math.min(height - 2, Math.round(y)));
  return {
    left,
    top,
    width: Math.max(2, Math.min(width - left, Math.round(w))),
    height: Math.max(2, Math.min(height - top, Math.round(h))),
  };
}

export function laplacianVariance(grey: Float32Array, size: number): number {
  let sum = 0;
  let sumSq = 0;
  let count = 0;
  for (let y = 1; y < size - 1; y++) {
    for (let x = 1; x < size - 1; x++) {
      const i = y * size + x;
      const v = grey[i - 1]! + grey[i + 1]! + grey[i - size]! + grey[i + size]! - 4 * grey[i]!;
      sum += v;
      sumSq += v * v;
      count++;
    }
  }
  const mean = sum / count;
  return sumSq / count - mean * mean;
}
