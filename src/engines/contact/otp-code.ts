import { createHmac, randomInt, randomBytes, timingSafeEqual } from 'node:crypto';

/** A numeric code drawn from the CSPRNG, zero-padded so every code has the same length. */
export function generateCode(length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += String(randomInt(0, 10));
  return code;
}

export function newSalt(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * Codes are stored only as HMACs keyed with a server secret: a leaked table of six-digit codes
 * could otherwise be reversed by trying all million values. Salt and destination are bound in so a
 * hash cannot be replayed against another verification.
 */
export function hashCode(secret: string | Buffer, salt: string, destination: string, code: string): string {
  return createHmac('sha256', secret).update(`${salt}\u0000${destination}\u0000${code}`).digest('hex');
}

/** Compares two hex digests without leaking the position of the first difference. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  if (x.length !== y.length || x.length === 0) return false;
  return timingSafeEqual(x, y);
}
