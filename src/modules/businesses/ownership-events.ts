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

/**
 * After an import changed some registry subjects' owners: every business record (any tenant) whose ownership
 * graph is now different gets its new digest, an audit row, a `business.ownership_changed` event and a
 * business_ownership alert (which opens or joins the business's alert case). Returns how many changed.
 */
export async function notifyOwnershipChanges(db: Db, changed: { source: string; refs: string[]; batchId?: string }): Promise<number> {
  if (!changed.refs.length) return 0;
  const refs = await affectedRefs(db, changed.source, changed.refs);
  let n = 0;
  for (let i = 0; i < refs.length; i += 1000) {
    for (const b of await businesses.onRegistryRecords(db, changed.source, refs.slice(i, i + 1000))) {
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
          metadata: { batch_id: changed.batchId ?? null, previous_hash: b.ownership_hash, hash },
        });
        await enqueueEvent(tx, ctx, {
          type: 'business.ownership_changed',
          resourceType: 'business',
          resourceId: b.id,
          data: { id: b.id, reference: b.reference, source: b.source, source_ref: b.source_ref, batch_id: changed.batchId ?? '' },
        });
        await raiseAlert(tx, ctx, {
          kind: 'business_ownership',
          severity: 'medium',
          subjectType: 'business',
          subjectId: b.id,
          subjectReference: b.reference,
          title: `Ownership of ${b.name} changed in the registry`,
          details: { batch_id: changed.batchId ?? null, source: b.source, source_ref: b.source_ref },
          dedupeKey: hash,
        });
      });
      n++;
    }
  }
  return n;
}
