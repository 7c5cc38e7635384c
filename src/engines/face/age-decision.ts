import { signal, type CheckVerdict, type Signal } from '../signal.js';
import { describeFaces, primaryFace, round } from './match-decision.js';
import type { FaceAnalysis } from './types.js';

/**
 * Half-width of the age band in years before the model's own disagreement is added. NOT calibrated:
 * no labelled ages exist in ../shared/data, so this is a prior in line with published apparent-age
 * MAEs of small CNNs (5–8 years). Treat decisions near the limit as review cases (the band does that).
 */
export const AGE_BASE_UNCERTAINTY_YEARS = 8;

export interface AgeDecision {
  verdict: CheckVerdict;
  age: number | null;
  low: number | null;
  high: number | null;
  minimumAge: number;
  signals: Signal[];
}

/**
 * `upright` and `mirrored` are two analyses of the same image (the second flipped left-right):
 * the spread between their estimates widens the band. Passed only when the whole band is at or
 * above `minimumAge`, failed when it is wholly below, otherwise needs_review.
 */
export function decideAge(upright: FaceAnalysis, mirrored: FaceAnalysis, minimumAge: number): AgeDecision {
  if (!Number.isFinite(minimumAge) || minimumAge < 0) throw new RangeError('minimumAge must be a non-negative number');
  const signals = describeFaces(upright, 'image', false);
  const face = primaryFace(upright);
  if (!face || face.age <= 0) return { verdict: 'failed', age: null, low: null, high: null, minimumAge, signals };
  const other = primaryFace(mirrored);
  const estimates = other && other.age > 0 ? [face.age, other.age] : [face.age];
  const age = estimates.reduce((s, a) => s + a, 0) / estimates.length;
  const spread = Math.max(...estimates) - Math.min(...estimates);
  const half = AGE_BASE_UNCERTAINTY_YEARS + spread;
  const low = Math.max(0, age - half);
  const high = age + half;
  signals.push(signal('estimated_age', round(age, 1), null, { detail: `Mean of ${estimates.length} estimates (upright and mirrored).` }));
  signals.push(
    signal('age_estimate_spread', round(spread, 1), null, { detail: 'Disagreement between the upright and mirrored estimates, years.' }),
  );
  signals.push(
    signal('age_band_low', round(low, 1), low >= minimumAge, {
      threshold: minimumAge,
      detail: 'Lower end of the band must reach the minimum age to pass.',
    }),
  );
  let verdict: CheckVerdict = low >= minimumAge ? 'passed' : high < minimumAge ? 'failed' : 'needs_review';
  if (verdict === 'passed' && signals.some((s) => s.passed === false)) verdict = 'needs_review';
  return { verdict, age: round(age, 1), low: round(low, 1), high: round(high, 1), minimumAge, signals };
}
