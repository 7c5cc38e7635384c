import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isqrt } from './aggregate-plan.js';

/** ⌊√v⌋ is the x with x² ≤ v < (x+1)². */
function isFloorRoot(v: bigint, x: bigint): boolean {
  return x * x <= v && (x + 1n) * (x + 1n) > v;
}

test('isqrt: small values, perfect squares and their neighbours', () => {
  for (let i = 0n; i < 2000n; i++) assert.ok(isFloorRoot(i, isqrt(i)), `isqrt(${i}) = ${isqrt(i)}`);
  for (const r of [1n, 3n, 10n ** 9n + 7n, 2n ** 53n + 1n, 10n ** 20n + 3n, 10n ** 40n - 1n]) {
    for (const d of [-1n, 0n, 1n]) {
      const v = r * r + d;
      assert.ok(isFloorRoot(v, isqrt(v)), `isqrt(${v})`);
    }
  }
  assert.throws(() => isqrt(-1n), RangeError);
});

test('isqrt: large values, including where a double rounds below the root and beyond a double', () => {
  // A deterministic spread of magnitudes from 2^54 to 2^1100 (past Number.MAX_VALUE).
  let seed = 12345n;
  for (let bits = 54n; bits <= 1100n; bits += 7n) {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
    const v = (1n << bits) + seed * (bits % 5n) + 12345678901234567n;
    const x = isqrt(v);
    assert.ok(isFloorRoot(v, x), `isqrt at ${bits} bits`);
  }
  // (2^53 + 1)² − 1: the double of it rounds so that its square root is 2^53 + 1, one above the floor root.
  const r = 2n ** 53n + 1n;
  assert.equal(isqrt(r * r - 1n), r - 1n);
});
