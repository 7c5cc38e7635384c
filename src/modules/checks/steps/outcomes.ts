import { signal } from '../../../engines/signal.js';
import type { StepOutcome } from '../check-type.js';

/** An outcome the pipeline decides without an engine verdict (nothing captured, no name to screen …). */
export function withoutEngine(status: StepOutcome['status'], reason: string, detail: string): StepOutcome {
  return { status, score: null, reasons: [reason], signals: [signal(reason, true, false, { detail })], model: [], timings: {}, result: {} };
}
