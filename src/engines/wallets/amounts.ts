// Transfer amounts are decimal strings; sums are BigInt in units of 10^-18 (enough for wei and
// every UTXO chain's smallest unit), never floats. Only ratios (shares) are floating point.

export const SCALE_DIGITS = 18;
const SCALE = 10n ** BigInt(SCALE_DIGITS);

export function parseAmount(s: string): bigint {
  const m = /^\s*(\d+)(?:\.(\d+))?\s*$/.exec(s);
  if (!m) throw new Error(`amount "${s}" is not a non-negative decimal`);
  const frac = (m[2] ?? '').slice(0, SCALE_DIGITS).padEnd(SCALE_DIGITS, '0');
  return BigInt(m[1]!) * SCALE + BigInt(frac);
}

export function formatAmount(v: bigint): string {
  const neg = v < 0n;
  const a = neg ? -v : v;
  const int = a / SCALE;
  const frac = (a % SCALE).toString().padStart(SCALE_DIGITS, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** total × share, with the share rounded to 1e-9 so the product stays an exact BigInt. */
export function shareOf(total: bigint, share: number): bigint {
  return (total * BigInt(Math.round(share * 1e9))) / 1_000_000_000n;
}
