import type { CheckVerdict, Signal } from '../../../engines/signal.js';
import { recordCheck, roundTimings, type CheckOutcome, type Check } from '../kernel/index.js';
import { FACE_ENGINE } from './engine.js';
import type { Resources } from '../../../platform/resources.js';
import { decodeImage, engineCall, reasonsOf } from './inputs.js';
import type { FaceCheckArgs } from './check-args.js';
import type { AgeEstimationBody } from './schemas.js';

const oneDecimal = (x: number | null): number | null => (x === null ? null : Math.round(x * 10) / 10);

/**
 * Age from the face alone, as a band: passed when the whole band is at or above minimum_age, failed
 * when it is all below, needs_review when it straddles. The estimate is not a score, so score is null.
 */
export async function ageEstimationCheck({ ctx, sealer, settings, resources, input }: FaceCheckArgs<AgeEstimationBody>): Promise<Check> {
  const image = decodeImage('image', input.image, 'selfie', settings.maxImageBytes);
  const outcome = await evaluateAge(resources, image.data, input.minimum_age);
  return recordCheck({ ctx, sealer, type: 'age_estimation', subjectReference: input.subject_reference, outcome, media: [image] });
}

/** The age engine's band decision as a check outcome (standalone check and session pipeline). */
export async function evaluateAge(resources: Resources, image: Buffer, minimumAge: number): Promise<CheckOutcome> {
  const started = performance.now();
  const r = await engineCall(() => resources.get(FACE_ENGINE).estimateAge(image, { minimumAge }));
  return {
    status: r.verdict,
    score: null,
    reasons: ageReasons(r.verdict, r.low, r.high, minimumAge, r.signals),
    signals: r.signals,
    model: r.model,
    timings: roundTimings({ engine: r.timings.totalMs, total: performance.now() - started }),
    result: { estimated_age: oneDecimal(r.age), age_low: oneDecimal(r.low), age_high: oneDecimal(r.high), minimum_age: minimumAge },
  };
}

/** Named reasons for the band decision; other failed signals (no face, several faces) as they are. */
function ageReasons(verdict: CheckVerdict, low: number | null, high: number | null, minimumAge: number, signals: Signal[]): string[] {
  const others = reasonsOf(verdict, signals).filter((n) => n !== 'age_band_low');
  if (verdict === 'passed' || low === null || high === null) return others;
  if (high < minimumAge) return ['estimated_under_minimum_age', ...others];
  if (low < minimumAge) return ['age_band_includes_minimum_age', ...others];
  return others;
}
