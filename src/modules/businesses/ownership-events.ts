import type { Db, Queryable } from '../../platform/db.js';
import type { RequestContext, Environment } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { newId } from '../../platform/ids.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { raiseAlert } from './deps.js';
import { loadGraph, LOAD_DEPTH } from './graph.js';
import { businesses } from './repository.js';
import { registryRecords } from './registry-repository.js';
import { ownershipHash } from './view.js';
import { sameEntityElsewhere } from './same-entity.js';

/** Most registry subjects followed downwards from one import's changes. */
const MAX_AFFECTED = 200_000;

/** The changed subjects and every registry record below them (whose graphs include them), bounded. */
async function affectedRefs(db: Queryable, source: string, refs: string[]): Promise<string[]> {
  const seen = new Set(refs);
  let frontier = refs;
  for (let d = 0; d < LOAD_DEPTH && frontier.length && seen.size < MAX_AFFECTED; d++) {
    frontier = (await registryRecords.subjectsOwnedBy(db, source, frontier)).filter((r) => !seen.has(r));
    frontier.forEach((r) => seen.add(r));
  }
  return [...seen];
}

/** Most changed records whose same-entity records in other registers are looked up (in slices of 500). */
const CROSS_LOOKUP = 10_000;

/**
 * Graphs cross registers through same-entity records (graph.ts): the records of other registers that are the same
 * entity as an affected record, and every record below them there, are affected too (one step across).
 */
async function affectedElsewhere(db: Queryable, source: string, refs: string[]): Promise<Map<string, string[]>> {
  const bySource = new Map<string, Set<string>>();
  for (let i = 0; i < Math.min(refs.length, CROSS_LOOKUP); i += 500) {
    const records = await registryRecords.entities(
      db,
      refs.slice(i, i + 500).map((ref) => ({ source, ref })),
    );
    const same = await sameEntityElsewhere(
      db,
      source,
      records.map((record) => ({ key: record.ref, record })),
    );
    for (const others of same.values()) for (const o of others) bySource.set(o.source, (bySource.get(o.source) ?? new Set()).add(o.ref));
  }
  const out = new Map<string, string[]>();
  for (const [s, set] of bySource) out.set(s, await affectedRefs(db, s, [...set]));
  return out;
}

/**
 * After an import changed some registry subjects' owners: every business record (any tenant) whose ownership
 * graph is now different gets its new digest, an audit row, a `business.ownership_changed` event and a
 * business_ownership alert (which opens or joins the business's alert case). Returns how many changed.
 */
export async function notifyOwnershipChanges(db: Db, changed: { source: string; refs: string[]; batchId?: string }): Promise<number> {
  if (!changed.refs.length) return 0;
  const refs = await affectedRefs(db, changed.source, changed.refs);
  const affected = new Map([[changed.source, refs], ...(await affectedElsewhere(db, changed.source, refs))]);
  let n = 0;
  for (const [source, list] of affected)
    for (let i = 0; i < list.length; i += 1000) n += await notifyBusinesses(db, source, list.slice(i, i + 1000), changed.batchId);
  return n;
}

/** The business records on these registry records whose ownership digest changed: digest, audit, event, alert. */
async function notifyBusinesses(db: Db, source: string, refs: string[], batchId: string | undefined): Promise<number> {
  let n = 0;
  for (const b of await businesses.onRegistryRecords(db, source, refs)) {
    const hash = ownershipHash(await loadGraph(db, b.source, b.source_ref));
    if (hash === b.ownership_hash) continue;
    const ctx: RequestContext = {
      db,
      accountId: b.account_id,
      environment: b.environment as Environment,
      actor: { type: 'system', id: 'registry_import' },
      scopes: ['*'],
      requestId: newId('request'),
    };
    await db.transaction(async (tx) => {
      await businesses.setOwnershipHash(tx, b.id, hash);
      await emitAudit(tx, ctx, {
        action: 'business.ownership_changed',
        resourceType: 'business',
        resourceId: b.id,
        metadata: { batch_id: batchId ?? null, previous_hash: b.ownership_hash, hash },
      });
      await enqueueEvent(tx, ctx, {
        type: 'business.ownership_changed',
        resourceType: 'business',
        resourceId: b.id,
        data: { id: b.id, reference: b.reference, source: b.source, source_ref: b.source_ref, batch_id: batchId ?? '' },
      });
      await raiseAlert(tx, ctx, {
        kind: 'business_ownership',
        severity: 'medium',
        subjectType: 'business',
        subjectId: b.id,
        subjectReference: b.reference,
        title: `Ownership of ${b.name} changed in the registry`,
        details: { batch_id: batchId ?? null, source: b.source, source_ref: b.source_ref },
        dedupeKey: hash,
      });
    });
    n++;
  }
  return n;
}
