import { section, vars, Var, type SectionValue } from '../../platform/config-schema.js';

/** The capture module's settings (its door for the configuration loader; imports nothing heavy). */
export const captureConfig = section(
  vars({
    /** Capture API calls one session token may make per minute (uploads, polling, submit). */
    ratePerMinute: Var.int('CAPTURE_RATE_LIMIT_PER_MINUTE', 120, 1, 100_000),
  }),
);

export type CaptureSettings = SectionValue<typeof captureConfig>;
