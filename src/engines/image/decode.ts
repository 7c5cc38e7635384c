import sharp, { type Metadata, type Sharp } from 'sharp';
import { decodeHevcHeif, HeicDecodeError, isHevcHeif } from './heic.js';

/**
 * The image decoding the document and face engines share: a header-only read, then an upright
 * decoder under the decompression-bomb guard. Each engine keeps its own limits, accepted formats,
 * error codes and messages (document/image-input.ts, face/image-input.ts) and maps failures here
 * to them.
 */

/** Header only, no pixels decoded: format, size, orientation, EXIF/XMP/ICC. Throws sharp's error on unreadable input. */
export function readImageHeader(input: Buffer): Promise<Metadata> {
  return sharp(input, { limitInputPixels: false }).metadata();
}

/** Thrown when a decoded HEIC raster's size differs from its header (the header is what the pixel guard checked). */
export class DecodedSizeMismatch extends Error {
  override readonly name = 'DecodedSizeMismatch';
}

export interface UprightSource {
  /** The image with EXIF (or HEIF irot/imir) orientation applied, ready for resizing. */
  image: Sharp;
  /** Size of the upright original. */
  width: number;
  height: number;
}

/**
 * Opens `input` upright once its header (`meta`) passed the caller's pixel check. `limitInputPixels`
 * is a second decompression-bomb guard at decode time. sharp's prebuilt libvips has no HEVC decoder
 * (patents): iPhone HEIC is decoded by libheif (wasm, heic.ts) with its HEIF transforms applied, and
 * reaches sharp as raw RGBA; sharp reports no EXIF orientation for it. Throws HeicDecodeError,
 * DecodedSizeMismatch or sharp's errors (which surface when the pipeline runs).
 */
export async function openUpright(input: Buffer, meta: Metadata, maxPixels: number): Promise<UprightSource> {
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (isHevcHeif(meta)) {
    const raster = await decodeHevcHeif(input, maxPixels);
    if (raster.width * raster.height !== w * h) throw new DecodedSizeMismatch('decoded size differs from the header');
    return {
      image: sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: 4 } }),
      width: raster.width,
      height: raster.height,
    };
  }
  const swap = (meta.orientation ?? 1) >= 5;
  return { image: sharp(input, { limitInputPixels: maxPixels, failOn: 'error' }).rotate(), width: swap ? h : w, height: swap ? w : h };
}

export { HeicDecodeError, isHevcHeif };
