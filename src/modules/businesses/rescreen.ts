// Business screening again after a sanctions or PEP list changed, as name monitoring and wallet monitors
// are: a recurring tick compares the active list snapshots with the ones the businesses were last
// re-screened against; after a switch every screened business (of the environments the switch concerns)
// is screened again outside any transaction, and a hit not seen before raises business.screening_hit
// (trigger list_update) and a business_screening alert. The processed snapshots are recorded after the
// re-screens, so a crash re-runs them; a re-screen without a new hit raises nothing.

import type { Db } from '../../platform/db.js';
import type { Sealer } from '../../platform/crypto.js';
import { emitAudit } from '../../platform/audit.js';
import { systemContext, type Environment } from '../../platform/context.js';
import type { JobHandler } from '../../platform/jobs.js';
import { QUEUES } from '../../platform/queues.js';
import { withTransaction } from '../../platform/transaction.js';
import { SANDBOX_SOURCE, snapshots, type ScreeningIndexCacheLike } from './deps.js';
import { loadGraph, singleNodeGraph } from './graph.js';
import { businessListState, screenedBusinessesAfter, setBusinessScreening, type BusinessRow } from './repository.js';
import { screenBusiness, type BusinessScreening } from './screen.js';
import { hitKeys, raiseScreeningHit } from './screening-hits.js';

/** How often the tick looks for a list snapshot switch (two small queries when nothing changed). */
export const BUSINESSES_RECURRING = [{ queue: QUEUES.businessesRescreen, everyMs: 30_000 }];
const PAGE = 50;

export interface BusinessRescreenSummary {
  sources: string[];
  screened: number;
  newHits: number;
}

async function rescreenOne(db: Db, sealer: Sealer, cache: ScreeningIndexCacheLike, b: BusinessRow, requestId: string): Promise<number> {
  const ctx = systemContext(db, b.account_id, b.environment as Environment, requestId);
  const loaded = b.source === 'manual' ? singleNodeGraph('manual', b.source_ref, b.name) : await loadGraph(db, b.source, b.source_ref);
  const country = typeof b.data['country'] === 'string' && /^[A-Z]{2}$/.test(b.data['country']) ? b.data['country'] : null;
  const next = await screenBusiness(ctx, sealer, cache, loaded, b.name, country);
  const before = hitKeys(b.screening as BusinessScreening | null);
  const fresh = [...hitKeys(next)].filter((k) => !before.has(k));
  await withTransaction(ctx, async (tx) => {
    await setBusinessScreening(tx, b.id, next);
    await emitAudit(tx, ctx, {
      action: 'business.rescreened',
      resourceType: 'business',
      resourceId: b.id,
      metadata: { trigger: 'list_update', status: next.status, new_hits: fresh.length },
    });
    if (fresh.length) await raiseScreeningHit(tx, ctx, b, next, 'list_update');
  });
  return fresh.length;
}

export async function rescreenBusinessesOnListUpdate(
  db: Db,
  sealer: Sealer,
  cache: ScreeningIndexCacheLike,
  requestId = 'job:businesses.rescreen',
): Promise<BusinessRescreenSummary> {
  const active = new Map((await snapshots.active(db)).map((s) => [s.source, s.id]));
  const done = await businessListState.all(db);
  const sources = [...new Set([...active.keys(), ...done.keys()])].filter((s) => active.get(s) !== done.get(s)).sort();
  const summary: BusinessRescreenSummary = { sources, screened: 0, newHits: 0 };
  if (!sources.length) return summary;
  // The index cache of this process must see the new snapshots now, not after its refresh period.
  cache.invalidate();
  // The sandbox list is screened by sandbox keys only: a switch of it alone leaves production untouched.
  const sandboxOnly = sources.every((s) => s === SANDBOX_SOURCE);
  for (let after = ''; ;) {
    const page = await screenedBusinessesAfter(db, after, PAGE);
    if (!page.length) break;
    for (const b of page) {
      if (sandboxOnly && b.environment === 'production') continue;
      summary.newHits += await rescreenOne(db, sealer, cache, b, requestId);
      summary.screened++;
    }
    after = page.at(-1)!.id;
  }
  for (const s of sources) await businessListState.set(db, s, active.get(s) ?? null);
  return summary;
}

export function businessJobHandlers(db: Db, sealerOf: () => Sealer, cacheOf: () => ScreeningIndexCacheLike): Record<string, JobHandler> {
  return {
    [QUEUES.businessesRescreen]: async (job) => {
      await rescreenBusinessesOnListUpdate(db, sealerOf(), cacheOf(), `job:${job.id}`);
    },
  };
}
