/**
 * Frame-to-frame motion of the face mesh. A flat photo or a screen moved in front of the camera
 * moves rigidly: one 2-D affine map explains every landmark's displacement. A live head turning,
 * blinking or talking moves in depth and deforms, leaving a residual the affine map cannot explain.
 */

export interface MeshMotion {
  /** Mean landmark displacement between the two frames, as a share of face width. */
  displacement: number;
  /** RMS residual after the best affine fit, as a share of face width: the non-rigid part. */
  nonRigidResidual: number;
}

/** `a`, `b`: flattened x,y landmark lists of the same mesh topology; `faceWidth` in the same pixels. */
export function meshMotion(a: Float32Array, b: Float32Array, faceWidth: number): MeshMotion | null {
  const n = Math.min(a.length, b.length) / 2;
  if (n < 6 || faceWidth <= 0) return null;
  let moved = 0;
  for (let i = 0; i < n; i++) moved += Math.hypot(b[2 * i]! - a[2 * i]!, b[2 * i + 1]! - a[2 * i + 1]!);
  const affine = fitAffine(a, b, n);
  if (!affine) return null;
  let sq = 0;
  for (let i = 0; i < n; i++) {
    const x = a[2 * i]!;
    const y = a[2 * i + 1]!;
    const px = affine[0] * x + affine[1] * y + affine[2];
    const py = affine[3] * x + affine[4] * y + affine[5];
    sq += (px - b[2 * i]!) ** 2 + (py - b[2 * i + 1]!) ** 2;
  }
  return { displacement: moved / n / faceWidth, nonRigidResidual: Math.sqrt(sq / n) / faceWidth };
}

/** Least-squares affine map a→b; the two output coordinates share one 3×3 normal system. */
function fitAffine(a: Float32Array, b: Float32Array, n: number): [number, number, number, number, number, number] | null {
  // Centre coordinates to keep the normal equations well conditioned at pixel scale.
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += a[2 * i]!;
    my += a[2 * i + 1]!;
  }
  mx /= n;
  my /= n;
  let sxx = 0,
    sxy = 0,
    syy = 0,
    sxu = 0,
    syu = 0,
    sxv = 0,
    syv = 0,
    su = 0,
    sv = 0;
  for (let i = 0; i < n; i++) {
    const x = a[2 * i]! - mx;
    const y = a[2 * i + 1]! - my;
    const u = b[2 * i]!;
    const v = b[2 * i + 1]!;
    sxx += x * x;
    sxy += x * y;
    syy += y * y;
    sxu += x * u;
    syu += y * u;
    sxv += x * v;
    syv += y * v;
    su += u;
    sv += v;
  }
  const det = sxx * syy - sxy * sxy;
  if (Math.abs(det) < 1e-9) return null;
  const p = (syy * sxu - sxy * syu) / det;
  const q = (sxx * syu - sxy * sxu) / det;
  const r = (syy * sxv - sxy * syv) / det;
  const s = (sxx * syv - sxy * sxv) / det;
  const tu = su / n - p * mx - q * my;
  const tv = sv / n - r * mx - s * my;
  return [p, q, tu, r, s, tv];
}
