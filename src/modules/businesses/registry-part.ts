// One register's records upwards from some start records: relationships level by level, the records they name,
// reporting exceptions in force. graph.ts joins the parts of several registers into a business's graph.

import type { Queryable } from '../../platform/db.js';
import {
  ukCompanyOf,
  type EntityRecord,
  type ExceptionRecord,
  type PersonRecord,
  type RelationshipRecord,
} from '../../providers/registries/index.js';
import { registryRecords, type StoredRecord } from './registry-repository.js';

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

/** What one register says above some of its records: relationships, the records they name, exceptions. */
export interface Part {
  rels: StoredRecord<RelationshipRecord>[];
  refs: string[];
  /** Ownership levels between a start record and each record (0 for the start records). */
  depthOf: Map<string, number>;
  entities: Map<string, StoredRecord<EntityRecord>>;
  persons: Map<string, StoredRecord<PersonRecord>>;
  exceptions: StoredRecord<ExceptionRecord>[];
  truncated: boolean;
}

/** One register's graph upwards from the start records, at most `maxDepth` levels and `maxEdges` relationships. */
export async function loadPart(db: Queryable, source: string, starts: string[], maxDepth: number, maxEdges: number): Promise<Part> {
  const rels: StoredRecord<RelationshipRecord>[] = [];
  const seenRel = new Set<string>();
  const depthOf = new Map(starts.map((r) => [r, 0]));
  /** A corporate PSC's party ref → its UK company number (the node it becomes), with its PSC record. */
  const alias = new Map<string, StoredRecord<EntityRecord>>();
  let frontier = starts;
  let truncated = false;
  for (let depth = 0; depth < maxDepth && frontier.length; depth++) {
    const found = await registryRecords.relationshipsOf(db, source, frontier);
    // BODS declared indirect relationships name their component relationships, which may hang elsewhere.
    const componentRefs = found.flatMap((r) => r.data.componentRefs).filter((c) => !seenRel.has(c));
    const components = await registryRecords.relationshipsByRef(db, source, componentRefs);
    const level: StoredRecord<RelationshipRecord>[] = [];
    for (const r of [...found, ...components]) {
      if (seenRel.has(r.ref)) continue;
      if (rels.length + level.length >= maxEdges) {
        truncated = true;
        break;
      }
      seenRel.add(r.ref);
      level.push(r);
    }
    const parties = level.map((r) => r.data.interestedParty).filter((p): p is string => typeof p === 'string' && !depthOf.has(p));
    for (const [ref, company] of await ukCompanyParties(db, source, [...new Set(parties)])) alias.set(ref, company);
    const next: string[] = [];
    for (const r of level) {
      const party = typeof r.data.interestedParty === 'string' ? r.data.interestedParty : undefined;
      const named = party && alias.has(party) ? { ...r, data: { ...r.data, interestedParty: alias.get(party)!.ref } } : r;
      rels.push(named);
      for (const ref of [named.data.subject, typeof named.data.interestedParty === 'string' ? named.data.interestedParty : undefined])
        if (ref && !depthOf.has(ref)) (depthOf.set(ref, depth + 1), next.push(ref));
    }
    if (truncated) break;
    frontier = next;
  }
  const refs = [...depthOf.keys()];
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
  const exceptions = (await registryRecords.exceptionsOf(db, source, refs)).filter((x) => !x.ended_batch_id);
  return { rels, refs, depthOf, entities, persons, exceptions, truncated };
}
