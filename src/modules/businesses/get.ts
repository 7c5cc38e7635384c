import type { RequestContext } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import type { EntityRecord } from '../../providers/registries/index.js';
import { loadGraph, type LoadedGraph } from './graph.js';
import { registryBatches, registryRecords } from './registry-repository.js';
import { businesses, type BusinessRow } from './repository.js';
import type { Business } from './schemas.js';
import { businessView } from './view.js';
import { personVerificationStatuses } from './person-verification.js';

export async function loadBusiness(
  ctx: RequestContext,
  id: string,
): Promise<{ row: BusinessRow; loaded?: LoadedGraph; entity?: EntityRecord }> {
  const row = await businesses.get(ctx.db, ctx, id);
  if (!row) throw notFound('business', 'id');
  if (row.source === 'manual') return { row };
  const [loaded, stored] = await Promise.all([
    loadGraph(ctx.db, row.source, row.source_ref),
    registryRecords.entity(ctx.db, row.source, row.source_ref),
  ]);
  if (stored) loaded.batchIds.add(stored.batch_id);
  // The registry row is the live data; what was stored at creation stands in if it is gone.
  return { row, loaded, entity: stored?.data ?? (row.data as unknown as EntityRecord) };
}

export async function getBusiness(ctx: RequestContext, id: string): Promise<Business> {
  const { row, loaded, entity } = await loadBusiness(ctx, id);
  const batches = loaded ? await registryBatches.byIds(ctx.db, [...loaded.batchIds].sort()) : [];
  const view = businessView(row, loaded, entity, batches);
  const verified = await personVerificationStatuses(ctx, row.id);
  for (const o of view.officers) o.verification = verified.get(o.node_id) ?? null;
  return view;
}
