import type { GrayImage } from './image-ops.js';
import { homographyFromPoints, warpPerspective, type Point } from './warp.js';

/**
 * Edge-based document outline: finds the card or data page as the best-supported convex quadrilateral of
 * straight edges, independent of the MRZ (driving-licence fronts, card fronts, unreadable MRZs).
 *
 * 1. Downscale the grey working copy to ~480 px (box average; the outline needs no fine detail and text
 *    strokes blur away).
 * 2. Sobel gradients; edge pixels are local maxima along the gradient above an adaptive threshold.
 * 3. Hough transform restricted to each edge pixel's own gradient direction (±3°), peaks kept with
 *    non-maximum suppression.
 * 4. Every pair of roughly parallel lines × every other roughly parallel pair at 55–125° gives a candidate
 *    quadrilateral. A side's support is the share of points along it with a strong gradient normal to it;
 *    quads must be convex, cover ≥ 8 % of the image, and (when all four sides are real edges) have a
 *    plausible page aspect: ID-1 85.6 × 54 (1.59), ID-3/TD2 125 × 88 / 105 × 74 (1.42), with room for tilt.
 * 5. The image border can stand in for one side whose edge lies outside the photo: the quad is then marked
 *    `cut` (document out of frame) and only used when no quad of four real edges exists. Two or more
 *    missing sides are not judged (a tight crop or scan).
 */

export interface DocumentOutline {
  /** Corners in working-image pixels: top-left, top-right, bottom-right, bottom-left of the landscape page. */
  corners: Point[];
  /** Mean edge support of the real sides (0–1). */
  support: number;
  /** One side is the image border: the page continues beyond the photo. */
  cut: boolean;
  /** Smallest distance of a real side's corner from the image border, as a share of the page diagonal. */
  borderMargin: number;
}

export const OUTLINE_PARAMS = {
  analysisLongSide: 480,
  minSideSupport: 0.5,
  /** Long/short side ratio accepted for a fully visible page (ID-1 1.59, ID-3 1.42; tilt and keystone widen it). */
  minAspect: 1.2,
  maxAspect: 1.9,
  minAreaShare: 0.08,
  /** Virtual support granted to an image-border side (below any well-supported real edge). */
  borderSupport: 0.55,
  /** Largest share of the image's edge pixels allowed outside the page (background is mostly plain). */
  maxOutsideEdgeShare: 0.25,
};

interface Line {
  theta: number;
  rho: number;
  votes: number;
  border: boolean;
}

export function findDocumentOutline(gray: GrayImage): DocumentOutline | null {
  const p = OUTLINE_PARAMS;
  const f = Math.max(1, Math.ceil(Math.max(gray.width, gray.height) / p.analysisLongSide));
  const small = downscale(gray, f);
  const { width: w, height: h } = small;
  const g = sobel(small);
  const lines = houghLines(g, w, h);
  if (lines.length < 2) return null;
  const borders: Line[] = [
    { theta: 0, rho: 0, votes: 0, border: true },
    { theta: 0, rho: w - 1, votes: 0, border: true },
    { theta: Math.PI / 2, rho: 0, votes: 0, border: true },
    { theta: Math.PI / 2, rho: h - 1, votes: 0, border: true },
  ];
  const all = [...lines, ...borders];
  const minSep = 0.12 * Math.min(w, h);
  const pairs: [Line, Line, number][] = [];
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const a = all[i] as Line;
      const b = all[j] as Line;
      if (a.border && b.border) continue;
      const d = angleDiff(a.theta, b.theta);
      if (d > (20 * Math.PI) / 180) continue;
      // Separation measured at the image centre along the mean normal.
      const flip = Math.cos(a.theta - b.theta) < 0 ? -1 : 1; // normals at ~180° (theta wraps): same orientation
      const sep = Math.abs(signedDistance(a, w / 2, h / 2) - flip * signedDistance(b, w / 2, h / 2));
      if (sep < minSep) continue;
      pairs.push([a, b, meanAngle(a.theta, b.theta)]);
    }
  }
  const supportCache = new Map<string, number>();
  const candidates: { corners: Point[]; score: number; support: number; cut: boolean }[] = [];
  for (let i = 0; i < pairs.length; i++) {
    for (let j = i + 1; j < pairs.length; j++) {
      const [a1, a2, ta] = pairs[i] as [Line, Line, number];
      const [b1, b2, tb] = pairs[j] as [Line, Line, number];
      const between = angleDiff(ta, tb);
      if (between < (55 * Math.PI) / 180) continue;
      const sides = [a1, b1, a2, b2];
      if (new Set(sides).size < 4) continue;
      const borderCount = sides.filter((s) => s.border).length;
      if (borderCount > 1) continue;
      const corners = [intersect(a1, b1), intersect(b1, a2), intersect(a2, b2), intersect(b2, a1)];
      if (corners.some((c) => c === null)) continue;
      const quad = corners as Point[];
      if (!convex(quad)) continue;
      const slack = 0.02 * Math.max(w, h);
      if (quad.some((c) => c.x < -slack || c.y < -slack || c.x > w - 1 + slack || c.y > h - 1 + slack)) continue;
      const area = polygonArea(quad);
      if (area < p.minAreaShare * w * h) continue;
      const lens = [0, 1, 2, 3].map((k) => dist(quad[k] as Point, quad[(k + 1) % 4] as Point));
      if (borderCount === 0) {
        const s1 = ((lens[0] ?? 0) + (lens[2] ?? 0)) / 2;
        const s2 = ((lens[1] ?? 0) + (lens[3] ?? 0)) / 2;
        const aspect = Math.max(s1, s2) / Math.max(1, Math.min(s1, s2));
        if (aspect < p.minAspect || aspect > p.maxAspect) continue;
      }
      const sideLines = [b1, a2, b2, a1]; // corner k → k+1 lies on this line (see the intersections above)
      let total = 0;
      let real = 0;
      let ok = true;
      for (let k = 0; k < 4; k++) {
        const line = sideLines[k] as Line;
        if (line.border) {
          total += p.borderSupport;
          continue;
        }
        const from = quad[k] as Point;
        const to = quad[(k + 1) % 4] as Point;
        const key = `${line.theta},${line.rho},${Math.round(from.x)},${Math.round(from.y)},${Math.round(to.x)},${Math.round(to.y)}`;
        let s = supportCache.get(key);
        if (s === undefined) {
          s = sideSupport(g, w, h, from, to);
          supportCache.set(key, s);
        }
        if (s < p.minSideSupport) {
          ok = false;
          break;
        }
        total += s;
        real += s;
      }
      if (!ok) continue;
      const support = real / (4 - borderCount);
      // Well-supported edges first; among similar ones the larger quad (the page, not a printed box on it).
      const score = total / 4 + 0.35 * Math.sqrt(area / (w * h));
      candidates.push({ corners: quad, score, support, cut: borderCount > 0 });
    }
  }
  // A fully visible page (four real edges) always beats one that needs the image border as a side. A
  // printed rectangle on a tightly cropped scan (portrait, stripe, box) leaves the page's text outside it:
  // the page is the quad with little edge structure outside (the background), so such quads are skipped.
  candidates.sort((a, b) => Number(a.cut) - Number(b.cut) || b.score - a.score);
  const best = candidates.slice(0, 40).find((c) => outsideEdgeShare(g, w, h, c.corners) <= p.maxOutsideEdgeShare);
  if (!best) return null;
  const corners = orderLandscape(best.corners).map((c) => ({
    x: Math.min(w - 1, Math.max(0, c.x)) * f + (f - 1) / 2,
    y: Math.min(h - 1, Math.max(0, c.y)) * f + (f - 1) / 2,
  }));
  const diag = Math.hypot(gray.width, gray.height);
  const margin = Math.min(...corners.map((c) => Math.min(c.x, c.y, gray.width - 1 - c.x, gray.height - 1 - c.y)));
  return { corners, support: round3(best.support), cut: best.cut, borderMargin: round3(Math.max(0, margin) / diag) };
}

/** Largest distance between corresponding corners of two outlines, as a share of `reference`'s diagonal. */
export function cornerError(found: Point[], reference: Point[]): number {
  const diag = Math.hypot((reference[2]?.x ?? 0) - (reference[0]?.x ?? 0), (reference[2]?.y ?? 0) - (reference[0]?.y ?? 0)) || 1;
  // The two outlines may start at different corners (180° ambiguity): take the best cyclic alignment.
  let bestErr = Infinity;
  for (let shift = 0; shift < 4; shift++) {
    let worst = 0;
    for (let k = 0; k < 4; k++) worst = Math.max(worst, dist(found[(k + shift) % 4] as Point, reference[k] as Point));
    bestErr = Math.min(bestErr, worst);
  }
  return bestErr / diag;
}

/** Upright page size in pixels for a quad (landscape; 10 px/mm at ID-1 85.6 × 54 or ID-3 125 × 88 shape). */
export function pageSizeFor(corners: Point[]): { width: number; height: number } {
  const top = dist(corners[0] as Point, corners[1] as Point);
  const bottom = dist(corners[3] as Point, corners[2] as Point);
  const left = dist(corners[0] as Point, corners[3] as Point);
  const right = dist(corners[1] as Point, corners[2] as Point);
  const aspect = (top + bottom) / Math.max(1, left + right);
  // Snap to the nearest ICAO size: tilt distorts the measured aspect, the printed page does not change.
  return Math.abs(aspect - 85.6 / 54) < Math.abs(aspect - 125 / 88) ? { width: 856, height: 540 } : { width: 1250, height: 880 };
}

function downscale(img: GrayImage, f: number): GrayImage {
  if (f === 1) return img;
  const w = Math.floor(img.width / f);
  const h = Math.floor(img.height / f);
  const out = new Uint8Array(w * h);
  const area = f * f;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let dy = 0; dy < f; dy++) {
        const row = (y * f + dy) * img.width + x * f;
        for (let dx = 0; dx < f; dx++) s += img.data[row + dx] ?? 0;
      }
      out[y * w + x] = s / area;
    }
  }
  return { data: out, width: w, height: h };
}

interface Gradients {
  gx: Float32Array;
  gy: Float32Array;
  mag: Float32Array;
  threshold: number;
}

function sobel(img: GrayImage): Gradients {
  const { width: w, height: h, data: d } = img;
  // A light 3x3 blur first so paper grain and halftone do not become edges.
  const s = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      s[i] =
        ((d[i - w - 1] ?? 0) +
          2 * (d[i - w] ?? 0) +
          (d[i - w + 1] ?? 0) +
          2 * (d[i - 1] ?? 0) +
          4 * (d[i] ?? 0) +
          2 * (d[i + 1] ?? 0) +
          (d[i + w - 1] ?? 0) +
          2 * (d[i + w] ?? 0) +
          (d[i + w + 1] ?? 0)) /
        16;
    }
  }
  const gx = new Float32Array(w * h);
  const gy = new Float32Array(w * h);
  const mag = new Float32Array(w * h);
  const hist = new Uint32Array(256);
  for (let y = 2; y < h - 2; y++) {
    for (let x = 2; x < w - 2; x++) {
      const i = y * w + x;
      const a = s[i - w - 1] ?? 0,
        b = s[i - w] ?? 0,
        c = s[i - w + 1] ?? 0,
        dd = s[i - 1] ?? 0,
        e = s[i + 1] ?? 0,
        ff = s[i + w - 1] ?? 0,
        gg = s[i + w] ?? 0,
        hh = s[i + w + 1] ?? 0;
      const vx = c + 2 * e + hh - a - 2 * dd - ff;
      const vy = ff + 2 * gg + hh - a - 2 * b - c;
      gx[i] = vx;
      gy[i] = vy;
      const m = Math.hypot(vx, vy);
      mag[i] = m;
      const bin = Math.min(255, Math.round(m / 4));
      hist[bin] = (hist[bin] ?? 0) + 1;
    }
  }
  // Edge threshold: the 90th percentile of gradient magnitude, at least 40 (a 10-grey-level step).
  const total = (w - 4) * (h - 4);
  let acc = 0;
  let p90 = 255;
  for (let v = 0; v < 256; v++) {
    acc += hist[v] ?? 0;
    if (acc >= 0.9 * total) {
      p90 = v;
      break;
    }
  }
  return { gx, gy, mag, threshold: Math.max(40, p90 * 4) };
}

const THETA_BINS = 180;

function houghLines(g: Gradients, w: number, h: number): Line[] {
  const maxRho = Math.ceil(Math.hypot(w, h));
  const rhoBins = 2 * maxRho + 1;
  const acc = new Uint16Array(THETA_BINS * rhoBins);
  const cos = new Float64Array(THETA_BINS);
  const sin = new Float64Array(THETA_BINS);
  for (let t = 0; t < THETA_BINS; t++) {
    cos[t] = Math.cos((t * Math.PI) / THETA_BINS);
    sin[t] = Math.sin((t * Math.PI) / THETA_BINS);
  }
  const { gx, gy, mag, threshold } = g;
  for (let y = 2; y < h - 2; y++) {
    for (let x = 2; x < w - 2; x++) {
      const i = y * w + x;
      const m = mag[i] ?? 0;
      if (m < threshold) continue;
      // Non-maximum suppression along the gradient direction (thin edges vote once).
      const ux = (gx[i] ?? 0) / m;
      const uy = (gy[i] ?? 0) / m;
      const ox = Math.round(ux);
      const oy = Math.round(uy);
      if ((mag[i + oy * w + ox] ?? 0) > m || (mag[i - oy * w - ox] ?? 0) > m) continue;
      let theta = Math.atan2(uy, ux);
      if (theta < 0) theta += Math.PI;
      const tc = Math.round((theta / Math.PI) * THETA_BINS);
      for (let dt = -3; dt <= 3; dt++) {
        const t = (tc + dt + THETA_BINS) % THETA_BINS;
        const rho = Math.round(x * (cos[t] ?? 0) + y * (sin[t] ?? 0));
        const k = t * rhoBins + rho + maxRho;
        acc[k] = (acc[k] ?? 0) + 1;
      }
    }
  }
  const minVotes = Math.max(12, Math.round(0.12 * Math.min(w, h)));
  const peaks: Line[] = [];
  for (let t = 0; t < THETA_BINS; t++) {
    for (let r = 0; r < rhoBins; r++) {
      const v = acc[t * rhoBins + r] ?? 0;
      if (v < minVotes) continue;
      let isMax = true;
      for (let dt = -4; dt <= 4 && isMax; dt++) {
        for (let dr = -6; dr <= 6; dr++) {
          if (dt === 0 && dr === 0) continue;
          let tt = t + dt;
          let rr = r + dr;
          // theta wraps with rho mirrored.
          if (tt < 0) {
            tt += THETA_BINS;
            rr = 2 * maxRho - rr;
          } else if (tt >= THETA_BINS) {
            tt -= THETA_BINS;
            rr = 2 * maxRho - rr;
          }
          if (rr < 0 || rr >= rhoBins) continue;
          const u = acc[tt * rhoBins + rr] ?? 0;
          if (u > v || (u === v && tt * rhoBins + rr < t * rhoBins + r)) {
            isMax = false;
            break;
          }
        }
      }
      if (isMax) peaks.push({ theta: (t * Math.PI) / THETA_BINS, rho: r - maxRho, votes: v, border: false });
    }
  }
  peaks.sort((a, b) => b.votes - a.votes);
  return peaks.slice(0, 30);
}

function signedDistance(l: Line, x: number, y: number): number {
  return x * Math.cos(l.theta) + y * Math.sin(l.theta) - l.rho;
}

function angleDiff(a: number, b: number): number {
  const d = Math.abs(a - b) % Math.PI;
  return Math.min(d, Math.PI - d);
}

function meanAngle(a: number, b: number): number {
  let d = b - a;
  if (d > Math.PI / 2) d -= Math.PI;
  if (d < -Math.PI / 2) d += Math.PI;
  let m = a + d / 2;
  if (m < 0) m += Math.PI;
  if (m >= Math.PI) m -= Math.PI;
  return m;
}

function intersect(a: Line, b: Line): Point | null {
  const ca = Math.cos(a.theta),
    sa = Math.sin(a.theta),
    cb = Math.cos(b.theta),
    sb = Math.sin(b.theta);
  const det = ca * sb - sa * cb;
  if (Math.abs(det) < 1e-6) return null;
  return { x: (a.rho * sb - b.rho * sa) / det, y: (ca * b.rho - cb * a.rho) / det };
}

function convex(q: Point[]): boolean {
  let sign = 0;
  for (let k = 0; k < 4; k++) {
    const a = q[k] as Point,
      b = q[(k + 1) % 4] as Point,
      c = q[(k + 2) % 4] as Point;
    const cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
    if (Math.abs(cross) < 1e-9) return false;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

function polygonArea(q: Point[]): number {
  let s = 0;
  for (let k = 0; k < q.length; k++) {
    const a = q[k] as Point,
      b = q[(k + 1) % q.length] as Point;
    s += a.x * b.y - b.x * a.y;
  }
  return Math.abs(s) / 2;
}

function dist(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** Share of points along a side (corners excluded) with a strong gradient normal to it within ±2 px. */
function sideSupport(g: Gradients, w: number, h: number, from: Point, to: Point): number {
  const len = dist(from, to);
  if (len < 8) return 0;
  const tx = (to.x - from.x) / len;
  const ty = (to.y - from.y) / len;
  const nx = -ty;
  const ny = tx;
  const samples = Math.max(12, Math.min(120, Math.round(len / 2)));
  let hit = 0;
  let n = 0;
  for (let s = 0; s < samples; s++) {
    const u = 0.06 + (0.88 * s) / (samples - 1);
    const px = from.x + (to.x - from.x) * u;
    const py = from.y + (to.y - from.y) * u;
    n++;
    for (let o = -2; o <= 2; o++) {
      const x = Math.round(px + nx * o);
      const y = Math.round(py + ny * o);
      if (x < 2 || y < 2 || x >= w - 2 || y >= h - 2) continue;
      const i = y * w + x;
      const m = g.mag[i] ?? 0;
      if (m < g.threshold * 0.7) continue;
      const cosAngle = Math.abs(((g.gx[i] ?? 0) * nx + (g.gy[i] ?? 0) * ny) / m);
      if (cosAngle >= 0.9) {
        hit++;
        break;
      }
    }
  }
  return n === 0 ? 0 : hit / n;
}

/** Share of edge pixels (above the edge threshold) lying outside the quad grown by 3 % of its size. */
function outsideEdgeShare(g: Gradients, w: number, h: number, quad: Point[]): number {
  const cx = quad.reduce((s, c) => s + c.x, 0) / 4;
  const cy = quad.reduce((s, c) => s + c.y, 0) / 4;
  const grown = quad.map((c) => ({ x: cx + (c.x - cx) * 1.03, y: cy + (c.y - cy) * 1.03 }));
  let all = 0;
  let out = 0;
  for (let y = 2; y < h - 2; y += 2) {
    for (let x = 2; x < w - 2; x += 2) {
      if ((g.mag[y * w + x] ?? 0) < g.threshold) continue;
      all++;
      if (!inside(grown, x, y)) out++;
    }
  }
  return all === 0 ? 1 : out / all;
}

function inside(q: Point[], x: number, y: number): boolean {
  let sign = 0;
  for (let k = 0; k < 4; k++) {
    const a = q[k] as Point,
      b = q[(k + 1) % 4] as Point;
    const cross = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

/** Orders corners clockwise from the top-left of the landscape page (long sides top and bottom). */
function orderLandscape(q: Point[]): Point[] {
  const cx = q.reduce((s, c) => s + c.x, 0) / 4;
  const cy = q.reduce((s, c) => s + c.y, 0) / 4;
  const cw = [...q].sort((a, b) => Math.atan2(a.y - cy, a.x - cx) - Math.atan2(b.y - cy, b.x - cx)); // clockwise in image coords
  // Start at the corner with the smallest x + y (top-left).
  let start = 0;
  for (let k = 1; k < 4; k++) if ((cw[k]?.x ?? 0) + (cw[k]?.y ?? 0) < (cw[start]?.x ?? 0) + (cw[start]?.y ?? 0)) start = k;
  let out = [0, 1, 2, 3].map((k) => cw[(start + k) % 4] as Point);
  // Long sides horizontal: if the first side (top) is shorter than the second, rotate by one corner.
  if (dist(out[0] as Point, out[1] as Point) < dist(out[1] as Point, out[2] as Point)) out = [out[3], out[0], out[1], out[2]] as Point[];
  return out;
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/** Corner difference (share of the MRZ outline's diagonal) up to which the edge outline confirms the MRZ's. */
export const OUTLINE_AGREEMENT = 0.05;
/** Edge support a cut outline needs before "page edge at the image border" counts as out of frame. */
export const CUT_MIN_SUPPORT = 0.85;

export interface ReconciledOutline {
  /** The outline quality measurements use (working pixels), or null. */
  quad: Point[] | null;
  source: 'edges' | 'mrz' | 'edges+mrz' | null;
  /** Corner difference between edge and MRZ outlines, when both exist. */
  agreement: number | null;
  /** No usable outline, but a well-supported edge outline runs into the image border. */
  cutAtBorder: boolean;
  /** The fully visible edge outline, when one was found and not contradicted by the MRZ. */
  edge: DocumentOutline | null;
}

/**
 * Cross-check of the two outlines. The MRZ's outline rests on ICAO geometry (±3 mm); the edge outline is
 * exact when right but can lock onto a printed rectangle on a tightly cropped scan. So: the edge outline is
 * used when it is fully visible and either there is no MRZ or the two agree within 5 % of the diagonal;
 * otherwise the MRZ's outline (when any) is used as before.
 */
export function reconcileOutline(mrzQuad: Point[] | null, edge: DocumentOutline | null): ReconciledOutline {
  const agreement = edge && mrzQuad ? round3(cornerError(edge.corners, mrzQuad)) : null;
  if (edge && !edge.cut && (mrzQuad === null || (agreement !== null && agreement <= OUTLINE_AGREEMENT))) {
    return { quad: edge.corners, source: mrzQuad ? 'edges+mrz' : 'edges', agreement, cutAtBorder: false, edge };
  }
  if (mrzQuad) return { quad: mrzQuad, source: 'mrz', agreement, cutAtBorder: false, edge: null };
  return { quad: null, source: null, agreement, cutAtBorder: edge !== null && edge.cut && edge.support >= CUT_MIN_SUPPORT, edge: null };
}

/** Upright page (landscape, ICAO size at 10 px/mm) warped out of the RGB working copy. */
export function warpPage(
  rgb: Uint8Array,
  width: number,
  height: number,
  corners: Point[],
): { data: Uint8Array; width: number; height: number } {
  const size = pageSizeFor(corners);
  const dst: Point[] = [
    { x: 0, y: 0 },
    { x: size.width - 1, y: 0 },
    { x: size.width - 1, y: size.height - 1 },
    { x: 0, y: size.height - 1 },
  ];
  const data = warpPerspective({ data: rgb, width, height, channels: 3 }, homographyFromPoints(dst, corners), size.width, size.height, {
    fill: [255, 255, 255],
  });
  return { data, width: size.width, height: size.height };
}
