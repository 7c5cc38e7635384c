import sharp, { type Metadata } from 'sharp';
import { TextInputError } from './input-error.js';
import { pnm } from '../image/pnm.js';

/**
 * Prepares a photo or scan for OCR: honours EXIF orientation, greyscale, and scales so
 * body text lands near the x-height Tesseract was trained on (long side 1400-2600 px). No contrast
 * stretch: on a mostly blank page it amplifies paper noise until Tesseract finds no text. Returns the grey
 * pixels as PNM (P5): tesseract reads them as they are, where a PNG had to be encoded here and inflated again in
 * its WebAssembly (the same pixels either way, so the same words).
 */
export async function prepareImageForOcr(
  input: Buffer,
  maxPixels: number,
): Promise<{ image: Buffer; scale: number; width: number; height: number }> {
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: maxPixels }).metadata();
  } catch (err) {
    throw new TextInputError('unreadable', 'the image could not be decoded', { cause: err });
  }
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (!width || !height) throw new TextInputError('unreadable', 'the image has no dimensions');
  if (width * height > maxPixels) throw new TextInputError('too_large', `the image exceeds ${maxPixels} pixels`);
  const longSide = Math.max(width, height);
  const scale = longSide < 1400 ? 1400 / longSide : longSide > 2600 ? 2600 / longSide : 1;
  try {
    const img = sharp(input, { limitInputPixels: maxPixels })
      .rotate()
      .resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'lanczos3' });
    // Transparency on white, as tesseract composited a PNG's alpha (a screenshot's transparent background would
    // otherwise come out black, as dark as its text).
    if (meta.hasAlpha) img.flatten({ background: '#ffffff' });
    const { data, info } = await img.greyscale().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) throw new Error(`prepareImageForOcr: sharp gave ${info.channels} channels`);
    return { image: pnm(data, info.width, info.height, 1), scale, width, height };
  } catch (err) {
    throw new TextInputError('unreadable', 'the image could not be decoded', { cause: err });
  }
}
