// Seeded pseudo-random numbers for generated test data and bench data (bench/lib/random.ts re-exports
// this), so a run can be repeated.
//
// Tests and benches used to write `seed = (seed * 1103515245 + 12345) % 2 ** 31` in plain numbers: the
// product exceeds 2^53, loses its low bits, and the sequence falls into a cycle of about 14,500 values.
// The 1,000,000-record KYB bench held only 2,447 distinct names that way. This is mulberry32 (32-bit
// integer arithmetic throughout, period 2^32).

import { seededRandom as seeded } from '../../src/engines/seeded-random.js';

/** A generator of floats in [0, 1) from a 32-bit seed: the engines' own mulberry32. */
export { seeded };

/** A generator of whole numbers in [0, n) from a 32-bit seed. */
export function seededInts(seed: number): (n: number) => number {
  const next = seeded(seed);
  return (n) => Math.floor(next() * n);
}
