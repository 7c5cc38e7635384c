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
export function lbpHistogram(channel: Float32Array, size: number, { points, radius }: LbpScale): Float32Array {
  const map = uniformMapping(points);
  const hist = new Float32Array(uniformBinCount(points));
  // Each neighbour as four (index offset, bilinear weight) taps. A zero-weight tap reads the centre instead, so an
  // integral offset never reads past the border and the inner loop has no branch.
  const off = new Int32Array(points * 4);
  const wt = new Float64Array(points * 4);
  for (let p = 0; p < points; p++) {
    const a = (2 * Math.PI * p) / points;
    const x = round6(radius * Math.cos(a));
    const y = round6(-radius * Math.sin(a));
    const dx = Math.floor(x);
    const dy = Math.floor(y);
    const fx = x - dx;
    const fy = y - dy;
    const taps: [number, number][] = [
      [dy * size + dx, (1 - fx) * (1 - fy)],
      [dy * size + dx + 1, fx * (1 - fy)],
      [(dy + 1) * size + dx, (1 - fx) * fy],
      [(dy + 1) * size + dx + 1, fx * fy],
    ];
    taps.forEach(([o, w], k) => {
      off[p * 4 + k] = w > 0 ? o : 0;
      wt[p * 4 + k] = w;
    });
  }
  const margin = Math.ceil(radius);
  let count = 0;
  for (let y = margin; y < size - margin; y++) {
    for (let x = margin; x < size - margin; x++) {
      const i = y * size + x;
      // A small tolerance: interpolation noise must not split equal grey levels (flat areas count as "all ones").
      const c = channel[i]! - 1e-6;
      let code = 0;
      for (let p = 0, k = 0; p < points; p++, k += 4) {
        const v =
          wt[k]! * channel[i + off[k]!]! +
          wt[k + 1]! * channel[i + off[k + 1]!]! +
          wt[k + 2]! * channel[i + off[k + 2]!]! +
          wt[k + 3]! * channel[i + off[k + 3]!]!;
        if (v >= c) code |= 1 << p;
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
