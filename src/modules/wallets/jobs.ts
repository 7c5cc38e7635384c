import type { Db } from '../../platform/db.js';
import type { Sealer } from '../../platform/crypto.js';
import type { JobHandler } from '../../platform/jobs.js';
import { QUEUES } from '../../platform/queues.js';
import { rescreenKeys, rescreenListUpdates } from './rescreen.js';
import { chainDataJobHandler } from './chain-data.js';
import type { WalletsConfig } from './config.js';
import type { WalletIndexes } from './indexes.js';

/** How often the recurring tick looks for list snapshot switches (two tiny queries when nothing changed). */
export const WALLETS_RECURRING = [{ queue: QUEUES.walletsRescreen, everyMs: 10_000 }];

/**
 * `wallets.rescreen`: without a payload (the recurring tick), re-screens the monitors a list snapshot
 * switch affects; with `kind: 'keys'` (an import, KYT transfers), those near the touched addresses.
 */
export function walletJobHandlers(
  db: Db,
  sealerOf: () => Sealer,
  config: WalletsConfig,
  indexes: () => WalletIndexes,
): Record<string, JobHandler> {
  return {
    [QUEUES.walletsChainData]: chainDataJobHandler(db, config.chainData, indexes),
    [QUEUES.walletsRescreen]: async (job) => {
      const p = job.payload as { kind?: string };
      if (p.kind === 'keys') await rescreenKeys(db, sealerOf(), job.payload as never, indexes(), `job:${job.id}`);
      else await rescreenListUpdates(db, sealerOf(), indexes(), `job:${job.id}`);
    },
  };
}
