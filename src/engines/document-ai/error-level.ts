import sharp from 'sharp';

export interface ErrorLevelResult {
  /** Textured 8×8 blocks considered. */
  blocks: number;
  medianError: number;
  /** Blocks whose recompression error stands out from the image's own level. */
  outlierBlocks: number;
  /** The largest connected group of outlier blocks, in pixels of the image. */
  largestRegion: { x: number; y: number; w: number; h: number; blocks: number } | null;
}

/**
 * Error level analysis: recompress at the file's own quality and measure how much each block
 * changes. Areas saved once already (or twice) barely move; content pasted in after the last
 * compression moves more than its surroundings. Only textured blocks count, since flat paper
 * moves for neither.
 */
export interface DecodedGrey {
  data: Buffer;
  info: { width: number; height: number };
}

export async function decodeGrey(jpeg: Buffer): Promise<DecodedGrey> {
  return sharp(jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
}

export async function errorLevels(jpeg: Buffer, quality: number, decoded?: DecodedGrey): Promise<ErrorLevelResult> {
  const original = decoded ?? (await decodeGrey(jpeg));
  const recompressed = await sharp(await sharp(jpeg).jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer())
    .greyscale()
    .raw()
    .toBuffer();
  const { width, height } = original.info;
  const a = original.data;
  const bw = Math.floor(width / 8);
  const bh = Math.floor(height / 8);
  const err = new Float32Array(bw * bh).fill(-1);
  const errors: number[] = [];
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let sum = 0;
      let sq = 0;
      let diff = 0;
      for (let y = by * 8; y < by * 8 + 8; y++) {
        for (let x = bx * 8; x < bx * 8 + 8; x++) {
          const i = y * width + x;
          const v = a[i] ?? 0;
          sum += v;
          sq += v * v;
          diff += Math.abs(v - (recompressed[i] ?? 0));
        }
      }
      const variance = sq / 64 - (sum / 64) ** 2;
      if (variance < 150) continue;
      err[by * bw + bx] = diff / 64;
      errors.push(diff / 64);
    }
  }
  if (errors.length === 0) return { blocks: 0, medianError: 0, outlierBlocks: 0, largestRegion: null };
  const sorted = [...errors].sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const cut = Math.max(median * 2.2, median + 1.5);
  const outlier = new Uint8Array(bw * bh);
  let outlierBlocks = 0;
  for (let i = 0; i < err.length; i++) {
    if ((err[i] ?? -1) > cut) {
      outlier[i] = 1;
      outlierBlocks++;
    }
  }
  return { blocks: errors.length, medianError: round(median), outlierBlocks, largestRegion: largestComponent(outlier, bw, bh) };
}

/** Largest 8-connected group of outlier blocks; one-block gaps are bridged (text has spaces). */
function largestComponent(mask: Uint8Array, bw: number, bh: number): ErrorLevelResult['largestRegion'] {
  const seen = new Uint8Array(mask.length);
  let best: ErrorLevelResult['largestRegion'] = null;
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    const stack = [start];
    seen[start] = 1;
    let count = 0;
    let x0 = bw;
    let y0 = bh;
    let x1 = 0;
    let y1 = 0;
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % bw;
      const y = (i - x) / bw;
      count++;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= bw || ny >= bh) continue;
          const j = ny * bw + nx;
          if (mask[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
    }
    if (!best || count > best.blocks) best = { x: x0 * 8, y: y0 * 8, w: (x1 - x0 + 1) * 8, h: (y1 - y0 + 1) * 8, blocks: count };
  }
  return best;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
