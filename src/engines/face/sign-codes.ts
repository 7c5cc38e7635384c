import { seededRandom } from '../seeded-random.js';

/**
 * The coarse stage of FaceIndex: one sign bit per dimension of a randomly rotated, centred copy of
 * every row (1,024 bits = 128 bytes per face), scored against the unquantised query with byte lookup
 * tables (RaBitQ-style asymmetric estimator: Gao & Long, SIGMOD 2024).
 *
 * Why centred: face embeddings share a large common direction (unrelated faces score ~0.4), so signs
 * of the raw values would mostly repeat that direction; after subtracting the index's mean the bits
 * describe what differs between faces. The estimate is of the exact dot product
 *   q·x = (q−c)·(x−c) + c·x + q·c − |c|²
 * with (q−c)·(x−c) estimated from the bits and the rest exact, so it is on the cosine scale.
 * Every row also carries an error bound (ERROR_SIGMAS standard deviations of the estimator), and the
 * index re-ranks every row whose estimate plus bound can reach the similarity it must not miss.
 * Most rows are dismissed after half their code: the first 512 bits give a coarser estimate with its
 * own, wider bound, and only rows whose half-code bound reaches the floor are read to the end.
 */

/** Width of the full-code bound in σ of its estimate (σ = |x−c|·|q−c|·√(1−a²)/(a·√(width−1)), a = ⟨ō, u⟩). */
export const ERROR_SIGMAS = 7;
/** Width of the half-code bound in units of HALF_SIGMA. */
export const HALF_ERROR_SIGMAS = 5.5;
/**
 * σ of the half-code estimate in units of |x−c|·|q−c|/√width. Seeing only half the rotated
 * coordinates adds a sampling error to the quantisation error, so this is set from measurement: on the
 * bench's 100,000 faces × 37 probes the half-code error's rms was 0.91 of it and the largest 4.7
 * (bench/face-speed.ts prints the largest underestimate, in σ units, of both bounds).
 */
const HALF_SIGMA = 1.6;
const ROTATION_SEED = 0x5eed_f00d;

export class SignCodes {
  /** Rotated width: the dimensions padded to a power of two (at least 64), one bit each. */
  readonly width: number;
  readonly bytesPerRow: number;
  private readonly signs: Float64Array;
  /** First and second half of every row's code, in two arrays so the pass over first halves reads contiguous memory. */
  private front: Uint8Array;
  private back: Uint8Array;
  /** c·x per row. */
  private offset: Float32Array;
  /** |y|² / Σ|y_j|: turns the ±1 sum into an estimate of (q−c)·(x−c). */
  private scale: Float32Array;
  /** ERROR_SIGMAS · σ of the estimate per unit |q−c|. */
  private slack: Float32Array;
  /** The same two for the estimate from the first half of the bits alone (see upperBounds). */
  private halfScale: Float32Array;
  private halfSlack: Float32Array;
  private centre: Float32Array | null = null;
  private readonly scratch: Float64Array;

  constructor(
    readonly dimensions: number,
    capacity: number,
  ) {
    let width = 64;
    while (width < dimensions) width *= 2;
    this.width = width;
    this.bytesPerRow = width / 8;
    this.signs = seededSigns(width, ROTATION_SEED);
    this.scratch = new Float64Array(width);
    this.front = new Uint8Array((capacity * this.bytesPerRow) / 2);
    this.back = new Uint8Array((capacity * this.bytesPerRow) / 2);
    this.offset = new Float32Array(capacity);
    this.scale = new Float32Array(capacity);
    this.slack = new Float32Array(capacity);
    this.halfScale = new Float32Array(capacity);
    this.halfSlack = new Float32Array(capacity);
  }

  get centreVector(): Float32Array | null {
    return this.centre;
  }

  /** Sets the centre; every row must be encoded again afterwards. */
  setCentre(centre: Float32Array): void {
    if (centre.length !== this.dimensions) throw new RangeError('centre has the wrong length');
    this.centre = Float32Array.from(centre);
  }

  /** The mean of the first `n` rows of `vectors`. */
  static mean(vectors: Float32Array, n: number, d: number): Float32Array {
    const sum = new Float64Array(d);
    for (let r = 0, o = 0; r < n; r++, o += d) for (let i = 0; i < d; i++) sum[i]! += vectors[o + i]!;
    return Float32Array.from(sum, (s) => (n > 0 ? s / n : 0));
  }

  grow(capacity: number): void {
    const half = this.bytesPerRow / 2;
    if (capacity * half <= this.front.length) return;
    for (const key of ['front', 'back'] as const) {
      const next = new Uint8Array(capacity * half);
      next.set(this[key]);
      this[key] = next;
    }
    for (const key of ['offset', 'scale', 'slack', 'halfScale', 'halfSlack'] as const) {
      const next = new Float32Array(capacity);
      next.set(this[key]);
      this[key] = next;
    }
  }

  /** Encodes row `row` from `vectors` (unit rows of `dimensions` values). */
  encode(vectors: Float32Array, row: number): void {
    const c = this.centre;
    const o = row * this.dimensions;
    let cx = 0;
    if (c) for (let i = 0; i < this.dimensions; i++) cx += c[i]! * vectors[o + i]!;
    const y = this.rotate(vectors, o, c);
    const B = this.bytesPerRow;
    const H = B / 2;
    let y2 = 0;
    let l1 = 0;
    let halfY2 = 0;
    let halfL1 = 0;
    for (let b = 0, j = 0; b < B; b++) {
      if (b === H) {
        halfY2 = y2;
        halfL1 = l1;
      }
      let byte = 0;
      for (let bit = 1; bit < 256; bit <<= 1, j++) {
        const v = y[j]!;
        y2 += v * v;
        l1 += Math.abs(v);
        byte |= -(v > 0) & bit; // branch-free: the signs are random, a branch mispredicts half the time
      }
      if (b < H) this.front[row * H + b] = byte;
      else this.back[row * H + b - H] = byte;
    }
    this.offset[row] = cx;
    this.halfScale[row] = halfL1 > 0 ? (2 * halfY2) / halfL1 : 0;
    this.halfSlack[row] = (HALF_ERROR_SIGMAS * HALF_SIGMA * Math.sqrt(y2)) / Math.sqrt(this.width);
    if (l1 === 0) {
      this.scale[row] = 0;
      this.slack[row] = 0;
      return;
    }
    // a = ⟨ō, u⟩, the cosine between the unit row and its sign code; the estimator's σ grows as a falls.
    const norm = Math.sqrt(y2);
    const a = Math.min(1, l1 / (norm * Math.sqrt(this.width)));
    this.scale[row] = y2 / l1;
    this.slack[row] = (ERROR_SIGMAS * norm * Math.sqrt(Math.max(0, 1 - a * a))) / (a * Math.sqrt(this.width - 1));
  }

  /** Swap-remove support: row `to` takes row `from`'s code. */
  move(from: number, to: number): void {
    const b = this.bytesPerRow;
    const h = b / 2;
    this.front.copyWithin(to * h, from * h, (from + 1) * h);
    this.back.copyWithin(to * h, from * h, (from + 1) * h);
    this.offset[to] = this.offset[from]!;
    this.scale[to] = this.scale[from]!;
    this.slack[to] = this.slack[from]!;
    this.halfScale[to] = this.halfScale[from]!;
    this.halfSlack[to] = this.halfSlack[from]!;
  }

  /**
   * For each of the first `n` rows, an upper bound (estimate + ERROR_SIGMAS σ) of its dot product
   * with the unit `query`, on the same scale as the exact score. The first half of each code is read
   * for every row; the second half only where the half-code bound (wider: HALF_SIGMA) reaches
   * `floor`, so a row left at its half-code bound is one that cannot reach `floor`. `estimates`
   * gets the estimates themselves (no slack): the order to take best-effort candidates in, since
   * bounds of half- and full-code rows carry different slack and do not rank rows fairly.
   */
  upperBounds(query: Float32Array, n: number, floor: number, estimates?: Float32Array): Float32Array {
    const d = this.dimensions;
    const c = this.centre;
    let constant = 0;
    let qn2 = 0;
    const centred = new Float32Array(d);
    for (let i = 0; i < d; i++) {
      const ci = c ? c[i]! : 0;
      constant += ci * (query[i]! - ci);
      centred[i] = query[i]! - ci;
      qn2 += centred[i]! * centred[i]!;
    }
    const qn = Math.sqrt(qn2);
    const qr = this.rotate(centred, 0, null);
    // table[b·256 + v] = Σ of qr over the set bits of byte value v at byte position b.
    const B = this.bytesPerRow;
    const H = B / 2;
    const table = new Float64Array(B * 256);
    let total = 0;
    let halfTotal = 0;
    for (let b = 0; b < B; b++) {
      const t = b << 8;
      for (let v = 1; v < 256; v++) table[t + v] = table[t + (v & (v - 1))]! + qr[b * 8 + 31 - Math.clz32(v & -v)]!;
      total += table[t + 255]!;
      if (b === H - 1) halfTotal = total;
    }
    const out = new Float32Array(n);
    const { front, back, offset, scale, slack, halfScale, halfSlack } = this;
    for (let r = 0, o = 0; r < n; r++, o += H) {
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0;
      for (let b = 0, t = 0; b < H; b += 4, t += 1024) {
        s0 += table[t + front[o + b]!]!;
        s1 += table[t + 256 + front[o + b + 1]!]!;
        s2 += table[t + 512 + front[o + b + 2]!]!;
        s3 += table[t + 768 + front[o + b + 3]!]!;
      }
      const base = constant + offset[r]!;
      const halfEstimate = base + halfScale[r]! * (2 * (s0 + s1 + s2 + s3) - halfTotal);
      const half = halfEstimate + halfSlack[r]! * qn;
      if (half < floor) {
        out[r] = half;
        if (estimates) estimates[r] = halfEstimate;
        continue;
      }
      for (let b = 0, t = H << 8; b < H; b += 4, t += 1024) {
        s0 += table[t + back[o + b]!]!;
        s1 += table[t + 256 + back[o + b + 1]!]!;
        s2 += table[t + 512 + back[o + b + 2]!]!;
        s3 += table[t + 768 + back[o + b + 3]!]!;
      }
      const estimate = base + scale[r]! * (2 * (s0 + s1 + s2 + s3) - total);
      out[r] = estimate + slack[r]! * qn;
      if (estimates) estimates[r] = estimate;
    }
    return out;
  }

  /** Centred, padded, sign-flipped and Walsh–Hadamard-transformed copy (orthonormal), in `scratch`. */
  private rotate(src: Float32Array, offset: number, centre: Float32Array | null): Float64Array {
    const y = this.scratch;
    const d = this.dimensions;
    const signs = this.signs;
    if (centre) for (let i = 0; i < d; i++) y[i] = (src[offset + i]! - centre[i]!) * signs[i]!;
    else for (let i = 0; i < d; i++) y[i] = src[offset + i]! * signs[i]!;
    y.fill(0, d);
    const w = this.width;
    // Walsh–Hadamard butterflies two stages at a time (radix 4: half the passes over the array),
    // then one radix-2 stage when log2(width) is odd.
    let h = 1;
    for (; h * 4 <= w; h *= 4) {
      for (let i = 0; i < w; i += h * 4) {
        for (let j = i, end = i + h; j < end; j++) {
          const a = y[j]!,
            b = y[j + h]!,
            c = y[j + 2 * h]!,
            e = y[j + 3 * h]!;
          const ab = a + b,
            amb = a - b,
            ce = c + e,
            cme = c - e;
          y[j] = ab + ce;
          y[j + h] = amb + cme;
          y[j + 2 * h] = ab - ce;
          y[j + 3 * h] = amb - cme;
        }
      }
    }
    if (h < w) {
      for (let j = 0; j < h; j++) {
        const a = y[j]!;
        const b = y[j + h]!;
        y[j] = a + b;
        y[j + h] = a - b;
      }
    }
    const k = 1 / Math.sqrt(w);
    for (let j = 0; j < w; j++) y[j]! *= k;
    return y;
  }
}

/** ±1 from a fixed seed (mulberry32), so a rebuilt or restored index encodes identically. */
function seededSigns(n: number, seed: number): Float64Array {
  const next = seededRandom(seed);
  // The low bit of mulberry32's 32-bit output: next() is that output / 2^32, exactly.
  return Float64Array.from({ length: n }, () => ((next() * 4294967296) & 1 ? 1 : -1));
}
