import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let used = POOL_BYTES;

/**
 * `n` bytes from the operating system's CSPRNG, taken from a pool refilled 4 KiB at a time (as Node's own
 * `randomUUID` does): one `getrandom` per ~300 ids or nonces instead of one each. Every byte is handed out
 * once, and the caller gets its own copy, so nothing it does to the bytes reaches another caller.
 */
export function randomBytesPooled(n: number): Buffer {
  if (n > 256) {
    const out = Buffer.allocUnsafe(n);
    randomFillSync(out);
    return out;
  }
  if (used + n > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const out = Buffer.allocUnsafe(n);
  pool.copy(out, 0, used, used + n);
  used += n;
  return out;
}
