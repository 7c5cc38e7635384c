// Screening of a business, its officers and every named party of its ownership graph with the screening
// module's evaluateScreening (outside any transaction), and sanctions exposure through ownership from the
// ownership engine: the aggregated share held by listed parties as a range, OFAC's 50 % rule, EU/UK control.

import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import { sanctionsExposure, type SanctionsExposure } from '../../engines/ownership/index.js';
import { evaluateScreening, type ScreeningIndexCache } from '../checks/index.js';
import type { LoadedGraph } from './graph.js';
import { share } from './view.js';

/** Most graph parties screened for one business (the closest to the business first). */
export const MAX_SCREENED = 100;

type Input = Parameters<typeof evaluateScreening>[0]['input'];

export interface PartyScreening {
  node_id: string;
  name: string;
  kind: 'entity' | 'person';
  status: 'no_match' | 'potential_match' | 'match' | 'unavailable';
  score: number;
  hits: { entity_id: string; source: string; names: string[]; datasets: string[]; score: number }[];
}

export interface BusinessScreening {
  screened_at: string;
  status: 'no_match' | 'potential_match' | 'match' | 'unavailable';
  parties: PartyScreening[];
  sanctions_exposure: ExposureView;
  /** The same computation as if every potential match were confirmed: the worst case to review. */
  sanctions_exposure_if_potential_confirmed: ExposureView;
}

export interface ExposureView {
  listed_ownership: Record<string, number>;
  ofac_50_percent_rule: 'met' | 'possible' | 'not_met';
  controlled_by_listed: boolean;
  contributors: { node_id: string; ownership: Record<string, number>; control: boolean }[];
}

const exposureView = (x: SanctionsExposure): ExposureView => ({
  listed_ownership: share(x.listedOwnership),
  ofac_50_percent_rule: x.ofac50PercentRule,
  controlled_by_listed: x.controlledByListed,
  contributors: x.contributors.map((c) => ({ node_id: c.nodeId, ownership: share(c.ownership), control: c.control })),
});

/** Named parties in breadth-first order from the business (the business itself first). */
function parties(l: LoadedGraph, businessName: string, country: string | null) {
  const order: string[] = [l.rootRef];
  const seen = new Set(order);
  for (let i = 0; i < order.length && order.length < MAX_SCREENED; i++)
    for (const id of l.graph.inbound.get(order[i]!) ?? []) {
      const from = l.graph.edges.get(id)!.from;
      if (!seen.has(from)) (seen.add(from), order.push(from));
    }
  return order
    .map((id) => ({ id, node: l.graph.nodes.get(id) }))
    .filter(({ id, node }) => id === l.rootRef || (node && node.kind !== 'unknown' && node.name && !node.unspecifiedReason))
    .slice(0, MAX_SCREENED)
    .map(({ id, node }) => {
      const person = l.persons.get(id)?.data;
      const entity = l.entities.get(id)?.data;
      const input: Input = {
        name: id === l.rootRef ? businessName : node!.name!,
        entity_type: node?.kind === 'person' ? 'person' : 'organization',
        subject_reference: `business-party:${id}`.slice(0, 200),
        ...(person?.birthYear
          ? {
              date_of_birth: person.birthMonth
                ? `${person.birthYear}-${String(person.birthMonth).padStart(2, '0')}`
                : String(person.birthYear),
            }
          : {}),
        ...(id === l.rootRef && country
          ? { country }
          : entity?.country && /^[A-Z]{2}$/.test(entity.country)
            ? { country: entity.country }
            : {}),
      };
      return { id, kind: (node?.kind === 'person' ? 'person' : 'entity') as 'person' | 'entity', input };
    });
}

export async function screenBusiness(
  ctx: RequestContext,
  sealer: Sealer,
  cache: ScreeningIndexCache,
  l: LoadedGraph,
  businessName: string,
  country: string | null,
): Promise<BusinessScreening> {
  const results: PartyScreening[] = [];
  for (const p of parties(l, businessName, country)) {
    try {
      const o = await evaluateScreening({ ctx, sealer, cache, input: p.input });
      const hits = (
        (o.result as { hits?: { entity_id: string; source: string; names: string[]; datasets: string[]; score: number }[] }).hits ?? []
      )
        .slice(0, 5)
        .map((h) => ({ entity_id: h.entity_id, source: h.source, names: h.names.slice(0, 3), datasets: h.datasets, score: h.score }));
      results.push({
        node_id: p.id,
        name: p.input.name,
        kind: p.kind,
        status: o.status as PartyScreening['status'],
        score: o.score ?? 0,
        hits,
      });
    } catch (err) {
      // No list imported for this environment: reported, not a failure of the business record.
      if (!(err instanceof AppError && err.code === 'check_unavailable')) throw err;
      results.push({ node_id: p.id, name: p.input.name, kind: p.kind, status: 'unavailable', score: 0, hits: [] });
    }
  }
  const listed = new Set(results.filter((r) => r.status === 'match' && r.node_id !== l.rootRef).map((r) => r.node_id));
  const possible = new Set(
    results.filter((r) => r.status !== 'no_match' && r.status !== 'unavailable' && r.node_id !== l.rootRef).map((r) => r.node_id),
  );
  const rank = { unavailable: 0, no_match: 1, potential_match: 2, match: 3 } as const;
  const worst = results.reduce<PartyScreening['status']>((w, r) => (rank[r.status] > rank[w] ? r.status : w), 'unavailable');
  return {
    screened_at: new Date().toISOString(),
    status: worst,
    parties: results,
    sanctions_exposure: exposureView(sanctionsExposure(l.graph, l.rootRef, listed)),
    sanctions_exposure_if_potential_confirmed: exposureView(sanctionsExposure(l.graph, l.rootRef, possible)),
  };
}
