/** Limits of one-time-code verification. All durations in seconds. */
export interface RateWindow {
  windowSeconds: number;
  maxSends: number;
}

export interface OtpConfig {
  codeLength: number;
  ttlSeconds: number;
  /** Wrong codes accepted before the verification locks. */
  maxAttempts: number;
  /** Sends per verification, the first one included. */
  maxSends: number;
  resendCooldownSeconds: number;
  /** Sends to one destination across all verifications (SMS pumping, mail bombing). */
  destinationWindows: RateWindow[];
}

export const defaultOtpConfig: OtpConfig = {
  codeLength: 6,
  ttlSeconds: 600,
  maxAttempts: 5,
  maxSends: 3,
  resendCooldownSeconds: 30,
  destinationWindows: [
    { windowSeconds: 600, maxSends: 3 },
    { windowSeconds: 3600, maxSends: 5 },
    { windowSeconds: 86_400, maxSends: 10 },
  ],
};

export function resolveOtpConfig(partial: Partial<OtpConfig> = {}): OtpConfig {
  const config = { ...defaultOtpConfig, ...partial };
  if (!Number.isInteger(config.codeLength) || config.codeLength < 4 || config.codeLength > 10) {
    throw new RangeError('codeLength must be an integer between 4 and 10');
  }
  for (const key of ['ttlSeconds', 'maxAttempts', 'maxSends'] as const) {
    if (!(config[key] > 0)) throw new RangeError(`${key} must be positive`);
  }
  return config;
}
