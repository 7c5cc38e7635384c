import type { Db } from '../../platform/db.js';
import type { Sealer } from '../../platform/crypto.js';
import { systemContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { AddressIndex, riskFingerprint, type AttributionEntry } from '../../engines/wallets/index.js';
import { SANDBOX_SOURCE, snapshots } from '../checks/index.js';
import { neighbourhood, snapshotCryptoEntries, type WalletIndexes } from './indexes.js';
import { computeWalletScreen, fingerprintCategories, insertScreening } from './screen-wallet.js';
import { walletListState, walletMonitors, type MonitorRow } from './repository.js';
import { WALLET_RISK_CHANGED } from './events.js';
import { raiseWalletAlert } from './alerts.js';

type Tenant = { accountId: string; environment: 'sandbox' | 'production' };

export interface WalletRescreenSummary {
  sources: string[];
  changedKeys: number;
  monitorsScreened: number;
  riskChanged: number;
}

/** Hops a monitor's re-screen uses (the screening default). */
export const MONITOR_HOPS = 2;

/** key → signature (categories and entities) of a snapshot's crypto entries. */
function signatures(entries: AttributionEntry[], name: string): Map<string, string> {
  const ix = new AddressIndex();
  ix.add(entries);
  const out = new Map<string, string>();
  for (const k of ix.keysOf(name))
    out.set(
      k,
      ix
        .lookupKey(k)
        .map((e) => `${e.category}|${e.entity?.id ?? ''}|${e.entity?.name ?? ''}`)
        .sort()
        .join(';'),
    );
  return out;
}

/** The address keys whose listing differs between two versions of a source (added, removed or changed). */
export function diffKeys(before: Map<string, string>, after: Map<string, string>): Set<string> {
  const out = new Set<string>();
  for (const [k, v] of after) if (before.get(k) !== v) out.add(k);
  for (const k of before.keys()) if (!after.has(k)) out.add(k);
  return out;
}

/**
 * Re-screens monitors and records what changed: every re-screen is stored as a screening (trigger
 * list_update or transfers) and moves the monitor's latest screening; only a change of level or
 * categories (riskFingerprint) writes the audit row, the wallet.risk_changed event (before / after)
 * and a wallet_risk alert (cases/alerts.ts raiseAlert). Re-screens are not billed. A monitor paused or stopped meanwhile is skipped.
 */
export async function rescreenMonitors(
  db: Db,
  sealer: Sealer,
  monitors: MonitorRow[],
  trigger: 'list_update' | 'transfers',
  requestId: string,
  indexes: WalletIndexes,
): Promise<{ screened: number; changed: number }> {
  let screened = 0;
  let changed = 0;
  for (const m of monitors) {
    const ctx = systemContext(db, m.account_id, m.environment, requestId);
    const result = await computeWalletScreen(ctx, sealer, { address: m.address, chain: m.chain, hops: MONITOR_HOPS }, indexes);
    const fingerprint = riskFingerprint(result);
    const moved = await db.transaction(async (tx) => {
      const current = await walletMonitors.get(tx, ctx, m.id, true);
      if (!current || current.state !== 'active') return null;
      const screening = await insertScreening(tx, ctx, result, {
        subjectReference: current.subject_reference,
        monitorId: current.id,
        trigger,
      });
      const categories = fingerprintCategories(result);
      await walletMonitors.recordRescreen(tx, current.id, { screeningId: screening.id, fingerprint, level: result.risk.level, categories });
      if (current.fingerprint === fingerprint) return false;
      const before = { level: current.level, categories: current.categories };
      const after = { level: result.risk.level, categories };
      await emitAudit(tx, ctx, {
        action: 'wallet_monitor.risk_changed',
        resourceType: 'wallet_monitor',
        resourceId: current.id,
        diff: { level: { before: before.level, after: after.level }, categories: { before: before.categories, after: after.categories } },
        metadata: { screening_id: screening.id, trigger },
      });
      const alertId = await raiseWalletAlert(tx, ctx, {
        monitor: current,
        before,
        after,
        screeningId: screening.id,
        score: result.risk.score,
        trigger,
      });
      await enqueueEvent(tx, ctx, {
        type: WALLET_RISK_CHANGED,
        resourceType: 'wallet_monitor',
        resourceId: current.id,
        data: {
          monitor_id: current.id,
          subject_reference: current.subject_reference,
          address: current.normalized_address,
          chain: current.chain,
          before,
          after,
          screening_id: screening.id,
          trigger,
          alert_id: alertId,
        },
      });
      return true;
    });
    if (moved === null) continue;
    screened++;
    if (moved) changed++;
  }
  return { screened, changed };
}

/** The monitors of a tenant whose exposure a change at `keys` can alter (within `depth` hops). */
async function affectedMonitors(db: Db, indexes: WalletIndexes, t: Tenant, keys: Set<string>, depth: number): Promise<MonitorRow[]> {
  const { graph } = await indexes.tenant(t);
  const around = depth > 0 ? neighbourhood(graph, keys, depth) : keys;
  return walletMonitors.activeByAddress(db, [...around], t);
}

/**
 * After list snapshots switched: for each source whose active snapshot differs from the one monitors
 * were last re-screened against, diff the two snapshots' crypto addresses and re-screen only the
 * monitors within MONITOR_HOPS of a changed address. Run by the recurring `wallets.rescreen` job, so
 * a switch made by any process (import, sync, CLI) is picked up; the processed snapshot is recorded
 * after its re-screens, so a crash re-runs them (a re-screen without a change emits nothing).
 */
export async function rescreenListUpdates(
  db: Db,
  sealer: Sealer,
  cache: WalletIndexes,
  requestId = 'job:wallets.rescreen',
): Promise<WalletRescreenSummary> {
  const summary: WalletRescreenSummary = { sources: [], changedKeys: 0, monitorsScreened: 0, riskChanged: 0 };
  const active = new Map((await snapshots.active(db)).map((s) => [s.source, s.id]));
  const done = await walletListState.all(db);
  const sources = [...new Set([...active.keys(), ...done.keys()])].filter((s) => active.get(s) !== done.get(s)).sort();
  if (sources.length === 0) return summary;
  cache.invalidateLists();
  const tenants = await walletMonitors.tenants(db);
  if (tenants.length === 0) {
    // Nothing to re-screen: record the switch without reading the snapshots.
    for (const source of sources) await walletListState.set(db, source, active.get(source) ?? null);
    summary.sources = sources;
    return summary;
  }
  for (const source of sources) {
    const cur = active.get(source) ?? null;
    const prev = done.get(source) ?? null;
    const before = prev ? signatures(await snapshotCryptoEntries(db, prev, source), source) : new Map<string, string>();
    const after = cur ? signatures(await snapshotCryptoEntries(db, cur, source), source) : new Map<string, string>();
    const keys = diffKeys(before, after);
    summary.sources.push(source);
    summary.changedKeys += keys.size;
    if (keys.size) {
      for (const t of tenants) {
        if (source === SANDBOX_SOURCE && t.environment === 'production') continue;
        const monitors = await affectedMonitors(db, cache, t, keys, MONITOR_HOPS);
        const r = await rescreenMonitors(db, sealer, monitors, 'list_update', requestId, cache);
        summary.monitorsScreened += r.screened;
        summary.riskChanged += r.changed;
      }
    }
    await walletListState.set(db, source, cur);
  }
  return summary;
}

/** After an import or KYT transfers: re-screen the tenant's monitors within `depth` hops of the touched keys. */
export async function rescreenKeys(
  db: Db,
  sealer: Sealer,
  p: { account_id: string; environment: 'sandbox' | 'production'; keys: string[]; depth: number; all?: boolean },
  cache: WalletIndexes,
  requestId = 'job:wallets.rescreen',
): Promise<{ screened: number; changed: number }> {
  const t = { accountId: p.account_id, environment: p.environment };
  cache.invalidateTenant(t);
  const monitors = p.all ? await allActive(db, t) : await affectedMonitors(db, cache, t, new Set(p.keys), p.depth);
  return rescreenMonitors(db, sealer, monitors, 'transfers', requestId, cache);
}

async function allActive(db: Db, t: Tenant): Promise<MonitorRow[]> {
  const out: MonitorRow[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await walletMonitors.page(db, t, { state: 'active', limit: 100, ...(cursor ? { cursor } : {}) });
    out.push(...(page.data as MonitorRow[]));
    if (!page.next_cursor) return out;
    cursor = page.next_cursor;
  }
}
