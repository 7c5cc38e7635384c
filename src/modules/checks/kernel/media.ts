import { createHash } from 'node:crypto';
import { invalid } from '../../../platform/errors.js';

export interface MediaInput {
  kind: string;
  contentType: string;
  data: Buffer;
}

const MAGIC: [string, (b: Buffer) => boolean][] = [
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/webp', (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'],
  ['image/heic', (b) => b.subarray(4, 8).toString('latin1') === 'ftyp' && /hei[cx]|mif1|msf1/.test(b.subarray(8, 12).toString('latin1'))],
  ['image/gif', (b) => b.subarray(0, 3).toString('latin1') === 'GIF'],
  ['image/tiff', (b) => (b[0] === 0x49 && b[1] === 0x49) || (b[0] === 0x4d && b[1] === 0x4d)],
  ['application/pdf', (b) => b.subarray(0, 5).toString('latin1') === '%PDF-'],
];

/** Content type by magic bytes: the caller's declared type is never trusted. */
export function sniffContentType(data: Buffer): string {
  for (const [type, test] of MAGIC) if (test(data)) return type;
  return 'application/octet-stream';
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Decodes one uploaded file given as base64 (or a data: URL), refusing what is not base64, empty,
 * larger than maxBytes, or of a type the endpoint does not take (any type without `accept`). Errors
 * name the field.
 */
export function decodeUpload(
  field: string,
  value: string,
  opts: { maxBytes: number; accept?: string[] },
): { data: Buffer; contentType: string } {
  const comma = value.startsWith('data:') ? value.indexOf(',') : -1;
  const b64 = (comma >= 0 ? value.slice(comma + 1) : value).replace(/\s+/g, '');
  if (!BASE64.test(b64)) throw invalid(field, `${field} must be base64 (or a data: URL), or a file in multipart/form-data.`);
  if ((b64.length * 3) / 4 > opts.maxBytes + 4)
    throw invalid(field, `${field} is larger than ${Math.floor(opts.maxBytes / 1024 / 1024)} MiB.`);
  const data = Buffer.from(b64, b64.includes('-') || b64.includes('_') ? 'base64url' : 'base64');
  if (data.length === 0) throw invalid(field, `${field} is empty.`);
  const contentType = sniffContentType(data);
  if (opts.accept && !opts.accept.includes(contentType))
    throw invalid(field, `${field} must be one of ${opts.accept.join(', ')} (got ${contentType}).`);
  return { data, contentType };
}

export function sha256Hex(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'];
export const DOCUMENT_TYPES = [...IMAGE_TYPES, 'application/pdf'];
