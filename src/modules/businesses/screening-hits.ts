// What a screening hit of a business does, at creation and after a list update alike: a
// business.screening_hit event and a business_screening alert (which opens or joins the business's case).

import type { RequestContext } from '../../platform/context.js';
import type { Queryable } from '../../platform/db.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { raiseAlert } from './deps.js';
import type { BusinessRow } from './repository.js';
import type { BusinessScreening, PartyScreening } from './screen.js';

export const isHit = (p: Pick<PartyScreening, 'status'>): boolean => p.status === 'match' || p.status === 'potential_match';

/** party node id + list entity id of every hit: what "new since the last screening" is measured by. */
export function hitKeys(s: Pick<BusinessScreening, 'parties'> | null | undefined): Set<string> {
  const out = new Set<string>();
  for (const p of s?.parties ?? []) if (isHit(p)) for (const h of p.hits) out.add(JSON.stringify([p.node_id, h.entity_id]));
  return out;
}

export async function raiseScreeningHit(
  tx: Queryable,
  ctx: RequestContext,
  row: Pick<BusinessRow, 'id' | 'reference' | 'name'>,
  s: BusinessScreening,
  trigger: 'created' | 'list_update',
): Promise<void> {
  const hits = s.parties.filter(isHit);
  const data = {
    id: row.id,
    reference: row.reference,
    status: s.status,
    parties: hits.map((h) => ({ node_id: h.node_id, name: h.name, status: h.status, score: h.score })),
    ofac_50_percent_rule: s.sanctions_exposure.ofac_50_percent_rule,
    controlled_by_listed: s.sanctions_exposure.controlled_by_listed,
    trigger,
  };
  await enqueueEvent(tx, ctx, { type: 'business.screening_hit', resourceType: 'business', resourceId: row.id, data });
  await raiseAlert(tx, ctx, {
    kind: 'business_screening',
    severity: s.status === 'match' || s.sanctions_exposure.ofac_50_percent_rule !== 'not_met' ? 'high' : 'medium',
    subjectType: 'business',
    subjectId: row.id,
    subjectReference: row.reference,
    title: `Screening ${s.status === 'match' ? 'match' : 'potential match'} for ${row.name} or its parties${trigger === 'list_update' ? ' after a list update' : ''}`,
    details: data,
    dedupeKey: [...hitKeys(s)].sort().join(','), // text: no NUL (PostgreSQL refuses it)
  });
}
