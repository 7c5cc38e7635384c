import sharp from 'sharp';
import type { Box, TextureMeasures } from './types.js';

/**
 * Texture measurements on the face crop for presentation-attack detection. They complement the
 * learned anti-spoofing score with physics the model may not have seen: a photographed screen shows
 * periodic moiré (narrow peaks in the 2-D spectrum), a reprint loses fine detail (low Laplacian
 * variance, little high-frequency energy), glossy prints and screens add glare. They are weak on their
 * own and their thresholds are conservative (see docs/face.md).
 */

export const TEXTURE_SIZE = 256;

export async function measureTexture(rgb: Buffer, width: number, height: number, box: Box): Promise<TextureMeasures> {
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
  return {
    sharpness: laplacianVariance(grey, TEXTURE_SIZE),
    moirePeakRatio: spectrum.peakRatio,
    highFrequencyShare: spectrum.highShare,
    saturation: saturationSum / n,
    glareShare: glare / n,
  };
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

/**
 * Hann-windowed 2-D power spectrum. `peakRatio` is the largest bin between 1/8 and 15/16 of Nyquist
 * divided by the median of its own frequency ring, so the natural 1/f fall-off cancels out and only
 * narrow periodic peaks stand out (plain noise gives about 10–20; a moiré grid gives hundreds).
 */
export function spectralMeasures(grey: Float32Array, size: number): { peakRatio: number; highShare: number } {
  const re = new Float64Array(size * size);
  const im = new Float64Array(size * size);
  const window = new Float64Array(size);
  for (let i = 0; i < size; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (size - 1));
  let mean = 0;
  for (let i = 0; i < grey.length; i++) mean += grey[i]!;
  mean /= grey.length;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) re[y * size + x] = (grey[y * size + x]! - mean) * window[x]! * window[y]!;
  }
  fft2d(re, im, size);
  const half = size / 2;
  const rings: number[][] = Array.from({ length: half + 1 }, () => []);
  const power = new Float64Array(size * size);
  let total = 0;
  let high = 0;
  for (let y = 0; y < size; y++) {
    const fy = y < half ? y : y - size;
    for (let x = 0; x < size; x++) {
      const fx = x < half ? x : x - size;
      const r = Math.round(Math.hypot(fx, fy));
      if (r === 0 || r > half) continue;
      const p = re[y * size + x]! ** 2 + im[y * size + x]! ** 2;
      power[y * size + x] = p;
      rings[r]!.push(p);
      total += p;
      if (r > half / 4) high += p;
    }
  }
  const ringMedian = rings.map((ring) => median(ring));
  let peakRatio = 0;
  const lo = Math.round(half / 8);
  const hi = Math.round((half * 15) / 16);
  for (let y = 0; y < size; y++) {
    const fy = y < half ? y : y - size;
    for (let x = 0; x < size; x++) {
      const fx = x < half ? x : x - size;
      const r = Math.round(Math.hypot(fx, fy));
      if (r < lo || r > hi) continue;
      const m = ringMedian[r]!;
      if (m > 0) peakRatio = Math.max(peakRatio, power[y * size + x]! / m);
    }
  }
  return { peakRatio, highShare: total > 0 ? high / total : 0 };
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return sorted[sorted.length >> 1]!;
}

/** In-place radix-2 FFT over rows then columns; size must be a power of two. */
export function fft2d(re: Float64Array, im: Float64Array, size: number): void {
  const rowRe = new Float64Array(size);
  const rowIm = new Float64Array(size);
  for (let pass = 0; pass < 2; pass++) {
    for (let k = 0; k < size; k++) {
      for (let j = 0; j < size; j++) {
        const idx = pass === 0 ? k * size + j : j * size + k;
        rowRe[j] = re[idx]!;
        rowIm[j] = im[idx]!;
      }
      fft1d(rowRe, rowIm);
      for (let j = 0; j < size; j++) {
        const idx = pass === 0 ? k * size + j : j * size + k;
        re[idx] = rowRe[j]!;
        im[idx] = rowIm[j]!;
      }
    }
  }
}

export function fft1d(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  if ((n & (n - 1)) !== 0) throw new RangeError('fft length must be a power of two');
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = (-2 * Math.PI) / len;
    const wRe = Math.cos(angle);
    const wIm = Math.sin(angle);
    for (let i = 0; i < n; i += len) {
      let cRe = 1;
      let cIm = 0;
      for (let j = 0; j < len / 2; j++) {
        const aRe = re[i + j]!;
        const aIm = im[i + j]!;
        const bRe = re[i + j + len / 2]! * cRe - im[i + j + len / 2]! * cIm;
        const bIm = re[i + j + len / 2]! * cIm + im[i + j + len / 2]! * cRe;
        re[i + j] = aRe + bRe;
        im[i + j] = aIm + bIm;
        re[i + j + len / 2] = aRe - bRe;
        im[i + j + len / 2] = aIm - bIm;
        const nRe = cRe * wRe - cIm * wIm;
        cIm = cRe * wIm + cIm * wRe;
        cRe = nRe;
      }
    }
  }
}
