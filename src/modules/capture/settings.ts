import { envReader } from '../../config.js';

export interface CaptureSettings {
  /** Capture API calls one session token may make per minute (uploads, polling, submit). */
  ratePerMinute: number;
}

export function loadCaptureSettings(env: NodeJS.ProcessEnv = process.env): CaptureSettings {
  const r = envReader(env);
  const settings = { ratePerMinute: r.int('CAPTURE_RATE_LIMIT_PER_MINUTE', 120, 1, 100_000) };
  r.throwIfProblems();
  return settings;
}
