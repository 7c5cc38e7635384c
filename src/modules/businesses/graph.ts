// A business's ownership graph, loaded upwards from its registry record (owners, their owners, … up to a
// bound) and turned into the ownership engine's graph. Every node and edge keeps its source and batch.

import type { Queryable } from '../../platform/db.js';
import { addEdge, emptyGraph, type OwnershipGraph } from '../../engines/ownership/index.js';
import { type EntityRecord, type ExceptionRecord, type PersonRecord, type RelationshipRecord } from '../../providers/registries/index.js';
import type { StoredRecord } from './registry-repository.js';
import { sameEntityElsewhere } from './same-entity.js';
import { loadPart, type Part } from './registry-part.js';

/** How far up the graph is loaded; deeper owners are reported by the resolver as a depth limit. */
export const LOAD_DEPTH = 12;
/** At most this many relationships are loaded for one business (a bound on memory and time). */
export const LOAD_EDGES = 20_000;

export interface LoadedGraph {
  source: string;
  rootRef: string;
  graph: OwnershipGraph;
  entities: Map<string, StoredRecord<EntityRecord>>;
  persons: Map<string, StoredRecord<PersonRecord>>;
  relationships: StoredRecord<RelationshipRecord>[];
  exceptions: StoredRecord<ExceptionRecord>[];
  batchIds: Set<string>;
  truncated: boolean;
  /** Records of other sources that are the same entity as a node (same registration number and country). */
  sameAs: Map<string, StoredRecord<EntityRecord>[]>;
  /** Nodes whose record comes from another register than the business's (reached through a same-entity link). */
  nodeSources: Map<string, string>;
}

/** Entity nodes whose other-source records are looked up (a bound on one query's size). */
const SAME_AS_NODES = 500;

/** GLEIF reasons and PSC statements/exemptions in the terms of BODS unspecifiedReason. */
function exceptionReason(x: ExceptionRecord): string {
  if (x.category === 'psc_exemption') return 'subjectExemptFromDisclosure';
  if (x.category === 'psc_statement')
    return x.reason === 'no-individual-or-entity-with-signficant-control' || x.reason === 'no-individual-or-entity-with-significant-control'
      ? 'noBeneficialOwners'
      : 'informationUnknownToPublisher';
  return x.reason; // GLEIF: NATURAL_PERSONS, NON_CONSOLIDATING, NO_KNOWN_PERSON, NON_PUBLIC, …
}

const inactive = (r: RelationshipRecord): boolean => r.recordStatus === 'closed' || r.status === 'inactive';

/** Most steps across registers followed for one business (each costs a few queries). */
const MAX_LINKS = 50;

/**
 * The graph of a business: its register's records upwards, and where a record has no owners in its own
 * register but the same entity's record in another register has (relationships or reporting exceptions),
 * that register's graph upwards from there, joined by a same-entity link (`sameEntity` edge, no interest).
 * Nodes of the business's own register keep their refs as ids; others are `<source>:<ref>`. A record met
 * again across registers is not read twice (the resolver reports the cycle); the depth and relationship
 * bounds hold for the whole graph.
 */
export async function loadGraph(db: Queryable, source: string, rootRef: string): Promise<LoadedGraph> {
  const nodeId = (s: string, ref: string) => (s === source ? ref : `${s}:${ref}`);
  const out = emptyLoaded(source, rootRef);
  const g = out.graph;
  /** Records whose owners are loaded (node ids). */
  const loaded = new Set<string>();
  let pending: { source: string; ref: string; depth: number; linkTo?: string; linkBatch?: string }[] = [{ source, ref: rootRef, depth: 0 }];
  let links = 0,
    edgeCount = 0;
  while (pending.length) {
    const next: typeof pending = [];
    for (const p of pending) {
      const id = nodeId(p.source, p.ref);
      if (loaded.has(id)) {
        // Already in the graph with its owners (a cycle across registers): link to it, read nothing twice.
        if (p.linkTo && (g.inbound.get(id)?.length ?? 0) > 0) addLink(g, id, p.linkTo, `${p.source}:${p.linkBatch}`);
        continue;
      }
      const part = await loadPart(db, p.source, [p.ref], LOAD_DEPTH - p.depth, LOAD_EDGES - edgeCount);
      // Crossing only where the other register records something above the entity.
      if (p.linkTo && !part.rels.length && !part.exceptions.length) continue;
      loaded.add(id);
      for (const r of part.rels) loaded.add(nodeId(p.source, r.data.subject));
      /** Records with owners in this register (a relationship in force or a reporting exception). */
      const owned = new Set([
        ...part.rels.filter((r) => !inactive(r.data) && !r.ended_batch_id).map((r) => r.data.subject),
        ...part.exceptions.map((x) => x.data.subject),
      ]);
      edgeCount += part.rels.length;
      out.truncated ||= part.truncated;
      mergePart(out, p.source, part, (ref) => nodeId(p.source, ref));
      if (p.linkTo) addLink(g, id, p.linkTo, `${p.source}:${p.linkBatch}`);

      const withRecords = [...part.entities.values()].slice(0, SAME_AS_NODES).map((record) => ({ key: record.ref, record }));
      const same = await sameEntityElsewhere(db, p.source, withRecords);
      for (const [ref, others] of same) {
        const here = nodeId(p.source, ref);
        out.sameAs.set(here, others);
        const depth = p.depth + (part.depthOf.get(ref) ?? 0);
        if (owned.has(ref) || depth >= LOAD_DEPTH || edgeCount >= LOAD_EDGES) continue;
        for (const o of others)
          if (links < MAX_LINKS) {
            links++;
            next.push({ source: o.source, ref: o.ref, depth, linkTo: here, linkBatch: o.batch_id });
          } else out.truncated = true;
      }
    }
    pending = next;
  }
  return out;
}

function addLink(g: OwnershipGraph, from: string, to: string, source: string): void {
  addEdge(g, { id: `same_as:${from}>${to}`, from, to, interests: [], isComponent: false, componentIds: [], source, sameEntity: true });
}

/** One register's part into the graph, its refs made node ids. */
function mergePart(out: LoadedGraph, source: string, part: Part, id: (ref: string) => string): void {
  const g = out.graph;
  const party = (p: RelationshipRecord['interestedParty']) => (typeof p === 'string' ? id(p) : p);
  for (const [ref, e] of part.entities) out.entities.set(id(ref), e);
  for (const [ref, p] of part.persons) out.persons.set(id(ref), p);
  const mark = (nid: string) => {
    if (source !== out.source) out.nodeSources.set(nid, source);
  };
  for (const ref of part.refs) {
    const nid = id(ref);
    mark(nid);
    const e = part.entities.get(ref),
      p = part.persons.get(ref);
    if (p)
      g.nodes.set(nid, {
        id: nid,
        kind: 'person',
        type: p.data.personType,
        name: p.data.name,
        ...(p.data.unspecifiedReason ? { unspecifiedReason: p.data.unspecifiedReason } : {}),
      });
    else
      g.nodes.set(nid, {
        id: nid,
        kind: 'entity',
        ...(e?.data.entityType ? { type: e.data.entityType } : {}),
        ...(e ? { name: e.data.name } : {}),
        ...(e?.data.listed ? { listed: true } : {}),
        ...(e?.data.unspecifiedReason ? { unspecifiedReason: e.data.unspecifiedReason } : {}),
      });
  }
  for (const rel of part.rels) {
    const r = { ...rel.data, ref: id(rel.data.ref), subject: id(rel.data.subject), interestedParty: party(rel.data.interestedParty) };
    out.relationships.push({ ...rel, data: r });
    if (inactive(rel.data) || rel.ended_batch_id) continue;
    let from: string;
    if (typeof r.interestedParty === 'string') from = r.interestedParty;
    else {
      from = id(`unspecified:${rel.data.ref}`);
      mark(from);
      g.nodes.set(from, {
        id: from,
        kind: 'unknown',
        unspecifiedReason: r.interestedParty.unspecifiedReason,
        ...(r.interestedParty.description ? { name: r.interestedParty.description } : {}),
      });
    }
    addEdge(g, {
      id: r.ref,
      from,
      to: r.subject,
      interests: r.interests,
      isComponent: r.isComponent,
      componentIds: r.componentRefs.map(id),
      source: `${source}:${rel.batch_id}`,
      ...(r.statementId ? { statementId: r.statementId } : {}),
    });
  }
  for (const stored of part.exceptions) {
    const x = { ...stored.data, subject: id(stored.data.subject) };
    out.exceptions.push({ ...stored, data: x });
    const nid = id(`exception:${stored.data.ref}`);
    mark(nid);
    g.nodes.set(nid, { id: nid, kind: 'unknown', unspecifiedReason: exceptionReason(x), name: `${x.category}: ${x.reason}` });
    addEdge(g, {
      id: nid,
      from: nid,
      to: x.subject,
      interests: [
        {
          type: 'otherInfluenceOrControl',
          directOrIndirect: x.category.startsWith('ULTIMATE') ? 'indirect' : 'direct',
          ...(x.startDate ? { startDate: x.startDate } : {}),
          ...(x.endDate ? { endDate: x.endDate } : {}),
        },
      ],
      isComponent: false,
      componentIds: [],
      source: `${source}:${stored.batch_id}`,
    });
  }
  for (const r of [...part.rels, ...part.exceptions, ...part.entities.values(), ...part.persons.values()]) out.batchIds.add(r.batch_id);
}

/** A business entered by hand has no registry graph: the business alone (so it can still be screened). */
export function singleNodeGraph(source: string, ref: string, name: string): LoadedGraph {
  const l = emptyLoaded(source, ref);
  l.graph.nodes.set(ref, { id: ref, kind: 'entity', name });
  return l;
}

function emptyLoaded(source: string, rootRef: string): LoadedGraph {
  return {
    source,
    rootRef,
    graph: emptyGraph(),
    entities: new Map(),
    persons: new Map(),
    relationships: [],
    exceptions: [],
    batchIds: new Set(),
    truncated: false,
    sameAs: new Map(),
    nodeSources: new Map(),
  };
}
