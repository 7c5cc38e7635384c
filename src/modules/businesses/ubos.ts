import type { RequestContext } from '../../platform/context.js';
import { resolveUbos, type Basis } from '../../engines/ownership/index.js';
import { loadBusiness } from './get.js';
import type { Ubos, UbosQuery } from './schemas.js';
import { share } from './view.js';
import { personVerificationStatuses } from './person-verification.js';

export async function getUbos(ctx: RequestContext, id: string, q: UbosQuery): Promise<Ubos> {
  const { row, loaded } = await loadBusiness(ctx, id);
  const threshold = q.threshold ?? 25,
    basis: Basis = q.basis ?? 'any',
    maxDepth = q.max_depth ?? 10,
    asOf = q.as_of ?? new Date().toISOString().slice(0, 10);
  const head = { business_id: row.id, threshold, basis, as_of: asOf, max_depth: maxDepth };
  if (!loaded) return { ...head, owners: [], unresolved: [], cycles: [], senior_managing_officials: [] };
  const g = loaded.graph;
  const r = resolveUbos(g, loaded.rootRef, { threshold, basis, asOf, maxDepth });
  const name = (nodeId: string) => g.nodes.get(nodeId)?.name ?? null;
  const verified = await personVerificationStatuses(ctx, row.id);
  return {
    ...head,
    owners: r.owners.map((o) => ({
      node_id: o.personId,
      name: o.name ?? null,
      ownership: share(o.ownership),
      voting: share(o.voting),
      control: o.control,
      figure_basis: o.figureBasis,
      computed_ownership: share(o.computedOwnership),
      qualifies: o.qualifies,
      possibly_qualifies: o.possiblyQualifies,
      reasons: o.reasons,
      paths: o.paths.map((p) => ({
        node_ids: p.nodeIds,
        edge_ids: p.edgeIds,
        ownership: share(p.ownership),
        voting: share(p.voting),
        control: p.control,
      })),
      verification: verified.get(o.personId) ?? null,
    })),
    unresolved: r.unresolved.map((u) => ({
      node_id: u.nodeId,
      name: name(u.nodeId),
      reason: u.reason,
      detail: u.detail ?? null,
      ownership: u.ownership ? share(u.ownership) : null,
    })),
    cycles: r.cycles,
    senior_managing_officials: r.fallbackSeniorManagingOfficials.map((n) => ({ node_id: n, name: name(n) })),
  };
}
