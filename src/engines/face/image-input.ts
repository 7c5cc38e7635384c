import sharp, { type Metadata, type Sharp } from 'sharp';
import { decodeHevcHeif, HeicDecodeError, isHevcHeif } from '../image/heic.js';
import { FaceInputError } from './errors.js';
import type { ImageInfo } from './types.js';

export interface ImageLimits {
  /** Encoded size limit, checked on the main thread before the bytes are sent to a worker. */
  maxBytes: number;
  /** Decoded pixel limit (width × height), read from the header before decoding: decompression-bomb guard. */
  maxPixels: number;
  /** Longest side the models see; larger images are downsized (the detector works at 256 px anyway). */
  analysisMaxSide: number;
}

export const DEFAULT_IMAGE_LIMITS: ImageLimits = {
  maxBytes: 15 * 1024 * 1024,
  maxPixels: 40_000_000,
  analysisMaxSide: 1024,
};

const SUPPORTED = new Set(['jpeg', 'png', 'webp', 'heif', 'avif', 'tiff', 'gif']);

export function checkEncodedSize(image: Uint8Array, limits: ImageLimits, field = 'image'): void {
  if (image.byteLength === 0) throw new FaceInputError('image_empty', 'image is empty', field);
  if (image.byteLength > limits.maxBytes) {
    throw new FaceInputError('image_too_large', `image is ${image.byteLength} bytes, the limit is ${limits.maxBytes}`, field);
  }
}

export interface DecodedImage {
  /** Packed RGB, 3 bytes per pixel, upright, at most analysisMaxSide on the longest side. */
  rgb: Buffer;
  width: number;
  height: number;
  info: ImageInfo;
}

/** Runs in the worker: header check, EXIF rotation, downsizing and decoding to raw RGB. */
export async function decodeImage(image: Uint8Array, limits: ImageLimits, mirror = false): Promise<DecodedImage> {
  checkEncodedSize(image, limits);
  const input = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
  let meta: Metadata;
  try {
    // Header only, no pixels decoded yet; the decode below sets limitInputPixels as a second guard.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw new FaceInputError('image_unsupported_format', `image could not be read: ${(err as Error).message}`);
  }
  if (!meta.format || !SUPPORTED.has(meta.format)) {
    throw new FaceInputError('image_unsupported_format', `image format ${meta.format ?? 'unknown'} is not supported`);
  }
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (w <= 0 || h <= 0) throw new FaceInputError('image_decode_failed', 'image has no dimensions');
  if (w * h > limits.maxPixels) {
    throw new FaceInputError('image_too_many_pixels', `image has ${w}×${h} pixels, the limit is ${limits.maxPixels}`);
  }
  const orientation = meta.orientation ?? null;
  const swap = orientation !== null && orientation >= 5;
  let uprightW = swap ? h : w;
  let uprightH = swap ? w : h;
  try {
    let source: Sharp;
    if (isHevcHeif(meta)) {
      // iPhone HEIC: sharp's libvips has no HEVC decoder; libheif (wasm) decodes it, HEIF transforms applied.
      const raster = await decodeHevcHeif(input, limits.maxPixels);
      if (raster.width * raster.height !== w * h)
        throw new FaceInputError('image_decode_failed', 'decoded HEIC size differs from its header');
      uprightW = raster.width;
      uprightH = raster.height;
      source = sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: 4 } });
    } else source = sharp(input, { limitInputPixels: limits.maxPixels, failOn: 'error' }).rotate();
    let pipeline = source
      .resize({ width: limits.analysisMaxSide, height: limits.analysisMaxSide, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb');
    if (mirror) pipeline = pipeline.flop();
    const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
    return {
      rgb: data,
      width: info.width,
      height: info.height,
      info: { format: meta.format, width: uprightW, height: uprightH, scale: uprightW / info.width, exifOrientation: orientation },
    };
  } catch (err) {
    if (err instanceof FaceInputError) throw err;
    if (err instanceof HeicDecodeError && err.kind === 'too_many_pixels') throw new FaceInputError('image_too_many_pixels', err.message);
    throw new FaceInputError('image_decode_failed', `image could not be decoded: ${(err as Error).message}`);
  }
}
