// Money is a decimal string everywhere; arithmetic happens on BigInt scaled integers so that sums of
// many small amounts are exact (a float sum of 0.1 ten times is not 1).

export class DecimalError extends Error {
  constructor(
    readonly code: 'malformed' | 'too_many_digits' | 'too_many_fraction_digits' | 'negative',
    message: string,
  ) {
    super(message);
    this.name = 'DecimalError';
  }
}

/** An exact decimal: units × 10^-scale. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

export const MAX_DIGITS = 30;
export const MAX_SCALE = 18;

// No exponent, no leading '+', no leading zeros, no bare '.', no whitespace.
const DECIMAL_RE = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

export function parseDecimal(s: string): Decimal {
  if (typeof s !== 'string') throw new DecimalError('malformed', 'amount must be a decimal string');
  const m = DECIMAL_RE.exec(s);
  if (!m) throw new DecimalError('malformed', `'${s.slice(0, 40)}' is not a plain decimal string`);
  const int = m[2]!;
  const frac = m[3] ?? '';
  if (frac.length > MAX_SCALE) {
    throw new DecimalError('too_many_fraction_digits', `more than ${MAX_SCALE} fraction digits`);
  }
  if (int.length + frac.length > MAX_DIGITS) {
    throw new DecimalError('too_many_digits', `more than ${MAX_DIGITS} digits`);
  }
  const units = BigInt(int + frac);
  return { units: m[1] ? -units : units, scale: frac.length };
}

export function isDecimalString(s: unknown): s is string {
  try {
    parseDecimal(s as string);
    return true;
  } catch {
    return false;
  }
}

const POW10: bigint[] = Array.from({ length: 2 * MAX_SCALE + 8 }, (_, i) => 10n ** BigInt(i));
function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

/** The value as an integer count of 10^-scale units; throws rather than silently rounding. */
export function toScaledUnits(d: Decimal | string, scale: number): bigint {
  const v = typeof d === 'string' ? parseDecimal(d) : d;
  if (v.scale <= scale) return v.units * pow10(scale - v.scale);
  const f = pow10(v.scale - scale);
  if (v.units % f !== 0n) {
    throw new DecimalError('too_many_fraction_digits', `not representable with ${scale} fraction digits`);
  }
  return v.units / f;
}

export function fromScaledUnits(units: bigint, scale: number): string {
  const neg = units < 0n;
  const abs = (neg ? -units : units).toString();
  if (scale === 0) return (neg ? '-' : '') + abs;
  const padded = abs.padStart(scale + 1, '0');
  let int = padded.slice(0, padded.length - scale);
  let frac = padded.slice(padded.length - scale).replace(/0+$/, '');
  if (int === '') int = '0';
  const body = frac ? `${int}.${frac}` : int;
  return neg && body !== '0' ? '-' + body : body;
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const s = Math.max(a.scale, b.scale);
  return [a.units * pow10(s - a.scale), b.units * pow10(s - b.scale), s];
}

export function compareDecimal(a: string | Decimal, b: string | Decimal): -1 | 0 | 1 {
  const [x, y] = align(typeof a === 'string' ? parseDecimal(a) : a, typeof b === 'string' ? parseDecimal(b) : b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function addDecimal(a: string, b: string): string {
  const [x, y, s] = align(parseDecimal(a), parseDecimal(b));
  return fromScaledUnits(x + y, s);
}

export function subtractDecimal(a: string, b: string): string {
  const [x, y, s] = align(parseDecimal(a), parseDecimal(b));
  return fromScaledUnits(x - y, s);
}

/** Exact product a × ratio (e.g. 0.8 × amount); the result carries both scales. */
export function multiplyByRatio(a: string, ratio: string): string {
  const x = parseDecimal(a);
  const r = parseDecimal(ratio);
  return fromScaledUnits(x.units * r.units, x.scale + r.scale);
}

/** Divide scaled units by a positive integer, rounding half to even, at the given scale. */
export function divideRounded(units: bigint, unitScale: number, divisor: bigint, scale: number): string {
  if (divisor <= 0n) throw new RangeError('divisor must be positive');
  const num = units * pow10(Math.max(0, scale - unitScale));
  const den = divisor * pow10(Math.max(0, unitScale - scale));
  let q = num / den;
  const r = num % den;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice > den || (twice === den && q % 2n !== 0n)) q += num < 0n ? -1n : 1n;
  return fromScaledUnits(q, scale);
}

/** Nearest double, for CEL comparisons only; sums never go through this. */
export function decimalToNumber(a: string | Decimal): number {
  return Number(typeof a === 'string' ? a : fromScaledUnits(a.units, a.scale));
}
