// The public shapes: a registry record as a search result or business, the ownership graph in BODS terms.

import { createHash } from 'node:crypto';
import { toBodsShare, type Interest, type ShareRange } from '../../engines/ownership/index.js';
import type { EntityRecord } from '../../providers/registries/index.js';
import type { LoadedGraph } from './graph.js';
import type { BatchRow } from './registry-repository.js';
import type { BusinessRow } from './repository.js';
import type { Business } from './schemas.js';

export function share(r: ShareRange): Record<string, number> {
  const b = toBodsShare(r);
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(b)) out[k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = v;
  return out;
}

export function registryFields(source: string, e: EntityRecord) {
  return {
    source: source as 'gleif' | 'gb_coh' | 'bods',
    source_ref: e.ref,
    name: e.name,
    other_names: e.otherNames,
    lei: e.lei ?? null,
    registration_number: e.registrationNumber ?? null,
    registration_authority: e.registrationAuthority ?? null,
    jurisdiction: e.jurisdiction ?? null,
    country: e.country ?? null,
    legal_form: e.legalForm ?? null,
    status: e.status ?? null,
    registration_status: e.registrationStatus ?? null,
    incorporation_date: e.incorporationDate ?? null,
    dissolution_date: e.dissolutionDate ?? null,
    address: e.address
      ? {
          lines: e.address.lines,
          ...(e.address.city ? { city: e.address.city } : {}),
          ...(e.address.region ? { region: e.address.region } : {}),
          ...(e.address.postalCode ? { postal_code: e.address.postalCode } : {}),
          ...(e.address.country ? { country: e.address.country } : {}),
        }
      : null,
  };
}

const interestView = (i: Interest) => ({
  type: i.type ?? null,
  direct_or_indirect: i.directOrIndirect,
  share: i.share ? share(i.share) : null,
  beneficial_ownership_or_control: i.beneficialOwnershipOrControl ?? null,
  start_date: i.startDate ?? null,
  end_date: i.endDate ?? null,
});

const ROLES: Record<string, string> = {
  seniorManagingOfficial: 'senior_managing_official',
  boardMember: 'board_member',
  boardChair: 'board_chair',
  trustee: 'trustee',
  settlor: 'settlor',
  protector: 'protector',
  nominee: 'nominee',
};

/** Persons with a relationship straight to the business: PSCs, officials, trustees, owners. */
function officers(l: LoadedGraph): Business['officers'] {
  const out: Business['officers'] = [];
  for (const { data: r } of l.relationships) {
    if (r.subject !== l.rootRef || r.isComponent || typeof r.interestedParty !== 'string') continue;
    const p = l.persons.get(r.interestedParty)?.data;
    if (!p) continue;
    const types = r.interests.map((i) => i.type).filter((t): t is string => !!t);
    // Companies House officers keep the register's role (director, llp-designated-member, …); PSCs are psc.
    const role = r.sourceType?.startsWith('officer:')
      ? r.sourceType.slice('officer:'.length)
      : l.source === 'gb_coh'
        ? 'psc'
        : (types.map((t) => ROLES[t]).find(Boolean) ?? 'beneficial_owner');
    const starts = r.interests.map((i) => i.startDate).filter((d): d is string => !!d);
    const ends = r.interests.map((i) => i.endDate);
    out.push({
      node_id: p.ref,
      name: p.name,
      role,
      appointed_on: starts.sort()[0] ?? null,
      resigned_on: ends.length && ends.every((d) => d) ? (ends as string[]).sort().at(-1)! : null,
      nationality: p.nationality ?? null,
      country_of_residence: p.countryOfResidence ?? null,
      birth_date: p.birthYear ? { year: p.birthYear, month: p.birthMonth ?? null } : null,
      verification: null,
    });
  }
  return out;
}

function registration(e: EntityRecord | undefined) {
  if (!e) return null;
  return {
    number: e.registrationNumber ?? null,
    authority: e.registrationAuthority ?? null,
    legal_authority: e.legalAuthority ?? null,
    legal_form: e.legalForm ?? null,
    jurisdiction: e.jurisdiction ?? null,
    country: e.country ?? null,
  };
}

export function ownershipView(l: LoadedGraph): Business['ownership'] {
  return {
    nodes: [...l.graph.nodes.values()].map((n) => ({
      id: n.id,
      kind: n.kind,
      type: n.type ?? null,
      name: n.name ?? null,
      unspecified_reason: n.unspecifiedReason ?? null,
      is_subject: n.id === l.rootRef,
      source: l.nodeSources.get(n.id) ?? l.source,
      registration: registration(l.entities.get(n.id)?.data),
      same_as: (l.sameAs.get(n.id) ?? []).map(({ source, data: e }) => ({
        source: source,
        source_ref: e.ref,
        name: e.name,
        lei: e.lei ?? null,
      })),
    })),
    edges: [...l.graph.edges.values()]
      .filter((e) => !e.sameEntity)
      .map((e) => ({
        id: e.id,
        from: e.from,
        to: e.to,
        interests: e.interests.map(interestView),
        is_component: e.isComponent,
        component_edge_ids: e.componentIds,
        source: e.source ?? l.source,
        statement_id: e.statementId ?? null,
      })),
    links: [...l.graph.edges.values()]
      .filter((e) => e.sameEntity)
      .map((e) => ({
        id: e.id,
        from: e.from,
        to: e.to,
        relation: 'same_entity' as const,
        matched_on: 'registration_number_and_country' as const,
        source: e.source ?? l.source,
      })),
    exceptions: l.exceptions.map(({ data: x }) => ({
      subject: x.subject,
      category: x.category,
      reason: x.reason,
      start_date: x.startDate ?? null,
      end_date: x.endDate ?? null,
    })),
    truncated: l.truncated,
  };
}

/** A digest of the ownership graph, to tell whether a re-import changed it. */
export function ownershipHash(l: LoadedGraph): string {
  const edges = [...l.graph.edges.values()]
    .map((e) => [e.id, e.from, e.to, e.interests, e.componentIds])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  return createHash('sha256').update(JSON.stringify(edges)).digest('hex');
}

export function businessView(
  row: BusinessRow,
  loaded: LoadedGraph | undefined,
  entity: EntityRecord | undefined,
  batches: BatchRow[],
): Business {
  const base = entity
    ? registryFields(row.source, entity)
    : {
        ...registryFields('bods', {
          kind: 'entity',
          ref: row.source_ref,
          name: row.name,
          otherNames: [],
          ...(row.data as Partial<EntityRecord>),
        }),
      };
  return {
    id: row.id,
    object: 'business',
    reference: row.reference,
    ...base,
    source: row.source as Business['source'],
    source_ref: row.source_ref,
    officers: loaded ? officers(loaded) : [],
    ownership: loaded ? ownershipView(loaded) : { nodes: [], edges: [], links: [], exceptions: [], truncated: false },
    sources: batches.map((b) => ({
      batch_id: b.id,
      source: b.source,
      file_name: b.file_name,
      publish_date: b.publish_date,
      imported_at: (b.finished_at ?? b.started_at).toISOString(),
    })),
    screening: (row.screening as Business['screening']) ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
