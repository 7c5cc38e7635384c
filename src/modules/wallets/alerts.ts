import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import type { MonitorRow } from './repository.js';

/**
 * The wallet_risk alert of a monitor whose level or categories changed. Alerts of kinds other than
 * screening need the cases module's generic raiseAlert, which is not on this branch yet: until it
 * is, no alert is raised and the change is reported by the wallet.risk_changed event (alert_id null)
 * and the audit row only. See docs/wallets.md.
 */
export async function raiseWalletAlert(
  _tx: Queryable,
  _ctx: RequestContext,
  _a: {
    monitor: MonitorRow;
    before: { level: string; categories: string[] };
    after: { level: string; categories: string[] };
    screeningId: string;
    score: number;
  },
): Promise<string | null> {
  return null;
}
