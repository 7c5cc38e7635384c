/** Grey-level image operations on plain Uint8Arrays (row-major, one byte per pixel). */

export interface GrayImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The grey level under which a share `q` (0-1) of the pixels lie, for any q, from one histogram of `data`. */
export function grayPercentiles(data: Uint8Array): (q: number) => number {
  const hist = new Uint32Array(256);
  for (const v of data) hist[v] = (hist[v] ?? 0) + 1;
  return (q) => {
    let acc = 0;
    for (let v = 0; v < 256; v++) {
      acc += hist[v] ?? 0;
      if (acc >= q * data.length) return v;
    }
    return 255;
  };
}

/**
 * Sliding-window maximum (or minimum) over [i − ⌊k/2⌋, i + ⌊k/2⌋] along rows (`horizontal`) or columns, clipped at
 * the borders, by van Herk / Gil-Werman: the line is padded with the neutral value (0 for max, 255 for min, so the
 * clipped window gives the same result), cut into blocks of the window's size, and each output is the operation of
 * one block-suffix and one block-prefix value: three operations per pixel whatever the window. Columns are swept
 * a whole row at a time (row-major, cache-friendly). The MRZ locator runs a dozen of these per document.
 */
function filter1d(src: Uint8Array, w: number, h: number, k: number, horizontal: boolean, isMax: boolean): Uint8Array {
  const r = Math.floor(k / 2);
  const m = 2 * r + 1;
  const neutral = isMax ? 0 : 255;
  const out = new Uint8Array(src.length);
  if (horizontal) {
    const len = Math.ceil((w + 2 * r) / m) * m;
    const ext = new Uint8Array(len);
    const pre = new Uint8Array(len);
    const suf = new Uint8Array(len);
    for (let y = 0; y < h; y++) {
      ext.fill(neutral);
      ext.set(src.subarray(y * w, y * w + w), r);
      for (let j = 0; j < len; j++) {
        const v = ext[j]!;
        if (j % m === 0) pre[j] = v;
        else {
          const p = pre[j - 1]!;
          pre[j] = isMax ? (p > v ? p : v) : p < v ? p : v;
        }
      }
      for (let j = len - 1; j >= 0; j--) {
        const v = ext[j]!;
        if (j % m === m - 1) suf[j] = v;
        else {
          const q = suf[j + 1]!;
          suf[j] = isMax ? (q > v ? q : v) : q < v ? q : v;
        }
      }
      const row = y * w;
      for (let i = 0; i < w; i++) {
        const a = suf[i]!;
        const b = pre[i + m - 1]!;
        out[row + i] = isMax ? (a > b ? a : b) : a < b ? a : b;
      }
    }
    return out;
  }
  // Columns: the same on whole rows. Padded row j is source row j − r, or neutral outside the image, where the
  // operation with it leaves the running prefix (suffix) as it was.
  const len = Math.ceil((h + 2 * r) / m) * m;
  const pre = new Uint8Array(len * w);
  const suf = new Uint8Array(len * w);
  const sourceRow = (j: number): Uint8Array | null => (j >= r && j - r < h ? src.subarray((j - r) * w, (j - r + 1) * w) : null);
  for (let j = 0; j < len; j++) {
    const v = sourceRow(j);
    const at = j * w;
    const blockStart = j % m === 0;
    if (!v) {
      if (blockStart) pre.fill(neutral, at, at + w);
      else pre.copyWithin(at, at - w, at);
    } else if (blockStart) pre.set(v, at);
    else
      for (let x = 0; x < w; x++) {
        const p = pre[at - w + x]!;
        const c = v[x]!;
        pre[at + x] = isMax ? (p > c ? p : c) : p < c ? p : c;
      }
  }
  for (let j = len - 1; j >= 0; j--) {
    const v = sourceRow(j);
    const at = j * w;
    const blockEnd = j % m === m - 1;
    if (!v) {
      if (blockEnd) suf.fill(neutral, at, at + w);
      else suf.copyWithin(at, at + w, at + 2 * w);
    } else if (blockEnd) suf.set(v, at);
    else
      for (let x = 0; x < w; x++) {
        const q = suf[at + w + x]!;
        const c = v[x]!;
        suf[at + x] = isMax ? (q > c ? q : c) : q < c ? q : c;
      }
  }
  for (let y = 0; y < h; y++) {
    const a0 = y * w;
    const b0 = (y + m - 1) * w;
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const a = suf[a0 + x]!;
      const b = pre[b0 + x]!;
      out[row + x] = isMax ? (a > b ? a : b) : a < b ? a : b;
    }
  }
  return out;
}

export function dilate(img: GrayImage, kw: number, kh: number): GrayImage {
  const a = kw > 1 ? filter1d(img.data, img.width, img.height, kw, true, true) : img.data;
  return { ...img, data: kh > 1 ? filter1d(a, img.width, img.height, kh, false, true) : a };
}

export function erode(img: GrayImage, kw: number, kh: number): GrayImage {
  const a = kw > 1 ? filter1d(img.data, img.width, img.height, kw, true, false) : img.data;
  return { ...img, data: kh > 1 ? filter1d(a, img.width, img.height, kh, false, false) : a };
}

export function close(img: GrayImage, kw: number, kh: number): GrayImage {
  return erode(dilate(img, kw, kh), kw, kh);
}

/** Closing minus the image: dark details smaller than the kernel (text strokes) become bright. */
export function blackhat(img: GrayImage, kw: number, kh: number): GrayImage {
  const c = close(img, kw, kh);
  const out = new Uint8Array(img.data.length);
  for (let i = 0; i < out.length; i++) out[i] = (c.data[i] ?? 0) - (img.data[i] ?? 0);
  return { ...img, data: out };
}

/** |d/dx| with a central difference, stretched to 0..255. */
export function gradientX(img: GrayImage): GrayImage {
  const { width: w, height: h, data } = img;
  const g = new Float32Array(data.length);
  let max = 1;
  for (let y = 0; y < h; y++) {
    for (let x = 1; x < w - 1; x++) {
      const v = Math.abs((data[y * w + x + 1] ?? 0) - (data[y * w + x - 1] ?? 0));
      g[y * w + x] = v;
      if (v > max) max = v;
    }
  }
  const out = new Uint8Array(data.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.round(((g[i] ?? 0) * 255) / max);
  return { ...img, data: out };
}

export function otsuThreshold(data: Uint8Array): number {
  const hist = new Float64Array(256);
  for (const v of data) hist[v] = (hist[v] ?? 0) + 1;
  const total = data.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * (hist[i] ?? 0);
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let bestT = 127;
  for (let t = 0; t < 256; t++) {
    wB += hist[t] ?? 0;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * (hist[t] ?? 0);
    const mB = sumB / wB;
    const mF = (sumAll - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      bestT = t;
    }
  }
  return bestT;
}

/** A connected component with the moments needed for its orientation (principal axis). */
export interface Component {
  count: number;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
  cx: number;
  cy: number;
  /** Angle of the principal axis in radians, in (-pi/2, pi/2]. */
  angle: number;
  /** Extent along and across the principal axis, assuming a filled bar (sqrt(12 * variance)). */
  length: number;
  thickness: number;
}

export function components(mask: Uint8Array, w: number, h: number, minCount = 20): Component[] {
  const labels = new Int32Array(w * h);
  const stack = new Int32Array(w * h);
  const out: Component[] = [];
  let next = 0;
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || labels[start]) continue;
    next++;
    let sp = 0;
    stack[sp++] = start;
    labels[start] = next;
    let n = 0,
      sx = 0,
      sy = 0,
      sxx = 0,
      syy = 0,
      sxy = 0;
    let minX = w,
      maxX = 0,
      minY = h,
      maxY = 0;
    while (sp > 0) {
      const p = stack[--sp] ?? 0;
      const x = p % w;
      const y = (p - x) / w;
      n++;
      sx += x;
      sy += y;
      sxx += x * x;
      syy += y * y;
      sxy += x * y;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      const nb = [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, y > 0 ? p - w : -1, y < h - 1 ? p + w : -1];
      for (const q of nb) {
        if (q >= 0 && mask[q] && !labels[q]) {
          labels[q] = next;
          stack[sp++] = q;
        }
      }
    }
    if (n < minCount) continue;
    const cx = sx / n;
    const cy = sy / n;
    const vxx = sxx / n - cx * cx;
    const vyy = syy / n - cy * cy;
    const vxy = sxy / n - cx * cy;
    const tr = (vxx + vyy) / 2;
    const det = Math.sqrt(Math.max(0, ((vxx - vyy) / 2) ** 2 + vxy * vxy));
    let angle = 0.5 * Math.atan2(2 * vxy, vxx - vyy);
    if (angle <= -Math.PI / 2) angle += Math.PI;
    out.push({
      count: n,
      minX,
      maxX,
      minY,
      maxY,
      cx,
      cy,
      angle,
      length: Math.sqrt(12 * (tr + det)),
      thickness: Math.sqrt(12 * Math.max(0, tr - det)),
    });
  }
  return out;
}

/** Variance of the 4-neighbour Laplacian: low when edges are soft (defocus or motion blur). */
export function laplacianVariance(img: GrayImage): number {
  const { width: w, height: h, data } = img;
  let sum = 0;
  let sq = 0;
  let n = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const l = (data[i - 1] ?? 0) + (data[i + 1] ?? 0) + (data[i - w] ?? 0) + (data[i + w] ?? 0) - 4 * (data[i] ?? 0);
      sum += l;
      sq += l * l;
      n++;
    }
  }
  if (n === 0) return 0;
  const mean = sum / n;
  return sq / n - mean * mean;
}
