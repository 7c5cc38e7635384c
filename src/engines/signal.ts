/**
 * A signal is one measured fact that led to a check's verdict. Every engine reports its
 * verdict together with the signals behind it so a reviewer (and the evidence bundle) can see why.
 */
export interface Signal {
  /** Stable snake_case name, e.g. `mrz_check_digits`, `blur_variance`. */
  name: string;
  /** The measured value. */
  value: number | string | boolean | null;
  /** Whether the value is within what the engine accepts; null when the signal is informational. */
  passed: boolean | null;
  /** Threshold or expectation the value was compared with, when there is one. */
  threshold?: number | string;
  /** One plain-language sentence for reviewers. */
  detail?: string;
}

/** Outcome of a verifying check (document, liveness, face match, age, proof of address, ...). */
export type CheckVerdict = 'passed' | 'failed' | 'needs_review';

/** Identifies the model or algorithm that produced a result, for the evidence trail. */
export interface ModelInfo {
  name: string;
  version: string;
}

export function signal(
  name: string,
  value: Signal['value'],
  passed: boolean | null,
  extra: Partial<Pick<Signal, 'threshold' | 'detail'>> = {},
): Signal {
  return { name, value, passed, ...extra };
}
