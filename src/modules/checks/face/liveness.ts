import { invalid } from '../../../platform/errors.js';
import { recordCheck, roundTimings, type CheckOutcome, type Check } from '../kernel/index.js';
import { FACE_ENGINE } from './engine.js';
import type { Resources } from '../../../platform/resources.js';
import { decodeImage, engineCall, reasonsOf, round4 } from './inputs.js';
import type { FaceCheckArgs } from './check-args.js';
import type { LivenessBody } from './schemas.js';
import type { ChallengeAction } from '../../../engines/face/index.js';

/** Presentation-attack screen on one selfie (`image`) or a burst (`frames`, in capture order). */
export async function livenessCheck({ ctx, sealer, settings, resources, input }: FaceCheckArgs<LivenessBody>): Promise<Check> {
  if ((input.image === undefined) === (input.frames === undefined))
    throw invalid(
      input.image === undefined ? 'image' : 'frames',
      'Give either image (one selfie) or frames (a burst of 1–8), not both and not neither.',
    );
  const uploads =
    input.image !== undefined
      ? [decodeImage('image', input.image, 'selfie', settings.maxImageBytes)]
      : input.frames!.map((f, i) => decodeImage(`frames[${i}]`, f, 'frame', settings.maxImageBytes));
  // The engine names frames by position; a single `image` is frame 0.
  const outcome = await evaluateLiveness(
    resources,
    uploads.map((u) => u.data),
    { threshold: input.threshold },
    (f) => (input.image !== undefined && f === 'frames[0]' ? 'image' : f),
  );
  return recordCheck({ ctx, sealer, type: 'liveness', subjectReference: input.subject_reference, outcome, media: uploads });
}

/** The liveness engine's verdict as a check outcome (standalone check and session pipeline). */
export async function evaluateLiveness(
  resources: Resources,
  frames: Buffer[],
  o: { threshold?: number | undefined; challenge?: readonly ChallengeAction[] },
  rename?: (engineField: string) => string,
): Promise<CheckOutcome> {
  const started = performance.now();
  const options = { ...(o.threshold !== undefined ? { threshold: o.threshold } : {}), ...(o.challenge ? { challenge: o.challenge } : {}) };
  const r = await engineCall(() => resources.get(FACE_ENGINE).liveness(frames, options), rename);
  return {
    status: r.verdict,
    score: round4(r.score),
    reasons: reasonsOf(r.verdict, r.signals),
    signals: r.signals,
    model: r.model,
    timings: roundTimings({ engine: r.timings.totalMs, total: performance.now() - started }),
    result: {
      live_score: round4(r.score),
      threshold: r.threshold,
      frames: frames.length,
      ...(o.challenge ? { challenge: [...o.challenge] } : {}),
    },
  };
}
