import type { Db } from '../../platform/db.js';
import { systemContext } from '../../platform/context.js';
import type { JobHandler } from '../../platform/jobs.js';
import { QUEUES } from '../../platform/queues.js';
import { withTransaction } from '../../platform/transaction.js';
import {
  ChainDataError,
  esploraProvider,
  evmJsonRpcProvider,
  guardedFetch,
  type ChainDataProvider,
} from '../../providers/chain-data/index.js';
import { chainCursors } from './chain-data-repository.js';
import type { WalletsConfig } from './config.js';
import { recordKnownTransfers } from './imports.js';
import type { WalletIndexes } from './indexes.js';

type ChainDataSettings = WalletsConfig['chainData'];

/** The configured providers (none unless enabled and given a URL), every request through the outbound guard. */
export function chainDataProviders(s: ChainDataSettings): ChainDataProvider[] {
  if (!s.enabled) return [];
  const http = { enabled: true, timeoutMs: s.timeoutMs, fetch: guardedFetch({ allowPrivateNetworks: s.allowPrivateNetworks }) };
  const out: ChainDataProvider[] = [];
  if (s.esploraUrl) out.push(esploraProvider({ ...http, baseUrl: s.esploraUrl, chain: 'bitcoin' }));
  if (s.evmRpcUrl) out.push(evmJsonRpcProvider({ ...http, baseUrl: s.evmRpcUrl, chain: 'ethereum', tokens: s.evmTokens }));
  return out;
}

/** The recurring poll, only when chain data is enabled and a provider is configured. */
export function chainDataSchedule(s: ChainDataSettings): { queue: string; everyMs: number }[] {
  return s.enabled && (s.esploraUrl || s.evmRpcUrl) ? [{ queue: QUEUES.walletsChainData, everyMs: s.everyMs }] : [];
}

export interface PollSummary {
  polled: number;
  transfers: number;
  failed: { provider: string; address: string; kind: string; error: string }[];
}

/**
 * One poll: for each provider, the least recently polled monitored addresses on its chain get their
 * transfers since the stored cursor, recorded as known transfers (recordKnownTransfers queues the
 * re-screen of the monitors within reach, which raises wallet.risk_changed when a level or category
 * changes) with the new cursor in the same transaction. A failing address keeps its cursor and its
 * error; the others go on.
 */
export async function pollChainData(
  db: Db,
  s: ChainDataSettings,
  indexes: WalletIndexes,
  providers = chainDataProviders(s),
): Promise<PollSummary> {
  const summary: PollSummary = { polled: 0, transfers: 0, failed: [] };
  for (const p of providers) {
    for (const due of await chainCursors.due(db, p.name, [p.chain], s.batch)) {
      const t = { accountId: due.account_id, environment: due.environment };
      const ctx = systemContext(db, t.accountId, t.environment, `job:${QUEUES.walletsChainData}`);
      summary.polled++;
      try {
        const page = await p.fetchTransfers(due.normalized_address, due.cursor ?? undefined);
        const recorded = await withTransaction(ctx, async (tx) => {
          const r = await recordKnownTransfers(tx, t, `chain:${p.name}`, page.transfers);
          await chainCursors.save(tx, t, {
            provider: p.name,
            chain: p.chain,
            address: due.normalized_address,
            cursor: page.cursor ?? null,
            transfers: r.recorded,
            error: page.complete ? null : 'page limit reached: older history not read',
          });
          return r.recorded;
        });
        summary.transfers += recorded;
        if (recorded) indexes.invalidateTenant(t);
      } catch (err) {
        const kind = err instanceof ChainDataError ? err.kind : 'transient';
        const error = `${kind}: ${(err as Error).message}`.slice(0, 500);
        summary.failed.push({ provider: p.name, address: due.normalized_address, kind, error });
        await chainCursors.save(db, t, {
          provider: p.name,
          chain: p.chain,
          address: due.normalized_address,
          cursor: null,
          transfers: 0,
          error,
        });
      }
    }
  }
  return summary;
}

/** `wallets.chain_data`: one poll (does nothing while chain data is disabled). */
export function chainDataJobHandler(db: Db, s: ChainDataSettings, indexes: () => WalletIndexes): JobHandler {
  return async () => {
    if (!s.enabled) return;
    await pollChainData(db, s, indexes());
  };
}
