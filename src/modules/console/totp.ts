import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { base32nopad } from '@scure/base';

/**
 * TOTP (RFC 6238) over HOTP (RFC 4226) with HMAC-SHA1, 30-second steps and 6 digits: what every
 * authenticator app uses by default. A code is accepted for the current step and one step either
 * side (clock drift); the caller refuses a step at or before the last one accepted (replay).
 */
export const STEP_SECONDS = 30;
export const DIGITS = 6;

export function hotp(secret: Buffer, counter: bigint, digits = DIGITS, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1'): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(counter);
  const mac = createHmac(algorithm, secret).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const bin = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(bin).padStart(digits, '0');
}

export function timeStep(at: Date, stepSeconds = STEP_SECONDS): bigint {
  return BigInt(Math.floor(at.getTime() / 1000 / stepSeconds));
}

export function totp(secret: Buffer, at: Date, digits = DIGITS, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1'): string {
  return hotp(secret, timeStep(at), digits, algorithm);
}

/** The step the code belongs to (within ±window steps of `at`), or null. Compared in constant time. */
export function verifyTotp(secret: Buffer, code: string, at: Date, window = 1): bigint | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = timeStep(at);
  let found: bigint | null = null;
  for (let d = -window; d <= window; d++) {
    const step = now + BigInt(d);
    if (step < 0n) continue;
    if (timingSafeEqual(Buffer.from(hotp(secret, step)), Buffer.from(code)) && found === null) found = step;
  }
  return found;
}

/** A new 160-bit secret (RFC 4226 recommends at least 160 bits), and its base32 form for the app. */
export function newTotpSecret(): { secret: Buffer; base32: string } {
  const secret = randomBytes(20);
  return { secret, base32: base32nopad.encode(secret) };
}

export function decodeBase32Secret(text: string): Buffer {
  return Buffer.from(base32nopad.decode(text.replace(/[\s=]/g, '').toUpperCase()));
}

/** The otpauth:// URI an authenticator app reads (usually from a QR code). */
export function otpauthUri(base32: string, email: string, issuer = 'Verity'): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(email)}`;
  return `otpauth://totp/${label}?secret=${base32}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${DIGITS}&period=${STEP_SECONDS}`;
}
