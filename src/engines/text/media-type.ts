import { TextInputError } from './input-error.js';
import type { SupportedMediaType } from './types.js';

/** Identifies the file by its magic bytes; the declared type is only trusted when it agrees. */
export function sniffMediaType(input: Buffer): SupportedMediaType | null {
  if (input.length >= 5 && input.subarray(0, 1024).includes('%PDF-')) return 'application/pdf';
  if (input.length >= 3 && input[0] === 0xff && input[1] === 0xd8 && input[2] === 0xff) return 'image/jpeg';
  if (input.length >= 8 && input.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (input.length >= 12 && input.toString('latin1', 0, 4) === 'RIFF' && input.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  const head = input.toString('latin1', 0, 4);
  if (head === 'II*\u0000' || head === 'MM\u0000*') return 'image/tiff';
  return null;
}

export function resolveMediaType(input: Buffer, declared?: string): SupportedMediaType {
  if (input.length === 0) throw new TextInputError('empty_input', 'the document is empty');
  const sniffed = sniffMediaType(input);
  if (!sniffed) throw new TextInputError('unsupported_media_type', 'only PDF, JPEG, PNG, WebP and TIFF documents are accepted');
  const normal = declared?.split(';')[0]?.trim().toLowerCase();
  if (normal && normal !== 'application/octet-stream' && normal !== sniffed && !(normal === 'image/jpg' && sniffed === 'image/jpeg')) {
    throw new TextInputError('media_type_mismatch', `declared ${normal} but the content is ${sniffed}`);
  }
  return sniffed;
}
