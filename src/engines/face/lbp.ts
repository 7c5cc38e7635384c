/**
 * Multi-scale uniform local binary patterns (LBP) of a face crop, the classic texture descriptor for
 * printed-photo attacks (Määttä, Hadid, Pietikäinen 2011 on NUAA; colour channels as in Boulkenafet, Komulainen,
 * Hadid 2015): a reprint loses and reshapes micro-texture, which the distribution of local patterns shows.
 * Pure functions over pixels already cropped and resized (texture.ts makes the crop); no model inside.
 *
 * LBP(P, R) of a pixel: P neighbours sampled on a circle of radius R (bilinear), each bit 1 when the neighbour is
 * at least the centre. "Uniform" patterns (u2: at most two 0/1 transitions around the circle) get one bin each,
 * all other patterns share the last bin: P(P − 1) + 3 bins (59 for P = 8, 243 for P = 16). Each histogram is
 * normalised to sum 1, so the descriptor does not depend on the crop size.
 */

export interface LbpScale {
  points: 8 | 16;
  radius: number;
}

/** LBP(8,1), LBP(8,2), LBP(16,2), as in Määttä et al. */
export const LBP_SCALES: readonly LbpScale[] = [
  { points: 8, radius: 1 },
  { points: 8, radius: 2 },
  { points: 16, radius: 2 },
];

export type LbpChannel = 'grey' | 'y' | 'cb' | 'cr' | 'h' | 's' | 'v';

export const uniformBinCount = (points: number): number => points * (points - 1) + 3;

const mappings = new Map<number, Uint16Array>();

/** Pattern → bin: uniform patterns in increasing code order, every other pattern in the last bin. */
export function uniformMapping(points: number): Uint16Array {
  let m = mappings.get(points);
  if (m) return m;
  m = new Uint16Array(1 << points);
  const other = uniformBinCount(points) - 1;
  let next = 0;
  for (let code = 0; code < 1 << points; code++) {
    let transitions = 0;
    for (let p = 0; p < points; p++) transitions += ((code >> p) & 1) !== ((code >> ((p + 1) % points)) & 1) ? 1 : 0;
    m[code] = transitions <= 2 ? next++ : other;
  }
  mappings.set(points, m);
  return m;
}

/** Normalised uniform LBP(P, R) histogram of a size × size channel (row-major), over the pixels whose circle fits. */
export function lbpHistogram(channel: ArrayLike<number>, size: number, { points, radius }: LbpScale): Float32Array {
  const map = uniformMapping(points);
  const hist = new Float32Array(uniformBinCount(points));
  // Neighbour offsets: bilinear weights on the four surrounding pixels (exact pixels when the offset is integral).
  const taps: { dx: number; dy: number; w: [number, number, number, number] }[] = [];
  for (let p = 0; p < points; p++) {
    const a = (2 * Math.PI * p) / points;
    const x = round6(radius * Math.cos(a));
    const y = round6(-radius * Math.sin(a));
    const dx = Math.floor(x);
    const dy = Math.floor(y);
    const fx = x - dx;
    const fy = y - dy;
    taps.push({ dx, dy, w: [(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy] });
  }
  const margin = Math.ceil(radius);
  let count = 0;
  for (let y = margin; y < size - margin; y++) {
    for (let x = margin; x < size - margin; x++) {
      const c = channel[y * size + x]!;
      let code = 0;
      for (let p = 0; p < points; p++) {
        const t = taps[p]!;
        const i = (y + t.dy) * size + x + t.dx;
        // The far taps have zero weight exactly when the offset is integral, so they never read past the border.
        const v =
          t.w[0] * channel[i]! +
          (t.w[1] ? t.w[1] * channel[i + 1]! : 0) +
          (t.w[2] ? t.w[2] * channel[i + size]! : 0) +
          (t.w[3] ? t.w[3] * channel[i + size + 1]! : 0);
        // A small tolerance: interpolation noise must not split equal grey levels (flat areas count as "all ones").
        if (v >= c - 1e-6) code |= 1 << p;
      }
      hist[map[code]!]!++;
      count++;
    }
  }
  if (count > 0) for (let i = 0; i < hist.length; i++) hist[i]! /= count;
  return hist;
}

const round6 = (v: number): number => Math.round(v * 1e6) / 1e6;

/** One channel (0..255 scale) of packed RGB pixels. */
export function colourChannel(rgb: ArrayLike<number>, pixels: number, channel: LbpChannel): Float32Array {
  const out = new Float32Array(pixels);
  for (let i = 0; i < pixels; i++) {
    const r = rgb[i * 3]!;
    const g = rgb[i * 3 + 1]!;
    const b = rgb[i * 3 + 2]!;
    let v: number;
    switch (channel) {
      case 'grey':
      case 'y':
        v = 0.299 * r + 0.587 * g + 0.114 * b;
        break;
      case 'cb':
        v = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
        break;
      case 'cr':
        v = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
        break;
      default: {
        const max = Math.max(r, g, b);
        const min = Math.min(r, g, b);
        if (channel === 'v') v = max;
        else if (channel === 's') v = max === 0 ? 0 : (255 * (max - min)) / max;
        else {
          const d = max - min;
          let h = 0;
          if (d > 0) h = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
          v = (255 * h) / 6;
        }
      }
    }
    out[i] = v;
  }
  return out;
}

/**
 * The descriptor: for each channel, the histograms of every scale, concatenated (channel-major). `rgb` is a
 * size × size packed RGB crop. Length: channels × Σ uniformBinCount(points).
 */
export function lbpDescriptor(
  rgb: ArrayLike<number>,
  size: number,
  channels: readonly LbpChannel[],
  scales: readonly LbpScale[] = LBP_SCALES,
): Float32Array {
  const parts: Float32Array[] = [];
  for (const ch of channels) {
    const plane = colourChannel(rgb, size * size, ch);
    for (const s of scales) parts.push(lbpHistogram(plane, size, s));
  }
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
