import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import { emitAudit } from '../../platform/audit.js';
import { conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { withTransaction } from '../../platform/transaction.js';
import { riskFingerprint } from '../../engines/wallets/index.js';
import type { WalletIndexes } from './indexes.js';
import { computeWalletScreen, fingerprintCategories, insertScreening, parseRequestAddress, recordScreened } from './screen-wallet.js';
import { toMonitor, walletMonitors, type MonitorRow } from './repository.js';
import type { MonitorWalletBody, WalletMonitor } from './schemas.js';

/** The live (not stopped) monitor of this subject and address, if any: the route answers 200 with it. */
export async function existingMonitor(ctx: RequestContext, body: MonitorWalletBody): Promise<MonitorRow | null> {
  const parsed = parseRequestAddress(body.address, body.chain);
  return walletMonitors.findLive(ctx.db, ctx, body.subject_reference, parsed.normalized);
}

/**
 * POST /v1/wallets/monitor: screens the address now (billed like a screening) and registers it for
 * re-screening on list updates and new transfers. Registering the same subject and address again
 * returns the existing monitor unchanged.
 */
export async function registerMonitor(
  ctx: RequestContext,
  sealer: Sealer,
  body: MonitorWalletBody,
  indexes: WalletIndexes,
): Promise<WalletMonitor> {
  const existing = await existingMonitor(ctx, body);
  if (existing) return toMonitor(existing);
  const result = await computeWalletScreen(ctx, sealer, body, indexes);
  return withTransaction(ctx, async (tx) => {
    // Re-checked in the transaction: the partial unique index makes a concurrent twin fail here.
    const twin = await walletMonitors.findLive(tx, ctx, body.subject_reference, result.normalizedAddress);
    if (twin) return toMonitor(twin);
    const id = newId('walletMonitor');
    const screening = await insertScreening(tx, ctx, result, {
      subjectReference: body.subject_reference,
      monitorId: id,
      trigger: 'monitor',
    });
    await recordScreened(tx, ctx, screening, result);
    const row = await walletMonitors.insert(tx, ctx, {
      id,
      subject_reference: body.subject_reference,
      address: body.address.trim(),
      chain: result.chain,
      normalized_address: result.normalizedAddress,
      state: 'active',
      last_screening_id: screening.id,
      fingerprint: riskFingerprint(result),
      level: result.risk.level,
      categories: fingerprintCategories(result),
    });
    await emitAudit(tx, ctx, {
      action: 'wallet_monitor.created',
      resourceType: 'wallet_monitor',
      resourceId: id,
      metadata: { subject_reference: body.subject_reference, chain: row.chain, level: row.level, screening_id: screening.id },
    });
    return toMonitor(row);
  });
}

const MOVES: Record<'pause' | 'resume' | 'stop', { from: MonitorRow['state'][]; to: MonitorRow['state'] }> = {
  pause: { from: ['active'], to: 'paused' },
  resume: { from: ['paused'], to: 'active' },
  stop: { from: ['active', 'paused'], to: 'stopped' },
};

/** pause (active → paused), resume (paused → active), stop (active | paused → stopped, final). Repeating a move is a no-op. */
export async function moveMonitor(ctx: RequestContext, id: string, move: keyof typeof MOVES): Promise<WalletMonitor> {
  const m = MOVES[move];
  return withTransaction(ctx, async (tx) => {
    const row = await walletMonitors.get(tx, ctx, id, true);
    if (!row) throw notFound('wallet monitor', 'id');
    if (row.state === m.to) return toMonitor(row);
    if (!m.from.includes(row.state)) throw conflict(`A ${row.state} monitor cannot be ${move === 'stop' ? 'stopped' : `${move}d`}.`, 'id');
    const updated = (await walletMonitors.setState(tx, ctx, id, m.to))!;
    await emitAudit(tx, ctx, {
      action: `wallet_monitor.${move === 'stop' ? 'stopped' : `${move}d`}`,
      resourceType: 'wallet_monitor',
      resourceId: id,
      diff: { state: { before: row.state, after: m.to } },
    });
    return toMonitor(updated);
  });
}
