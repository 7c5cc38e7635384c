import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { decodeHevcHeif, HeicDecodeError, isHevcHeif } from '../image/heic.js';
import { parseExif, type ExifTags } from './exif.js';

/** Why an input image was refused; the HTTP layer maps every code to 400 (413 for the size codes if it wants). */
export type DocumentInputErrorCode =
  'empty_input' | 'image_too_large' | 'image_too_many_pixels' | 'image_too_small' | 'unsupported_format' | 'image_corrupt';

export class DocumentInputError extends Error {
  override readonly name = 'DocumentInputError';
  constructor(
    readonly code: DocumentInputErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface InputLimits {
  /** Largest accepted encoded size in bytes (default 15 MB). */
  maxBytes: number;
  /** Largest accepted decoded pixel count, checked from the header before decoding (default 50 MP). */
  maxPixels: number;
  /** Smallest accepted short side in pixels (default 100). */
  minSide: number;
  /** Long side of the working copy the engine analyses; larger images are downscaled (default 2400). */
  workingLongSide: number;
}

export const DEFAULT_LIMITS: InputLimits = { maxBytes: 15 * 1024 * 1024, maxPixels: 50_000_000, minSide: 100, workingLongSide: 2400 };

const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'heif', 'avif', 'tiff']);

export interface ImageMetadata {
  format: string;
  /** Size of the upright original (after EXIF orientation). */
  width: number;
  height: number;
  orientation: number | null;
  exif: ExifTags;
  hasExif: boolean;
  /** Tool names found in XMP (CreatorTool, HistorySoftwareAgent), where editing software records itself. */
  xmpTools: string[];
  hasIccProfile: boolean;
  /** Chroma subsampling reported by the JPEG decoder, e.g. "4:2:0"; null for other formats. */
  chromaSubsampling: string | null;
  bytes: number;
}

/** The upright, possibly downscaled RGB working copy plus facts about the original. */
export interface DecodedImage {
  rgb: Buffer;
  width: number;
  height: number;
  /** Working pixels per original pixel (<= 1). */
  scale: number;
  metadata: ImageMetadata;
}

export async function decodeImage(input: Buffer, limits: Partial<InputLimits> = {}): Promise<DecodedImage> {
  const lim = { ...DEFAULT_LIMITS, ...limits };
  if (!input || input.length === 0) throw new DocumentInputError('empty_input', 'the image is empty');
  if (input.length > lim.maxBytes)
    throw new DocumentInputError('image_too_large', `the image is ${input.length} bytes; the limit is ${lim.maxBytes}`);
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new DocumentInputError('unsupported_format', 'the file is not an image format that can be decoded');
  }
  const format = meta.format ?? 'unknown';
  if (!ACCEPTED.has(format))
    throw new DocumentInputError('unsupported_format', `image format ${format} is not accepted (JPEG, PNG, WebP, HEIF/AVIF, TIFF)`);
  // sharp's prebuilt libvips decodes AVIF-coded HEIF but has no HEVC decoder (patents): iPhone HEIC is decoded
  // by libheif (wasm, image/heic.ts) after the same header checks, and reaches sharp as raw RGBA.
  const hevc = isHevcHeif(meta);
  const w0 = meta.width ?? 0;
  const h0 = meta.height ?? 0;
  // Checked on the header before any decoding, so a decompression bomb costs nothing.
  if (w0 * h0 > lim.maxPixels)
    throw new DocumentInputError('image_too_many_pixels', `the image has ${w0}x${h0} pixels; the limit is ${lim.maxPixels}`);
  if (Math.min(w0, h0) < lim.minSide)
    throw new DocumentInputError('image_too_small', `the image is ${w0}x${h0}; the short side must be at least ${lim.minSide} pixels`);
  // HEIF orientation (irot/imir) is applied by the HEIF decoder; sharp reports no EXIF orientation for HEIF.
  const swap = !hevc && (meta.orientation ?? 1) >= 5;
  let width = swap ? h0 : w0;
  let height = swap ? w0 : h0;
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    let img: Sharp;
    if (hevc) {
      const raster = await decodeHevcHeif(input, lim.maxPixels);
      if (raster.width * raster.height !== w0 * h0) throw new HeicDecodeError('corrupt', 'decoded size differs from the header');
      width = raster.width;
      height = raster.height;
      img = sharp(raster.data, { raw: { width, height, channels: 4 } });
    } else img = sharp(input, { limitInputPixels: lim.maxPixels, failOn: 'error' }).rotate();
    const scale = Math.min(1, lim.workingLongSide / Math.max(width, height));
    if (scale < 1) img = img.resize(Math.round(width * scale), Math.round(height * scale), { fit: 'fill' });
    decoded = await img.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (err instanceof HeicDecodeError && err.kind === 'too_many_pixels') throw new DocumentInputError('image_too_many_pixels', msg);
    if (/pixel limit/i.test(msg)) throw new DocumentInputError('image_too_many_pixels', 'the image exceeds the pixel limit');
    throw new DocumentInputError('image_corrupt', 'the image data is corrupt or truncated');
  }
  const exif = parseExif(meta.exif);
  return {
    rgb: decoded.data,
    width: decoded.info.width,
    height: decoded.info.height,
    scale: decoded.info.width / width,
    metadata: {
      format,
      width,
      height,
      orientation: meta.orientation ?? null,
      exif,
      hasExif: meta.exif !== undefined,
      xmpTools: xmpTools(meta.xmp),
      hasIccProfile: meta.icc !== undefined,
      chromaSubsampling: meta.chromaSubsampling ?? null,
      bytes: input.length,
    },
  };
}

function xmpTools(xmp: Buffer | undefined): string[] {
  if (!xmp) return [];
  const text = xmp.toString('utf8');
  const out = new Set<string>();
  for (const m of text.matchAll(/(?:CreatorTool|softwareAgent)(?:>|=")([^<"]+)/g)) if (m[1]) out.add(m[1].trim());
  return [...out];
}

/** Grey (luma) plane of an RGB buffer. */
export function toGray(rgb: Buffer | Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < out.length; i++, j += 3) out[i] = ((rgb[j] ?? 0) * 77 + (rgb[j + 1] ?? 0) * 150 + (rgb[j + 2] ?? 0) * 29) >> 8;
  return out;
}
