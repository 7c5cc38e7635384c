/**
 * Face alignment for the recognition net: five landmarks of Human's face mesh (eye centres, nose tip,
 * mouth corners) are mapped by a least-squares similarity transform (scale, rotation, shift; no shear)
 * onto where face-api's own alignment puts them in its 150 × 150 chip, and the chip is resampled from
 * the image with that transform. face-api's recognition net (dlib ResNet) was trained on that framing:
 * with an ArcFace-style crop instead the same net fell from TAR 0.97 to 0.60 at FAR 1 % (DEPENDENCIES.md).
 *
 * The template follows face-api's own descriptor framing (`landmarks.align(null, { useDlibAlignment: true })`):
 * a square of side d / 0.45 (d: mean distance from the mouth centre to each eye centre) whose left and
 * top edges sit 0.5 and 0.43 of a side from the centroid of the two eye centres and the mouth centre.
 * The face's proportions in it (eye spacing, eye-to-mouth height, nose, mouth width) are the mean of
 * Human's five points on the 50 single-face images of ../shared/data/faces/deepface_subset, made
 * left/right symmetric. On 601 pairs of ../shared/data/real/faces (every 10th) this framing gave ROC AUC
 * 0.9985 and TAR 0.993 at FAR 1 %; the landmark-box framing of face-api's alignedRect gave 0.9981 / 0.983.
 */

export const CHIP_SIZE = 150;

/** Mesh indices (MediaPipe face mesh, 468 points) averaged into each of the five points. */
export const FIVE_POINT_MESH_INDICES: readonly (readonly number[])[] = [
  [33, 133], // eye on the image's left: outer and inner corner
  [362, 263], // eye on the image's right
  [1], // nose tip
  [61], // mouth corner, image left
  [291], // mouth corner, image right
];

/** Where face-api's alignment puts the five points in its 150 px chip (x, y pairs). */
export const CHIP_TEMPLATE: readonly number[] = [44.72, 44.39, 105.28, 44.39, 75.0, 82.4, 47.53, 104.73, 102.47, 104.73];

/** Five points (x, y pairs, 10 values) from a flattened 468-point mesh; null when the mesh is missing. */
export function fivePoints(mesh: Float32Array): Float64Array | null {
  if (mesh.length < 468 * 2) return null;
  const out = new Float64Array(10);
  FIVE_POINT_MESH_INDICES.forEach((indices, k) => {
    let x = 0;
    let y = 0;
    for (const i of indices) {
      x += mesh[2 * i]!;
      y += mesh[2 * i + 1]!;
    }
    out[2 * k] = x / indices.length;
    out[2 * k + 1] = y / indices.length;
  });
  for (const v of out) if (!Number.isFinite(v)) return null;
  return out;
}

/** dst ≈ [a −b; b a]·src + [tx, ty]. */
export interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

/** Least-squares similarity transform taking the points `src` onto `dst` (x, y pairs of equal length). */
export function fitSimilarity(src: ArrayLike<number>, dst: ArrayLike<number>): Similarity | null {
  const n = Math.min(src.length, dst.length) / 2;
  if (n < 2) return null;
  let sx = 0,
    sy = 0,
    dx = 0,
    dy = 0;
  for (let i = 0; i < n; i++) {
    sx += src[2 * i]!;
    sy += src[2 * i + 1]!;
    dx += dst[2 * i]!;
    dy += dst[2 * i + 1]!;
  }
  sx /= n;
  sy /= n;
  dx /= n;
  dy /= n;
  let dot = 0;
  let cross = 0;
  let norm = 0;
  for (let i = 0; i < n; i++) {
    const px = src[2 * i]! - sx;
    const py = src[2 * i + 1]! - sy;
    const qx = dst[2 * i]! - dx;
    const qy = dst[2 * i + 1]! - dy;
    dot += px * qx + py * qy;
    cross += px * qy - py * qx;
    norm += px * px + py * py;
  }
  if (norm < 1e-9) return null;
  const a = dot / norm;
  const b = cross / norm;
  return { a, b, tx: dx - (a * sx - b * sy), ty: dy - (b * sx + a * sy) };
}

/**
 * The 150 × 150 RGB chip (float values 0..255, row-major, 3 per pixel) sampled bilinearly from packed
 * RGB `rgb` (`width` × `height`) under the transform taking image points to chip points. Outside the
 * image is black, as face-api pads.
 */
export function warpChip(rgb: Uint8Array, width: number, height: number, t: Similarity, size = CHIP_SIZE): Float32Array {
  const det = t.a * t.a + t.b * t.b;
  // Inverse of [a −b; b a]: [a b; −b a] / det.
  const ia = t.a / det;
  const ib = t.b / det;
  const out = new Float32Array(size * size * 3);
  for (let v = 0; v < size; v++) {
    for (let u = 0; u < size; u++) {
      const cx = u + 0.5 - t.tx;
      const cy = v + 0.5 - t.ty;
      const x = ia * cx + ib * cy - 0.5;
      const y = -ib * cx + ia * cy - 0.5;
      const o = (v * size + u) * 3;
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      const fx = x - x0;
      const fy = y - y0;
      for (let c = 0; c < 3; c++) {
        const p00 = pixel(rgb, width, height, x0, y0, c);
        const p10 = pixel(rgb, width, height, x0 + 1, y0, c);
        const p01 = pixel(rgb, width, height, x0, y0 + 1, c);
        const p11 = pixel(rgb, width, height, x0 + 1, y0 + 1, c);
        out[o + c] = (p00 * (1 - fx) + p10 * fx) * (1 - fy) + (p01 * (1 - fx) + p11 * fx) * fy;
      }
    }
  }
  return out;
}

function pixel(rgb: Uint8Array, width: number, height: number, x: number, y: number, c: number): number {
  if (x < 0 || y < 0 || x >= width || y >= height) return 0;
  return rgb[(y * width + x) * 3 + c]!;
}

/** The aligned chip of a face given its mesh, or null when the mesh is missing or degenerate. */
export function alignedChip(rgb: Uint8Array, width: number, height: number, mesh: Float32Array): Float32Array | null {
  const points = fivePoints(mesh);
  if (!points) return null;
  const t = fitSimilarity(points, CHIP_TEMPLATE);
  if (!t) return null;
  return warpChip(rgb, width, height, t);
}
