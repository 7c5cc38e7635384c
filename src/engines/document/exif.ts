/**
 * Minimal EXIF (TIFF IFD) reader for the few tags the tamper checks need. sharp exposes the raw EXIF block
 * but does not parse it, and pulling a full EXIF library in for five ASCII tags is not worth a dependency.
 */

export interface ExifTags {
  make?: string;
  model?: string;
  software?: string;
  dateTime?: string;
  dateTimeOriginal?: string;
  /** True when an EXIF IFD with camera exposure data (exposure time, f-number or ISO) exists. */
  hasCameraExposure: boolean;
}

const ASCII_TAGS: Record<number, keyof Omit<ExifTags, 'hasCameraExposure'>> = {
  0x010f: 'make',
  0x0110: 'model',
  0x0131: 'software',
  0x0132: 'dateTime',
  0x9003: 'dateTimeOriginal',
};
const EXPOSURE_TAGS = new Set([0x829a, 0x829d, 0x8827]);
const EXIF_IFD_POINTER = 0x8769;

export function parseExif(block: Buffer | undefined): ExifTags {
  const tags: ExifTags = { hasCameraExposure: false };
  if (!block || block.length < 14) return tags;
  // sharp hands over the APP1 payload starting with "Exif\0\0".
  const start = block.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0;
  const tiff = block.subarray(start);
  const order = tiff.subarray(0, 2).toString('latin1');
  if (order !== 'II' && order !== 'MM') return tags;
  const le = order === 'II';
  const u16 = (o: number): number => (o + 2 <= tiff.length ? (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o)) : 0);
  const u32 = (o: number): number => (o + 4 <= tiff.length ? (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o)) : 0);
  const visited = new Set<number>();
  const readIfd = (offset: number): void => {
    if (offset <= 0 || offset + 2 > tiff.length || visited.has(offset)) return;
    visited.add(offset);
    const count = Math.min(u16(offset), 512);
    for (let i = 0; i < count; i++) {
      const e = offset + 2 + i * 12;
      if (e + 12 > tiff.length) return;
      const tag = u16(e);
      const type = u16(e + 2);
      const n = u32(e + 4);
      if (EXPOSURE_TAGS.has(tag)) tags.hasCameraExposure = true;
      if (tag === EXIF_IFD_POINTER) readIfd(u32(e + 8));
      const name = ASCII_TAGS[tag];
      if (name && type === 2) {
        const at = n <= 4 ? e + 8 : u32(e + 8);
        const text = tiff
          .subarray(at, Math.min(at + n, tiff.length))
          .toString('latin1')
          .replace(/\0+$/, '')
          .trim();
        if (text) tags[name] = text;
      }
    }
  };
  readIfd(u32(4));
  return tags;
}
