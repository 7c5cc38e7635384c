import type { ShareRange } from './types.js';

export const UNKNOWN_SHARE: ShareRange = { min: 0, max: 100, minExclusive: false, maxExclusive: false };
export const FULL_SHARE: ShareRange = { min: 100, max: 100, minExclusive: false, maxExclusive: false };
export const ZERO_SHARE: ShareRange = { min: 0, max: 0, minExclusive: false, maxExclusive: false };

/** BODS share object → range; undefined when it says nothing. */
export function fromBodsShare(s: Record<string, unknown> | undefined): ShareRange | undefined {
  if (!s) return undefined;
  const num = (k: string): number | undefined => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  const exact = num('exact');
  if (exact !== undefined) return { min: exact, max: exact, minExclusive: false, maxExclusive: false };
  const min = num('minimum'),
    xmin = num('exclusiveMinimum'),
    max = num('maximum'),
    xmax = num('exclusiveMaximum');
  if (min === undefined && xmin === undefined && max === undefined && xmax === undefined) return undefined;
  return {
    min: min ?? xmin ?? 0,
    minExclusive: min === undefined && xmin !== undefined,
    max: max ?? xmax ?? 100,
    maxExclusive: max === undefined && xmax !== undefined,
  };
}

export function toBodsShare(r: ShareRange): Record<string, number> {
  if (r.min === r.max && !r.minExclusive && !r.maxExclusive) return { exact: r.min };
  return { [r.minExclusive ? 'exclusiveMinimum' : 'minimum']: r.min, [r.maxExclusive ? 'exclusiveMaximum' : 'maximum']: r.max };
}

// Rounded so that 0.6 × 50 gives 30 and not 30.000000000000004.
const round = (x: number): number => Math.round(x * 1e9) / 1e9;

/** Share of a chain: a's share of b's share. A bound is exclusive when any factor's is (and it is not zero). */
export function multiply(a: ShareRange, b: ShareRange): ShareRange {
  const min = round((a.min * b.min) / 100);
  const max = round((a.max * b.max) / 100);
  return {
    min,
    max,
    minExclusive: min > 0 && (a.minExclusive || b.minExclusive),
    maxExclusive: max > 0 && (a.maxExclusive || b.maxExclusive),
  };
}

/** Sum over separate holdings, upper bound capped at 100 %. */
export function add(a: ShareRange, b: ShareRange): ShareRange {
  const min = Math.min(100, round(a.min + b.min));
  const rawMax = round(a.max + b.max);
  const capped = rawMax >= 100;
  return {
    min,
    max: capped ? 100 : rawMax,
    minExclusive: min < 100 && (a.minExclusive || b.minExclusive),
    maxExclusive: !capped && (a.maxExclusive || b.maxExclusive),
  };
}

/** Surely more than the threshold ("more than 25 %": a band (25, 50] qualifies at 25). */
export function surelyAbove(r: ShareRange, threshold: number): boolean {
  return r.min > threshold || (r.min === threshold && r.minExclusive);
}

/** Could be more than the threshold. */
export function possiblyAbove(r: ShareRange, threshold: number): boolean {
  return r.max > threshold;
}

/** At least the threshold for sure (OFAC: "50 percent or more"). */
export function surelyAtLeast(r: ShareRange, threshold: number): boolean {
  return r.min >= threshold;
}

export function possiblyAtLeast(r: ShareRange, threshold: number): boolean {
  return r.max > threshold || (r.max === threshold && !r.maxExclusive);
}
