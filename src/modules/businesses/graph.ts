// A business's ownership graph, loaded upwards from its registry record (owners, their owners, … up to a
// bound) and turned into the ownership engine's graph. Every node and edge keeps its source and batch.

import type { Queryable } from '../../platform/db.js';
import { addEdge, emptyGraph, type OwnershipGraph } from '../../engines/ownership/index.js';
import {
  companyNumber,
  ukCompanyOf,
  type EntityRecord,
  type ExceptionRecord,
  type PersonRecord,
  type RelationshipRecord,
} from '../../providers/registries/index.js';
import { registryRecords, type StoredRecord } from './registry-repository.js';

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

/**
 * Corporate PSCs of this level that are UK companies found in the imported data (their company record or
 * their own PSCs): each maps to its company number, so the walk continues through that company's owners
 * offline as the live adapter does (a company met twice is read once; a cycle ends at a node already seen).
 */
async function ukCompanyParties(db: Queryable, source: string, partyRefs: string[]): Promise<Map<string, StoredRecord<EntityRecord>>> {
  const out = new Map<string, StoredRecord<EntityRecord>>();
  if (source !== 'gb_coh' || !partyRefs.length) return out;
  const parties = await registryRecords.entities(
    db,
    partyRefs.map((ref) => ({ source, ref })),
  );
  const byNumber = new Map<string, StoredRecord<EntityRecord>[]>();
  for (const p of parties) {
    const n = ukCompanyOf(p.data);
    if (n && n !== p.ref) byNumber.set(n, [...(byNumber.get(n) ?? []), p]);
  }
  if (!byNumber.size) return out;
  const numbers = [...byNumber.keys()];
  const known = new Set([
    ...(
      await registryRecords.entities(
        db,
        numbers.map((ref) => ({ source, ref })),
      )
    ).map((e) => e.ref),
    ...(await registryRecords.relationshipsOf(db, source, numbers)).map((r) => r.data.subject),
  ]);
  for (const [n, ps] of byNumber) if (known.has(n)) for (const p of ps) out.set(p.ref, { ...p, ref: n, data: { ...p.data, ref: n } });
  return out;
}

export async function loadGraph(db: Queryable, source: string, rootRef: string): Promise<LoadedGraph> {
  const rels: StoredRecord<RelationshipRecord>[] = [];
  const seenRel = new Set<string>();
  const subjects = new Set<string>([rootRef]);
  /** A corporate PSC's party ref → its UK company number (the node it becomes), with its PSC record. */
  const alias = new Map<string, StoredRecord<EntityRecord>>();
  let frontier = [rootRef];
  let truncated = false;
  for (let depth = 0; depth < LOAD_DEPTH && frontier.length; depth++) {
    const found = await registryRecords.relationshipsOf(db, source, frontier);
    // BODS declared indirect relationships name their component relationships, which may hang elsewhere.
    const componentRefs = found.flatMap((r) => r.data.componentRefs).filter((c) => !seenRel.has(c));
    const components = await registryRecords.relationshipsByRef(db, source, componentRefs);
    const level: StoredRecord<RelationshipRecord>[] = [];
    for (const r of [...found, ...components]) {
      if (seenRel.has(r.ref)) continue;
      if (rels.length + level.length >= LOAD_EDGES) {
        truncated = true;
        break;
      }
      seenRel.add(r.ref);
      level.push(r);
    }
    const parties = level.map((r) => r.data.interestedParty).filter((p): p is string => typeof p === 'string' && !subjects.has(p));
    for (const [ref, company] of await ukCompanyParties(db, source, [...new Set(parties)])) alias.set(ref, company);
    const next: string[] = [];
    for (const r of level) {
      const party = typeof r.data.interestedParty === 'string' ? r.data.interestedParty : undefined;
      const named = party && alias.has(party) ? { ...r, data: { ...r.data, interestedParty: alias.get(party)!.ref } } : r;
      rels.push(named);
      for (const ref of [named.data.subject, typeof named.data.interestedParty === 'string' ? named.data.interestedParty : undefined])
        if (ref && !subjects.has(ref)) (subjects.add(ref), next.push(ref));
    }
    if (truncated) break;
    frontier = next;
  }
  const refs = [...subjects];
  const entities = new Map(
    (
      await registryRecords.entities(
        db,
        refs.map((ref) => ({ source, ref })),
      )
    ).map((e) => [e.ref, e]),
  );
  // A UK company known only by its PSCs keeps the name its owner's PSC record gave it.
  for (const company of alias.values()) if (!entities.has(company.ref)) entities.set(company.ref, company);
  const persons = new Map((await registryRecords.persons(db, source, refs)).map((p) => [p.ref, p]));
  const exceptions = await registryRecords.exceptionsOf(db, source, refs);
  const sameAs = await sameEntityElsewhere(db, source, [...entities.values()].slice(0, SAME_AS_NODES));

  const g = emptyGraph();
  for (const ref of refs) {
    const e = entities.get(ref),
      p = persons.get(ref);
    if (p)
      g.nodes.set(ref, {
        id: ref,
        kind: 'person',
        type: p.data.personType,
        name: p.data.name,
        ...(p.data.unspecifiedReason ? { unspecifiedReason: p.data.unspecifiedReason } : {}),
      });
    else
      g.nodes.set(ref, {
        id: ref,
        kind: 'entity',
        ...(e?.data.entityType ? { type: e.data.entityType } : {}),
        ...(e ? { name: e.data.name } : {}),
        ...(e?.data.listed ? { listed: true } : {}),
        ...(e?.data.unspecifiedReason ? { unspecifiedReason: e.data.unspecifiedReason } : {}),
      });
  }
  for (const { data: r, batch_id } of rels) {
    if (inactive(r)) continue;
    let from: string;
    if (typeof r.interestedParty === 'string') from = r.interestedParty;
    else {
      from = `unspecified:${r.ref}`;
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
      componentIds: r.componentRefs,
      source: `${source}:${batch_id}`,
      ...(r.statementId ? { statementId: r.statementId } : {}),
    });
  }
  for (const { data: x, batch_id } of exceptions) {
    const id = `exception:${x.ref}`;
    g.nodes.set(id, { id, kind: 'unknown', unspecifiedReason: exceptionReason(x), name: `${x.category}: ${x.reason}` });
    addEdge(g, {
      id,
      from: id,
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
      source: `${source}:${batch_id}`,
    });
  }
  const batchIds = new Set([...rels, ...exceptions, ...entities.values(), ...persons.values()].map((r) => r.batch_id));
  return { source, rootRef, graph: g, entities, persons, relationships: rels, exceptions, batchIds, truncated, sameAs };
}

/** The country a record is registered in: its jurisdiction's country part, else its country. */
const registeredIn = (e: EntityRecord): string | undefined => {
  const j = e.jurisdiction && /^[A-Z]{2}(-|$)/.test(e.jurisdiction) ? e.jurisdiction.slice(0, 2) : undefined;
  return j ?? e.country;
};
const numberKey = (n: string, country: string | undefined): string => {
  const t = n.trim().toUpperCase().replace(/\s+/g, '');
  return country === 'GB' ? companyNumber(t) : t;
};

/**
 * Records of other sources with the same registration number in the same country as an entity of the graph
 * (a corporate PSC registered abroad and its GLEIF record, a UK company and its LEI). Both the number and the
 * country must agree: registration numbers repeat across registers.
 */
async function sameEntityElsewhere(
  db: Queryable,
  source: string,
  nodes: StoredRecord<EntityRecord>[],
): Promise<Map<string, StoredRecord<EntityRecord>[]>> {
  const out = new Map<string, StoredRecord<EntityRecord>[]>();
  const wanted = new Map<string, string[]>();
  for (const n of nodes) {
    const country = registeredIn(n.data);
    if (!n.data.registrationNumber || !country) continue;
    const key = `${country}\u0000${numberKey(n.data.registrationNumber, country)}`;
    wanted.set(key, [...(wanted.get(key) ?? []), n.ref]);
  }
  if (!wanted.size) return out;
  const numbers = [...new Set([...wanted.keys()].map((k) => k.split('\u0000')[1]!))];
  for (const other of await registryRecords.byRegistrationNumbers(db, numbers, source)) {
    const country = registeredIn(other.data);
    if (!country || !other.data.registrationNumber) continue;
    for (const ref of wanted.get(`${country}\u0000${numberKey(other.data.registrationNumber, country)}`) ?? [])
      out.set(ref, [...(out.get(ref) ?? []), other]);
  }
  return out;
}

/** A business entered by hand has no registry graph: the business alone (so it can still be screened). */
export function singleNodeGraph(source: string, ref: string, name: string): LoadedGraph {
  const g = emptyGraph();
  g.nodes.set(ref, { id: ref, kind: 'entity', name });
  return {
    source,
    rootRef: ref,
    graph: g,
    entities: new Map(),
    persons: new Map(),
    relationships: [],
    exceptions: [],
    batchIds: new Set(),
    truncated: false,
    sameAs: new Map(),
  };
}
