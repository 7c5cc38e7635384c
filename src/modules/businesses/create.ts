import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import { emitAudit } from '../../platform/audit.js';
import { invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { withTransaction } from '../../platform/transaction.js';
import type { EntityRecord } from '../../providers/registries/index.js';
import type { ScreeningIndexCacheLike } from './deps.js';
import { raiseScreeningHit } from './screening-hits.js';
import { loadGraph, singleNodeGraph, type LoadedGraph } from './graph.js';
import { registryBatches, registryRecords, type BatchRow } from './registry-repository.js';
import { businesses, type BusinessRow } from './repository.js';
import type { Business, CreateBusiness } from './schemas.js';
import { screenBusiness, type BusinessScreening } from './screen.js';
import { businessView, ownershipHash } from './view.js';
import { fetchLiveEntry, type LiveRegistries } from './live.js';
import { notifyOwnershipChanges } from './ownership-events.js';

export interface Prepared {
  existing?: BusinessRow;
  insert: {
    source: string;
    source_ref: string;
    name: string;
    data: unknown;
    ownership_hash: string | null;
    screening: BusinessScreening | null;
  };
  loaded?: LoadedGraph;
  entity?: EntityRecord;
  batches: BatchRow[];
}

/** Validates, reads what the record is made from and screens it: everything slow, outside any transaction. */
export async function prepareBusiness(
  ctx: RequestContext,
  input: CreateBusiness,
  screening: { sealer: Sealer; cache: ScreeningIndexCacheLike },
  live?: LiveRegistries,
): Promise<Prepared> {
  if (input.manual && (input.source || input.source_ref))
    throw invalid('manual', 'Give either source and source_ref, or manual, not both.');
  const screen = (l: LoadedGraph, name: string, country: string | null) =>
    input.screen === false ? Promise.resolve(null) : screenBusiness(ctx, screening.sealer, screening.cache, l, name, country);
  if (input.manual) {
    const m = input.manual;
    const ref = newId('business');
    return {
      insert: {
        source: 'manual',
        source_ref: ref,
        name: m.name,
        data: {
          ...(m.registration_number ? { registrationNumber: m.registration_number } : {}),
          ...(m.lei ? { lei: m.lei.toUpperCase() } : {}),
          ...(m.country ? { country: m.country, jurisdiction: m.country } : {}),
          ...(m.legal_form ? { legalForm: m.legal_form } : {}),
          ...(m.incorporation_date ? { incorporationDate: m.incorporation_date } : {}),
        },
        ownership_hash: null,
        screening: await screen(singleNodeGraph('manual', ref, m.name), m.name, m.country ?? null),
      },
      batches: [],
    };
  }
  if (!input.source) throw invalid('source', 'Give source and source_ref (a search result), or manual.');
  if (!input.source_ref) throw invalid('source_ref', 'source_ref is required with source.');
  const existing = await businesses.bySourceRef(ctx.db, ctx, input.source, input.source_ref);
  if (existing) return { existing, insert: { ...existing, screening: null }, batches: [] };
  let e = await registryRecords.entity(ctx.db, input.source, input.source_ref);
  if (!e && live?.bySource.has(input.source)) {
    // Not imported: the live API's answer is stored as a batch of its own, then read like any import.
    const fetched = await fetchLiveEntry(ctx.db, live, input.source, input.source_ref);
    if (!fetched.unchanged) await notifyOwnershipChanges(ctx.db, { ...fetched.ownershipChanged, batchId: fetched.batch!.id });
    e = await registryRecords.entity(ctx.db, input.source, input.source_ref);
  }
  if (!e) throw notFound(`${input.source} registry record`, 'source_ref');
  const loaded = await loadGraph(ctx.db, input.source, input.source_ref);
  loaded.batchIds.add(e.batch_id);
  const batches = await registryBatches.byIds(ctx.db, [...loaded.batchIds].sort());
  const country = e.data.country && /^[A-Z]{2}$/.test(e.data.country) ? e.data.country : null;
  return {
    insert: {
      source: input.source,
      source_ref: input.source_ref,
      name: e.data.name,
      data: e.data,
      ownership_hash: ownershipHash(loaded),
      screening: await screen(loaded, e.data.name, country),
    },
    loaded,
    entity: e.data,
    batches,
  };
}

/** Creates the record (or returns the tenant's existing record of the same registry entry, created meanwhile). */
export async function createBusiness(ctx: RequestContext, input: CreateBusiness, p: Prepared): Promise<Business> {
  return withTransaction(ctx, async (tx) => {
    const { row, created } = await businesses.insert(tx, ctx, { id: newId('business'), reference: input.reference ?? null, ...p.insert });
    const view = businessView(row, p.loaded, p.entity, p.batches);
    if (!created) return view;
    await emitAudit(tx, ctx, {
      action: 'business.created',
      resourceType: 'business',
      resourceId: row.id,
      metadata: { source: row.source, source_ref: row.source === 'manual' ? null : row.source_ref, reference: row.reference },
    });
    await enqueueEvent(tx, ctx, {
      type: 'business.created',
      resourceType: 'business',
      resourceId: row.id,
      data: { id: row.id, reference: row.reference, source: row.source, source_ref: row.source_ref, name: row.name },
    });
    const s = p.insert.screening;
    if (s && (s.status === 'match' || s.status === 'potential_match')) await raiseScreeningHit(tx, ctx, row, s, 'created');
    return view;
  });
}
