import type { RateWindow } from './otp-config.js';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number; window: RateWindow };

/**
 * Decides whether one more code may be sent to a destination, given the times of earlier sends
 * (the HTTP layer reads them from storage across all verifications of that destination).
 * Sliding windows: an attacker pumping premium SMS hits the short window first, a slow one the daily window.
 */
export function decideDestinationRate(sentAt: readonly Date[], now: Date, windows: readonly RateWindow[]): RateDecision {
  const nowMs = now.getTime();
  let worst: { retryAfterSeconds: number; window: RateWindow } | null = null;
  for (const window of windows) {
    const start = nowMs - window.windowSeconds * 1000;
    const inWindow = sentAt
      .map((d) => d.getTime())
      .filter((t) => t > start && t <= nowMs)
      .sort((a, b) => a - b);
    if (inWindow.length < window.maxSends) continue;
    // The window frees a slot when the oldest send that still counts leaves it.
    const oldestCounting = inWindow[inWindow.length - window.maxSends] ?? nowMs;
    const retryAfterSeconds = Math.max(1, Math.ceil((oldestCounting + window.windowSeconds * 1000 - nowMs) / 1000));
    if (!worst || retryAfterSeconds > worst.retryAfterSeconds) worst = { retryAfterSeconds, window };
  }
  return worst ? { allowed: false, ...worst } : { allowed: true };
}
