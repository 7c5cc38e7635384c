import type { ScreeningHit } from '../checks/index.js';

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * A referred session's review: its risk band (low → low, medium → medium, high → high), and
 * critical when screening confirmed a sanctions/PEP match.
 */
export function reviewSeverity(band: 'low' | 'medium' | 'high' | null, reasonCodes: readonly string[]): Severity {
  if (reasonCodes.includes('sanctions_pep_match')) return 'critical';
  return band ?? 'medium';
}

/**
 * A monitoring alert, from its hit: critical when the hit is as good as certain (a blocklist entry
 * or an equal identifier), high for a strong (≥ 0.9) sanctions hit, medium for a strong hit on other
 * data sets or any sanctions hit, else low. Migration 0013 applies the same rule to older alerts.
 */
export function alertSeverity(hit: Pick<ScreeningHit, 'blocked' | 'score' | 'datasets' | 'explanation'>): Severity {
  if (hit.blocked || hit.explanation?.components?.identifier === 'match') return 'critical';
  const sanctions = hit.datasets.includes('sanctions');
  if (hit.score >= 0.9 && sanctions) return 'high';
  if (hit.score >= 0.9 || sanctions) return 'medium';
  return 'low';
}
