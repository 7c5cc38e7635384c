import { add, multiply, possiblyAbove, surelyAbove, UNKNOWN_SHARE, ZERO_SHARE } from './share-range.js';
import type { Interest, OwnershipEdge, OwnershipGraph, OwnershipNode, ShareRange } from './types.js';

export type Basis = 'ownership' | 'voting' | 'control' | 'any';
export type UnresolvedReason = 'unknown_person' | 'exempt' | 'no_known_person' | 'non_public' | 'missing_share' | 'depth_limit' | 'state';

export interface UboOptions {
  threshold?: number;
  basis?: Basis;
  asOf?: string;
  maxDepth?: number;
}

export interface OwnershipPath {
  nodeIds: string[];
  edgeIds: string[];
  ownership: ShareRange;
  voting: ShareRange;
  control: boolean;
}

export interface Ubo {
  personId: string;
  name?: string;
  ownership: ShareRange;
  voting: ShareRange;
  control: string[];
  /** Figures from a relationship the register declared between person and subject, or multiplied along paths. */
  figureBasis: 'declared' | 'computed';
  computedOwnership: ShareRange;
  qualifies: boolean;
  possiblyQualifies: boolean;
  reasons: ('ownership_gt_threshold' | 'voting_gt_threshold' | 'control')[];
  paths: OwnershipPath[];
}

export interface Unresolved {
  nodeId: string;
  reason: UnresolvedReason;
  detail?: string;
  ownership?: ShareRange;
}

export interface UboResult {
  subjectId: string;
  owners: Ubo[];
  unresolved: Unresolved[];
  cycles: string[][];
  fallbackSeniorManagingOfficials: string[];
}

const CONTROL = new Set([
  'appointmentOfBoard',
  'otherInfluenceOrControl',
  'settlor',
  'trustee',
  'protector',
  'beneficiaryOfLegalArrangement',
  'nominee',
  'nominator',
  'controlViaCompanyRulesOrArticles',
  'controlByLegalFramework',
  'rightsGrantedByContract',
  'boardChair',
]);
const OFFICIAL = new Set(['seniorManagingOfficial', 'boardMember', 'boardChair']);

const REASONS: Record<string, UnresolvedReason> = {
  subjectExemptFromDisclosure: 'exempt',
  interestedPartyExemptFromDisclosure: 'exempt',
  noBeneficialOwners: 'no_known_person',
  NON_PUBLIC: 'non_public',
  NO_KNOWN_PERSON: 'no_known_person',
  NATURAL_PERSONS: 'unknown_person',
  NON_CONSOLIDATING: 'no_known_person',
};

const FULL: ShareRange = { min: 100, max: 100, minExclusive: false, maxExclusive: false };

export function isActive(i: Interest, asOf: string): boolean {
  return (!i.startDate || i.startDate <= asOf) && (!i.endDate || i.endDate > asOf);
}

/** Share an edge carries for one interest type; indirect interests are summaries, not a hop, so they are left out here. */
function hopShare(interests: Interest[], type: string): { share: ShareRange; missing: boolean } {
  const hop = interests.filter((i) => i.directOrIndirect !== 'indirect');
  const typed = hop.filter((i) => i.type === type);
  // A component link with no typed interest (BODS examples: {directOrIndirect:"unknown"}) says nothing about size.
  if (typed.length === 0) return hop.some((i) => i.type) ? { share: ZERO_SHARE, missing: false } : { share: UNKNOWN_SHARE, missing: true };
  let s = ZERO_SHARE,
    missing = false;
  for (const i of typed) {
    if (!i.share) missing = true;
    s = add(s, i.share ?? UNKNOWN_SHARE);
  }
  return { share: s, missing };
}

function terminalReason(n: OwnershipNode | undefined): UnresolvedReason | undefined {
  if (!n) return 'unknown_person';
  if (n.unspecifiedReason) return REASONS[n.unspecifiedReason] ?? 'unknown_person';
  if (n.kind === 'unknown') return 'unknown_person';
  if (n.kind === 'person') return n.type === 'knownPerson' || n.type === undefined ? undefined : 'unknown_person';
  if (n.type === 'state' || n.type === 'stateBody') return 'state';
  return 'no_known_person';
}

interface Acc {
  own: ShareRange;
  vote: ShareRange;
  control: Set<string>;
  paths: OwnershipPath[];
  missing: boolean;
}

export function resolveUbos(g: OwnershipGraph, subjectId: string, opts: UboOptions = {}): UboResult {
  const threshold = opts.threshold ?? 25,
    basis = opts.basis ?? 'any',
    maxDepth = opts.maxDepth ?? 10;
  const asOf = opts.asOf ?? new Date().toISOString().slice(0, 10);
  const acc = new Map<string, Acc>();
  const cycles: string[][] = [];
  const depthHits = new Set<string>();
  const nodes: string[] = [subjectId],
    edges: string[] = [];
  const onPath = new Set([subjectId]);
  /** Same-entity links on the current path: a step across registers is not a level of ownership. */
  let links = 0;

  const walk = (at: string, own: ShareRange, vote: ShareRange, ctl: boolean, ctlTypes: string[], missing: boolean): void => {
    const inbound = (g.inbound.get(at) ?? []).map((id) => g.edges.get(id)!).filter(Boolean);
    const live = inbound
      .map((e) => ({ e, ints: e.interests.filter((i) => isActive(i, asOf)) }))
      .filter(({ e, ints }) => e.interests.length === 0 || ints.some((i) => i.directOrIndirect !== 'indirect'));
    const node = g.nodes.get(at);
    if (at !== subjectId && (node?.kind !== 'entity' || live.length === 0 || node.unspecifiedReason)) {
      const a = acc.get(at) ?? { own: ZERO_SHARE, vote: ZERO_SHARE, control: new Set<string>(), paths: [], missing: false };
      a.own = add(a.own, own);
      a.vote = add(a.vote, vote);
      a.missing ||= missing;
      if (ctl) ctlTypes.forEach((t) => a.control.add(t));
      a.paths.push({ nodeIds: [...nodes].reverse(), edgeIds: [...edges].reverse(), ownership: own, voting: vote, control: ctl });
      acc.set(at, a);
      return;
    }
    if (nodes.length - links > maxDepth) {
      depthHits.add(at);
      return;
    }
    for (const { e, ints } of live) {
      if (onPath.has(e.from)) {
        cycles.push([...nodes.slice(nodes.indexOf(e.from)), e.from]);
        continue;
      }
      const link = e.sameEntity === true;
      const o = link ? { share: FULL, missing: false } : hopShare(ints, 'shareholding'),
        v = link ? { share: FULL, missing: false } : hopShare(ints, 'votingRights');
      const hopCtl = ints.filter((i) => i.directOrIndirect !== 'indirect' && i.type && CONTROL.has(i.type)).map((i) => i.type!);
      // Control passes up a chain through control interests or a sure majority of votes or shares.
      const carries = link || hopCtl.length > 0 || surelyAbove(o.share, 50) || surelyAbove(v.share, 50);
      nodes.push(e.from);
      edges.push(e.id);
      onPath.add(e.from);
      if (link) links++;
      walk(
        e.from,
        multiply(o.share, own),
        multiply(v.share, vote),
        ctl && carries,
        ctlTypes.length ? ctlTypes : hopCtl,
        missing || o.missing,
      );
      nodes.pop();
      edges.pop();
      onPath.delete(e.from);
      if (link) links--;
    }
  };
  walk(subjectId, FULL, FULL, true, [], false);

  // Relationships the register declared between a party and the subject itself (BODS primary relationships).
  const declared = new Map<string, OwnershipEdge[]>();
  for (const id of g.inbound.get(subjectId) ?? []) {
    const e = g.edges.get(id)!;
    if (e.isComponent || e.sameEntity) continue;
    declared.set(e.from, [...(declared.get(e.from) ?? []), e]);
    // An owning entity with owners of its own was walked through; only a party at the top is an end point.
    // (An owner whose only inbound edges are indirect summaries, such as a GLEIF ultimate-parent exception, is at the top too.)
    const walkable = (id: string) => {
      const up = g.edges.get(id);
      return !!up && (up.interests.length === 0 || up.interests.some((i) => isActive(i, asOf) && i.directOrIndirect !== 'indirect'));
    };
    const top = g.nodes.get(e.from)?.kind !== 'entity' || !(g.inbound.get(e.from) ?? []).some(walkable);
    if (top && !acc.has(e.from) && e.interests.some((i) => isActive(i, asOf)))
      acc.set(e.from, { own: ZERO_SHARE, vote: ZERO_SHARE, control: new Set(), paths: [], missing: false });
  }
  const declaredShare = (es: OwnershipEdge[], type: string): ShareRange | undefined => {
    const ints = es.flatMap((e) => e.interests).filter((i) => isActive(i, asOf) && i.type === type && i.share);
    return ints.length ? ints.reduce((s, i) => add(s, i.share!), ZERO_SHARE) : undefined;
  };

  const owners: Ubo[] = [],
    unresolved: Unresolved[] = [];
  for (const [id, a] of acc) {
    const node = g.nodes.get(id);
    const decl = declared.get(id) ?? [];
    const dOwn = declaredShare(decl, 'shareholding'),
      dVote = declaredShare(decl, 'votingRights');
    const control = new Set(a.control);
    for (const i of decl.flatMap((e) => e.interests)) if (isActive(i, asOf) && i.type && CONTROL.has(i.type)) control.add(i.type);
    const ownership = dOwn ?? a.own,
      voting = dVote ?? a.vote;
    const reason = terminalReason(node);
    if (reason) {
      unresolved.push({ nodeId: id, reason, ...(node?.unspecifiedReason ? { detail: node.unspecifiedReason } : {}), ownership });
      continue;
    }
    if (a.missing && !dOwn) unresolved.push({ nodeId: id, reason: 'missing_share', ownership });
    const reasons: Ubo['reasons'] = [];
    if ((basis === 'ownership' || basis === 'any') && surelyAbove(ownership, threshold)) reasons.push('ownership_gt_threshold');
    if ((basis === 'voting' || basis === 'any') && surelyAbove(voting, threshold)) reasons.push('voting_gt_threshold');
    if ((basis === 'control' || basis === 'any') && control.size > 0) reasons.push('control');
    const possible =
      (basis !== 'voting' && possiblyAbove(ownership, threshold)) || (basis !== 'ownership' && possiblyAbove(voting, threshold));
    owners.push({
      personId: id,
      ...(node?.name ? { name: node.name } : {}),
      ownership,
      voting,
      control: [...control],
      figureBasis: dOwn || dVote ? 'declared' : 'computed',
      computedOwnership: a.own,
      qualifies: reasons.length > 0,
      possiblyQualifies: reasons.length === 0 && basis !== 'control' && possible,
      reasons,
      paths: a.paths,
    });
  }
  for (const id of depthHits) unresolved.push({ nodeId: id, reason: 'depth_limit' });
  const fallback = owners.some((o) => o.qualifies)
    ? []
    : (g.inbound.get(subjectId) ?? [])
        .map((id) => g.edges.get(id)!)
        .filter(
          (e) => g.nodes.get(e.from)?.kind === 'person' && e.interests.some((i) => isActive(i, asOf) && i.type && OFFICIAL.has(i.type)),
        )
        .map((e) => e.from);
  owners.sort((x, y) => y.ownership.max - x.ownership.max || x.personId.localeCompare(y.personId));
  return { subjectId, owners, unresolved, cycles, fallbackSeniorManagingOfficials: [...new Set(fallback)] };
}
