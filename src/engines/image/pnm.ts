/**
 * Raw 8-bit pixels as a binary PNM file (P5 grey, P6 RGB, maxval 255), the form tesseract.js is given (the MRZ
 * reader's bands, the text engine's pages). Its leptonica reads PNM without inflating anything: the same pixels as
 * a PNG (lossless either way), without the PNG's encoding here and decoding in the worker (about 4 ms of a pass over
 * an MRZ band, ~12 + ~100 ms of a 1,300 × 1,850 page; measured 2026-11-30).
 */
export function pnm(data: Uint8Array, width: number, height: number, channels: 1 | 3): Buffer {
  const size = width * height * channels;
  if (data.length < size) throw new RangeError(`pnm: ${data.length} bytes for ${width} x ${height} x ${channels}`);
  const header = Buffer.from(`${channels === 1 ? 'P5' : 'P6'}\n${width} ${height}\n255\n`, 'ascii');
  return Buffer.concat([header, data.subarray(0, size)]);
}

/** RGBA pixels without their alpha. */
export function rgbaToRgb(rgba: Uint8Array | Uint8ClampedArray): Uint8Array {
  const n = rgba.length >> 2;
  const rgb = new Uint8Array(n * 3);
  for (let i = 0, j = 0, k = 0; i < n; i++, j += 4, k += 3) {
    rgb[k] = rgba[j] as number;
    rgb[k + 1] = rgba[j + 1] as number;
    rgb[k + 2] = rgba[j + 2] as number;
  }
  return rgb;
}

/** Width and height from a P5 or P6 header as `pnm` writes it (single whitespace, no comments); null otherwise. */
export function pnmSize(image: Buffer): { width: number; height: number } | null {
  const m = /^P[56]\n(\d+) (\d+)\n255\n/.exec(image.toString('latin1', 0, Math.min(image.length, 40)));
  return m ? { width: Number(m[1]), height: Number(m[2]) } : null;
}
