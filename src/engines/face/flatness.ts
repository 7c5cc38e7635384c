/**
 * Flatness test for the active liveness check (issue #19 item 6): the landmarks of a print or a screen
 * held in front of the camera lie on one plane, so between any two frames they move by one homography
 * (a plane seen by a pinhole camera from two poses), however the plane is tilted, turned or moved. A real
 * head turning is not a plane: the nose moves against the cheeks, the far side of the face foreshortens,
 * and no homography explains all of it. The test fits the best homography between the meshes of two
 * frames and measures what it leaves unexplained, as a share of face width.
 *
 * It needs the head to have turned between the frames (the challenge asks for it): without motion in
 * depth a real face also fits a homography, so a small residual only means "flat" when the frames differ
 * by a real turn (`affineResidual`, what a flat turn in depth also leaves, and the pose angles say so).
 * Pure functions, no I/O; the thresholds live in liveness-decision.ts.
 */

export interface PlanarFit {
  /** RMS landmark distance left after the best homography, share of face width. */
  homographyResidual: number;
  /** RMS landmark distance left after the best affine map, share of face width (a flat object turned in depth leaves some). */
  affineResidual: number;
  /** Mean landmark displacement between the frames, share of face width. */
  displacement: number;
}

/** `a`, `b`: flattened x,y landmark lists of the same topology (e.g. Human's 468-point mesh). */
export function planarFit(a: Float32Array, b: Float32Array, faceWidth: number): PlanarFit | null {
  const n = Math.min(a.length, b.length) / 2;
  if (n < 8 || faceWidth <= 0) return null;
  const h = fitHomography(a, b, n);
  const af = fitAffine(a, b, n);
  if (!h || !af) return null;
  let hs = 0;
  let as = 0;
  let moved = 0;
  for (let i = 0; i < n; i++) {
    const x = a[2 * i]!;
    const y = a[2 * i + 1]!;
    const u = b[2 * i]!;
    const v = b[2 * i + 1]!;
    const w = h[6]! * x + h[7]! * y + 1;
    hs += ((h[0]! * x + h[1]! * y + h[2]!) / w - u) ** 2 + ((h[3]! * x + h[4]! * y + h[5]!) / w - v) ** 2;
    as += (af[0] * x + af[1] * y + af[2] - u) ** 2 + (af[3] * x + af[4] * y + af[5] - v) ** 2;
    moved += Math.hypot(u - x, v - y);
  }
  return {
    homographyResidual: Math.sqrt(hs / n) / faceWidth,
    affineResidual: Math.sqrt(as / n) / faceWidth,
    displacement: moved / n / faceWidth,
  };
}

/** Isotropic normalisation (Hartley): centroid to 0, mean distance √2. Returns [scale, cx, cy]. */
function normaliser(p: Float32Array, n: number): [number, number, number] {
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < n; i++) {
    cx += p[2 * i]!;
    cy += p[2 * i + 1]!;
  }
  cx /= n;
  cy /= n;
  let d = 0;
  for (let i = 0; i < n; i++) d += Math.hypot(p[2 * i]! - cx, p[2 * i + 1]! - cy);
  d /= n;
  return [d > 0 ? Math.SQRT2 / d : 1, cx, cy];
}

/**
 * Least-squares homography a→b (h33 = 1) on Hartley-normalised points, as 8 values
 * [h11 h12 h13 h21 h22 h23 h31 h32] in the original pixel coordinates. Algebraic error: good enough
 * to tell a plane (residual at the landmark noise) from a head (residual several times larger).
 */
export function fitHomography(a: Float32Array, b: Float32Array, n: number): Float64Array | null {
  const [sa, ax, ay] = normaliser(a, n);
  const [sb, bx, by] = normaliser(b, n);
  const m = new Float64Array(64);
  const r = new Float64Array(8);
  const row = new Float64Array(8);
  const add = (target: number): void => {
    for (let i = 0; i < 8; i++) {
      r[i]! += row[i]! * target;
      for (let j = 0; j < 8; j++) m[i * 8 + j]! += row[i]! * row[j]!;
    }
  };
  for (let i = 0; i < n; i++) {
    const x = (a[2 * i]! - ax) * sa;
    const y = (a[2 * i + 1]! - ay) * sa;
    const u = (b[2 * i]! - bx) * sb;
    const v = (b[2 * i + 1]! - by) * sb;
    row.set([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    add(u);
    row.set([0, 0, 0, x, y, 1, -v * x, -v * y]);
    add(v);
  }
  const hn = solve(m, r, 8);
  if (!hn) return null;
  // H = Tb⁻¹ · Hn · Ta, with T = [s 0 −s·cx; 0 s −s·cy; 0 0 1].
  const Hn = [hn[0]!, hn[1]!, hn[2]!, hn[3]!, hn[4]!, hn[5]!, hn[6]!, hn[7]!, 1];
  const Ta = [sa, 0, -sa * ax, 0, sa, -sa * ay, 0, 0, 1];
  const TbInv = [1 / sb, 0, bx, 0, 1 / sb, by, 0, 0, 1];
  const H = mul3(TbInv, mul3(Hn, Ta));
  const k = H[8]!;
  if (Math.abs(k) < 1e-12) return null;
  return Float64Array.from(H.slice(0, 8).map((v) => v / k));
}

function mul3(p: number[], q: number[]): number[] {
  const out = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) out[i * 3 + j]! += p[i * 3 + k]! * q[k * 3 + j]!;
  return out;
}

/** Gaussian elimination with partial pivoting on an n × n system (m is overwritten). */
function solve(m: Float64Array, r: Float64Array, n: number): Float64Array | null {
  const x = Float64Array.from(r);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let i = c + 1; i < n; i++) if (Math.abs(m[i * n + c]!) > Math.abs(m[p * n + c]!)) p = i;
    if (Math.abs(m[p * n + c]!) < 1e-12) return null;
    if (p !== c) {
      for (let j = 0; j < n; j++) [m[c * n + j], m[p * n + j]] = [m[p * n + j]!, m[c * n + j]!];
      [x[c], x[p]] = [x[p]!, x[c]!];
    }
    for (let i = c + 1; i < n; i++) {
      const f = m[i * n + c]! / m[c * n + c]!;
      if (f === 0) continue;
      for (let j = c; j < n; j++) m[i * n + j]! -= f * m[c * n + j]!;
      x[i]! -= f * x[c]!;
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i]!;
    for (let j = i + 1; j < n; j++) s -= m[i * n + j]! * x[j]!;
    x[i] = s / m[i * n + i]!;
  }
  return x;
}

function fitAffine(a: Float32Array, b: Float32Array, n: number): [number, number, number, number, number, number] | null {
  const m = new Float64Array(9);
  const ru = new Float64Array(3);
  const rv = new Float64Array(3);
  for (let i = 0; i < n; i++) {
    const row = [a[2 * i]!, a[2 * i + 1]!, 1];
    for (let p = 0; p < 3; p++) {
      ru[p]! += row[p]! * b[2 * i]!;
      rv[p]! += row[p]! * b[2 * i + 1]!;
      for (let q = 0; q < 3; q++) m[p * 3 + q]! += row[p]! * row[q]!;
    }
  }
  const pu = solve(Float64Array.from(m), ru, 3);
  const pv = solve(Float64Array.from(m), rv, 3);
  if (!pu || !pv) return null;
  return [pu[0]!, pu[1]!, pu[2]!, pv[0]!, pv[1]!, pv[2]!];
}

/** Image of the points `p` (x, y pairs) under the 8-value homography `h`; used by tests and the bench's simulated attacks. */
export function applyHomography(h: ArrayLike<number>, p: Float32Array): Float32Array {
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length / 2; i++) {
    const x = p[2 * i]!;
    const y = p[2 * i + 1]!;
    const w = h[6]! * x + h[7]! * y + 1;
    out[2 * i] = (h[0]! * x + h[1]! * y + h[2]!) / w;
    out[2 * i + 1] = (h[3]! * x + h[4]! * y + h[5]!) / w;
  }
  return out;
}

/**
 * The homography of a plane (the image plane of a photo of `width` × `height`, centred on the optical
 * axis at distance `distance` in pixels of focal length `focal`) turned by `yaw` and `pitch` radians
 * about its centre: where each photo pixel lands in the camera image. Simulates a print or a screen
 * held up and tilted; used by tests and bench/liveness-real-quality.ts.
 */
export function planeHomography(width: number, height: number, yaw: number, pitch: number, focal: number, distance: number): Float64Array {
  const cx = width / 2;
  const cy = height / 2;
  const [cyw, syw, cp, sp] = [Math.cos(yaw), Math.sin(yaw), Math.cos(pitch), Math.sin(pitch)];
  // Rotation R = Rx(pitch)·Ry(yaw); a photo point (X, Y, 0) relative to the centre goes to R·(X, Y, 0) + (0, 0, distance).
  const r = [cyw, 0, syw, sp * syw, cp, -sp * cyw, -cp * syw, sp, cp * cyw];
  // Columns for X and Y, then the translation; projected with focal length f around (cx, cy).
  const h = [
    focal * r[0]! + cx * r[6]!,
    focal * r[1]! + cx * r[7]!,
    cx * distance,
    focal * r[3]! + cy * r[6]!,
    focal * r[4]! + cy * r[7]!,
    cy * distance,
    r[6]!,
    r[7]!,
    distance,
  ];
  // Photo pixel (x, y) → (X, Y) = (x − cx, y − cy): H · T.
  const t = [1, 0, -cx, 0, 1, -cy, 0, 0, 1];
  const full = mul3(h, t);
  const k = full[8]!;
  return Float64Array.from(full.slice(0, 8).map((v) => v / k));
}
