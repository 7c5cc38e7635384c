/**
 * Renders an RGB image through a homography (inverse mapping, bilinear): a photo seen as a plane held up
 * and tilted in front of a camera. Used by the liveness benches to simulate print and screen attacks. Black outside the source.
 */
export function warpPerspective(rgb: Buffer, w: number, h: number, H: Float64Array): Buffer {
  // Inverse of the 3 × 3 matrix [H, 1].
  const m = [H[0]!, H[1]!, H[2]!, H[3]!, H[4]!, H[5]!, H[6]!, H[7]!, 1];
  const inv = [
    m[4]! * m[8]! - m[5]! * m[7]!,
    m[2]! * m[7]! - m[1]! * m[8]!,
    m[1]! * m[5]! - m[2]! * m[4]!,
    m[5]! * m[6]! - m[3]! * m[8]!,
    m[0]! * m[8]! - m[2]! * m[6]!,
    m[2]! * m[3]! - m[0]! * m[5]!,
    m[3]! * m[7]! - m[4]! * m[6]!,
    m[1]! * m[6]! - m[0]! * m[7]!,
    m[0]! * m[4]! - m[1]! * m[3]!,
  ];
  const out = Buffer.alloc(w * h * 3);
  for (let v = 0; v < h; v++)
    for (let u = 0; u < w; u++) {
      const z = inv[6]! * u + inv[7]! * v + inv[8]!;
      const x = (inv[0]! * u + inv[1]! * v + inv[2]!) / z;
      const y = (inv[3]! * u + inv[4]! * v + inv[5]!) / z;
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= w || y0 + 1 >= h) continue;
      const fx = x - x0;
      const fy = y - y0;
      for (let c = 0; c < 3; c++) {
        const p = (yy: number, xx: number): number => rgb[(yy * w + xx) * 3 + c]!;
        out[(v * w + u) * 3 + c] = Math.round(
          (p(y0, x0) * (1 - fx) + p(y0, x0 + 1) * fx) * (1 - fy) + (p(y0 + 1, x0) * (1 - fx) + p(y0 + 1, x0 + 1) * fx) * fy,
        );
      }
    }
  return out;
}
