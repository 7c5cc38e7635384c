/**
 * HEVC-coded HEIF ("iPhone HEIC") decoding with libheif compiled to WebAssembly (`libheif-js`, LGPL-3.0,
 * used unmodified as an npm dependency). sharp's prebuilt libvips reads the HEIF header (size, EXIF) but has
 * no HEVC decoder, so the engines decode those files here and hand sharp raw RGBA.
 *
 * Pure: no I/O besides loading the wasm module from node_modules on first use (per thread: the engines call
 * this inside their worker threads). Orientation: HEIF carries it as `irot`/`imir` transform properties,
 * which libheif applies while decoding (the spec makes them authoritative; Apple writes the same rotation
 * into EXIF as well, which must then *not* be applied a second time — libvips/sharp ignore it for HEIF too).
 */
import { createRequire } from 'node:module';
import type { Metadata } from 'sharp';

export type HeicErrorKind = 'too_many_pixels' | 'corrupt';

export class HeicDecodeError extends Error {
  override readonly name = 'HeicDecodeError';
  constructor(
    readonly kind: HeicErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** What sharp's header read says about a HEIF file it cannot decode itself. */
export function isHevcHeif(meta: Pick<Metadata, 'format' | 'compression'>): boolean {
  return meta.format === 'heif' && meta.compression === 'hevc';
}

export interface RgbaRaster {
  /** Interleaved RGBA, 4 bytes per pixel, upright (HEIF transforms applied). */
  data: Buffer;
  width: number;
  height: number;
}

interface HeifImageHandle {
  get_width(): number;
  get_height(): number;
  is_primary(): boolean;
  display(target: { data: Uint8ClampedArray; width: number; height: number }, done: (r: { data: Uint8ClampedArray } | null) => void): void;
  free(): void;
}
interface LibHeif {
  HeifDecoder: new () => { decode(buffer: Uint8Array): HeifImageHandle[]; decoder: { delete(): void } | null };
  ready?: Promise<unknown>;
}

let lib: LibHeif | null = null;
function libheif(): LibHeif {
  // CommonJS wasm bundle (the .wasm is inlined): loaded lazily so threads that never see a HEIC pay nothing.
  lib ??= createRequire(import.meta.url)('libheif-js/wasm-bundle') as LibHeif;
  return lib;
}

/**
 * Decodes the primary image of an HEVC-coded HEIF. The pixel count is checked on the item's header
 * (`ispe`, after transforms) before any pixel is decoded, and again on the decoded size.
 */
export async function decodeHevcHeif(input: Uint8Array, maxPixels: number): Promise<RgbaRaster> {
  const heif = libheif();
  if (heif.ready) await heif.ready;
  const decoder = new heif.HeifDecoder();
  let images: HeifImageHandle[] = [];
  try {
    try {
      images = decoder.decode(input);
    } catch (err) {
      throw new HeicDecodeError('corrupt', `HEIF container could not be read: ${(err as Error).message}`);
    }
    const image = images.find((i) => i.is_primary()) ?? images[0];
    if (!image) throw new HeicDecodeError('corrupt', 'the HEIF file holds no image');
    const width = image.get_width();
    const height = image.get_height();
    if (!(width > 0 && height > 0)) throw new HeicDecodeError('corrupt', 'the HEIF image has no dimensions');
    if (width * height > maxPixels)
      throw new HeicDecodeError('too_many_pixels', `the image has ${width}x${height} pixels; the limit is ${maxPixels}`);
    const target = { data: new Uint8ClampedArray(width * height * 4), width, height };
    const shown = await new Promise<{ data: Uint8ClampedArray } | null>((resolve) => image.display(target, resolve));
    if (!shown) throw new HeicDecodeError('corrupt', 'the HEVC image data could not be decoded');
    return { data: Buffer.from(shown.data.buffer, shown.data.byteOffset, shown.data.byteLength), width, height };
  } finally {
    for (const i of images) i.free();
    decoder.decoder?.delete();
  }
}
