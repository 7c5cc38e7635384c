/** Baseline IJG luminance quantisation table (quality 50), in zig-zag order as stored in DQT. */
const IJG_LUMA = [
  16, 11, 12, 14, 12, 10, 16, 14, 13, 14, 18, 17, 16, 19, 24, 40, 26, 24, 22, 22, 24, 49, 35, 37, 29, 40, 58, 51, 61, 60, 57, 51, 56, 55,
  64, 72, 92, 78, 64, 68, 87, 69, 55, 56, 80, 109, 81, 87, 95, 98, 103, 104, 103, 62, 77, 113, 121, 112, 100, 120, 92, 101, 103, 99,
];

export interface QuantTable {
  id: number;
  values: number[];
}

/** Reads every DQT segment of a JPEG (tables may be split over several segments). */
export function readQuantTables(jpeg: Buffer): QuantTable[] {
  const tables: QuantTable[] = [];
  let i = 2;
  while (i + 4 <= jpeg.length) {
    if (jpeg[i] !== 0xff) break;
    const marker = jpeg[i + 1]!;
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const len = jpeg.readUInt16BE(i + 2);
    if (marker === 0xda) break;
    if (marker === 0xdb) {
      let p = i + 4;
      const end = i + 2 + len;
      while (p < end) {
        const pq = jpeg[p]! >> 4;
        const id = jpeg[p]! & 0x0f;
        p++;
        const values: number[] = [];
        for (let k = 0; k < 64; k++) {
          values.push(pq ? jpeg.readUInt16BE(p) : jpeg[p]!);
          p += pq ? 2 : 1;
        }
        tables.push({ id, values });
      }
    }
    i += 2 + len;
  }
  return tables;
}

/**
 * Estimates the IJG quality that produced a luminance table, and how well the table fits the IJG
 * family at all (encoders such as Photoshop use their own tables, which is itself informative).
 */
export function estimateQuality(luma: readonly number[]): { quality: number; ijgFit: number } {
  let best = { quality: 0, error: Infinity };
  for (let q = 1; q <= 100; q++) {
    const scale = q < 50 ? 5000 / q : 200 - q * 2;
    let error = 0;
    for (let k = 0; k < 64; k++) {
      const expected = Math.min(255, Math.max(1, Math.floor(((IJG_LUMA[k] ?? 0) * scale + 50) / 100)));
      error += Math.abs(expected - (luma[k] ?? 0));
    }
    if (error < best.error) best = { quality: q, error };
  }
  return { quality: best.quality, ijgFit: Math.max(0, 1 - best.error / 64 / 4) };
}
