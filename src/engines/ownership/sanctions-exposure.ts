import { resolveUbos, type UboOptions } from './resolve-ubos.js';
import { add, possiblyAtLeast, surelyAtLeast, ZERO_SHARE } from './share-range.js';
import type { OwnershipGraph, ShareRange } from './types.js';

export interface SanctionsExposure {
  /** Aggregated share held, directly or through chains, by the listed parties. */
  listedOwnership: ShareRange;
  /** OFAC 50 % rule: owned 50 % or more in the aggregate by blocked persons. */
  ofac50PercentRule: 'met' | 'possible' | 'not_met';
  /** EU/UK style: a listed party holds a control interest (or a sure majority) over the subject. */
  controlledByListed: boolean;
  contributors: { nodeId: string; ownership: ShareRange; control: boolean }[];
}

/**
 * The caller names the listed node ids. Listed parties are treated as end points: the walk stops at them,
 * so a listed company's share counts once, whoever owns it.
 */
export function sanctionsExposure(
  g: OwnershipGraph,
  subjectId: string,
  listed: ReadonlySet<string>,
  opts: Omit<UboOptions, 'basis'> = {},
): SanctionsExposure {
  // Cut the graph above listed nodes so they become terminals of the walk.
  const cut: OwnershipGraph = { nodes: new Map(g.nodes), edges: g.edges, inbound: new Map(g.inbound) };
  for (const id of listed) {
    const n = g.nodes.get(id);
    cut.inbound.set(id, []);
    if (n) cut.nodes.set(id, { ...n, kind: 'person', type: 'knownPerson' });
  }
  const res = resolveUbos(cut, subjectId, { ...opts, basis: 'any', threshold: 0 });
  const contributors = res.owners
    .filter((o) => listed.has(o.personId))
    .map((o) => ({ nodeId: o.personId, ownership: o.ownership, control: o.control.length > 0 || surelyAtLeast(o.ownership, 50.000001) }));
  const total = contributors.reduce((s, c) => add(s, c.ownership), ZERO_SHARE);
  return {
    listedOwnership: total,
    ofac50PercentRule: surelyAtLeast(total, 50) ? 'met' : possiblyAtLeast(total, 50) ? 'possible' : 'not_met',
    controlledByListed: contributors.some((c) => c.control),
    contributors,
  };
}
