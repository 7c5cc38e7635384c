import { fft2d } from './fft.js';

/**
 * Spectral measures of a grey tile for presentation-attack and screen-photo detection (face texture,
 * document moiré): Hann window, 2-D FFT; ring medians by quickselect on preallocated buffers, so many
 * tiles stay cheap. Pure, no I/O.
 */

interface RingPlan {
  ring: Int32Array;
  offsets: Int32Array;
  counts: Int32Array;
  window: Float64Array;
}
const plans = new Map<number, RingPlan>();

function plan(size: number): RingPlan {
  let p = plans.get(size);
  if (p) return p;
  const half = size / 2;
  const ring = new Int32Array(size * size).fill(-1);
  const counts = new Int32Array(half + 1);
  for (let y = 0; y < size; y++) {
    const fy = y < half ? y : y - size;
    for (let x = 0; x < size; x++) {
      const fx = x < half ? x : x - size;
      const r = Math.round(Math.hypot(fx, fy));
      if (r === 0 || r > half) continue;
      ring[y * size + x] = r;
      counts[r] = (counts[r] ?? 0) + 1;
    }
  }
  const offsets = new Int32Array(half + 2);
  for (let r = 1; r <= half + 1; r++) offsets[r] = (offsets[r - 1] ?? 0) + (counts[r - 1] ?? 0);
  const window = new Float64Array(size);
  for (let i = 0; i < size; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (size - 1));
  p = { ring, offsets, counts, window };
  plans.set(size, p);
  return p;
}

/**
 * `peakRatio`: the largest power bin between 1/8 and 15/16 of Nyquist divided by the median of its own
 * frequency ring, so the natural 1/f fall-off cancels out and only narrow periodic peaks stand out (plain
 * noise gives about 10–20; a moiré grid gives hundreds). `highShare`: the share of power above 1/4 of
 * Nyquist (a reprint loses it). `size` must be a power of two. With `skipLattice: p`, peak bins on the
 * 2-D lattice of period-p patterns (both frequency components within one bin of a multiple of size/p)
 * are not candidates: JPEG's 8 × 8 blocks (16 × 16 for 4:2:0 chroma) put their artefacts exactly there,
 * always axis-aligned with the image.
 */
export function spectralMeasures(
  grey: Float32Array,
  size: number,
  options: { skipLattice?: number } = {},
): { peakRatio: number; highShare: number } {
  const { ring, offsets, counts, window } = plan(size);
  const half = size / 2;
  const n = size * size;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += grey[i] ?? 0;
  mean /= n;
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) re[y * size + x] = ((grey[y * size + x] ?? 0) - mean) * (window[x] ?? 0) * (window[y] ?? 0);
  }
  fft2d(re, im, size);
  const power = new Float64Array(n);
  const byRing = new Float64Array(offsets[half + 1] ?? 0);
  const fill = Int32Array.from(offsets);
  let total = 0;
  let high = 0;
  for (let i = 0; i < n; i++) {
    const r = ring[i] ?? -1;
    if (r < 0) continue;
    const p = (re[i] ?? 0) ** 2 + (im[i] ?? 0) ** 2;
    power[i] = p;
    byRing[fill[r]!++] = p;
    total += p;
    if (r > half / 4) high += p;
  }
  const ringMedian = new Float64Array(half + 1);
  for (let r = 1; r <= half; r++) {
    const c = counts[r] ?? 0;
    if (c > 0) ringMedian[r] = select(byRing, offsets[r] ?? 0, c, c >> 1);
  }
  const lo = Math.round(half / 8);
  const hi = Math.round((half * 15) / 16);
  const step = options.skipLattice ? size / options.skipLattice : 0;
  const onLattice = (f: number): boolean => {
    const m = Math.abs(f) % step;
    return m <= 1 || m >= step - 1;
  };
  let peak = 0;
  for (let i = 0; i < n; i++) {
    const r = ring[i] ?? -1;
    if (r < lo || r > hi) continue;
    if (step > 0) {
      const y = Math.floor(i / size);
      const x = i - y * size;
      if (onLattice(x < half ? x : x - size) && onLattice(y < half ? y : y - size)) continue;
    }
    const m = ringMedian[r] ?? 0;
    if (m > 0) peak = Math.max(peak, (power[i] ?? 0) / m);
  }
  return { peakRatio: peak, highShare: total > 0 ? high / total : 0 };
}

export function spectralPeakRatio(grey: Float32Array, size: number, options: { skipLattice?: number } = {}): number {
  return spectralMeasures(grey, size, options).peakRatio;
}

/** k-th smallest of a[start .. start+len) (Hoare quickselect, in place). */
function select(a: Float64Array, start: number, len: number, k: number): number {
  let lo = start;
  let hi = start + len - 1;
  const target = start + k;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1] ?? 0;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] ?? 0) < pivot) i++;
      while ((a[j] ?? 0) > pivot) j--;
      if (i <= j) {
        const t = a[i] ?? 0;
        a[i] = a[j] ?? 0;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return a[target] ?? 0;
}
