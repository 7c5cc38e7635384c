// A business's ownership graph, loaded upwards from its registry record (owners, their owners, … up to a
// bound) and turned into the ownership engine's graph. Every node and edge keeps its source and batch.

import type { Queryable } from '../../platform/db.js';
import { addEdge, emptyGraph, type OwnershipGraph } from '../../engines/ownership/index.js';
import type { EntityRecord, ExceptionRecord, PersonRecord, RelationshipRecord } from '../../providers/registries/index.js';
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
}

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

export async function loadGraph(db: Queryable, source: string, rootRef: string): Promise<LoadedGraph> {
  const rels: StoredRecord<RelationshipRecord>[] = [];
  const seenRel = new Set<string>();
  const subjects = new Set<string>([rootRef]);
  let frontier = [rootRef];
  let truncated = false;
  for (let depth = 0; depth < LOAD_DEPTH && frontier.length; depth++) {
    const found = await registryRecords.relationshipsOf(db, source, frontier);
    // BODS declared indirect relationships name their component relationships, which may hang elsewhere.
    const componentRefs = found.flatMap((r) => r.data.componentRefs).filter((c) => !seenRel.has(c));
    const components = await registryRecords.relationshipsByRef(db, source, componentRefs);
    const next: string[] = [];
    for (const r of [...found, ...components]) {
      if (seenRel.has(r.ref)) continue;
      if (rels.length >= LOAD_EDGES) {
        truncated = true;
        break;
      }
      seenRel.add(r.ref);
      rels.push(r);
      for (const ref of [r.data.subject, typeof r.data.interestedParty === 'string' ? r.data.interestedParty : undefined])
        if (ref && !subjects.has(ref)) (subjects.add(ref), next.push(ref));
    }
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
  const persons = new Map((await registryRecords.persons(db, source, refs)).map((p) => [p.ref, p]));
  const exceptions = await registryRecords.exceptionsOf(db, source, refs);

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
  return { source, rootRef, graph: g, entities, persons, relationships: rels, exceptions, batchIds, truncated };
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
  };
}
