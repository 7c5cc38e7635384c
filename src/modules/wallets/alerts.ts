import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { raiseAlert, type Severity } from '../cases/index.js';
import type { MonitorRow } from './repository.js';

const SEVERITY: Record<string, Severity> = { low: 'low', medium: 'medium', high: 'high', severe: 'critical' };

/**
 * The wallet_risk alert of a monitor whose level or categories changed (the caller decided that it
 * changed). Worked in the monitor's alert_review case (cases/alerts.ts); severity follows the new
 * level (severe → critical). The dedupe key is the transition, so a retried job never raises it twice.
 */
export async function raiseWalletAlert(
  tx: Queryable,
  ctx: RequestContext,
  a: {
    monitor: MonitorRow;
    before: { level: string; categories: string[] };
    after: { level: string; categories: string[] };
    screeningId: string;
    score: number;
    trigger: string;
  },
): Promise<string> {
  const m = a.monitor;
  const raised = await raiseAlert(tx, ctx, {
    kind: 'wallet_risk',
    severity: SEVERITY[a.after.level] ?? 'medium',
    subjectType: 'wallet_monitor',
    subjectId: m.id,
    subjectReference: m.subject_reference,
    title: `Wallet ${m.chain} ${m.normalized_address}: risk ${a.before.level} → ${a.after.level}`,
    details: {
      monitor_id: m.id,
      address: m.normalized_address,
      chain: m.chain,
      before: a.before,
      after: a.after,
      score: a.score,
      screening_id: a.screeningId,
      trigger: a.trigger,
    },
    dedupeKey: `${m.fingerprint}>${a.after.level}|${a.after.categories.join(',')}`,
  });
  return raised.alert.id;
}
