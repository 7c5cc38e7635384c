// GET /v1/businesses/{id}/bods: the business's ownership graph as BODS 0.4 statements (entity, person and
// relationship records), so the data can leave in the standard. Every statement passes the BODS schema.

import { createHash } from 'node:crypto';
import type { RequestContext } from '../../platform/context.js';
import { toBodsShare, type Interest } from '../../engines/ownership/index.js';
import { UNSPECIFIED_REASONS } from '../../providers/registries/index.js';
import { loadBusiness } from './get.js';

type Json = Record<string, unknown>;

export async function exportBods(ctx: RequestContext, id: string): Promise<Json[]> {
  const { row, loaded, entity } = await loadBusiness(ctx, id);
  const date = new Date().toISOString().slice(0, 10);
  const subject = loaded?.rootRef ?? row.source_ref;
  const statement = (recordId: string, recordType: string, recordDetails: Json): Json => {
    const body = { recordId, recordType, recordDetails };
    return {
      statementId: createHash('sha256')
        .update(`${row.id}\u0000${JSON.stringify(body)}`)
        .digest('hex'),
      declarationSubject: subject,
      statementDate: date,
      recordStatus: 'new',
      publicationDetails: { publicationDate: date, bodsVersion: '0.4', publisher: { name: 'Verity' } },
      source: { type: row.source === 'manual' ? ['selfDeclaration'] : ['officialRegister'] },
      ...body,
    };
  };
  const entityDetails = (name: string | undefined, type: string | undefined, extra: Json = {}): Json => ({
    isComponent: false,
    entityType: { type: type ?? 'registeredEntity' },
    ...(name ? { name } : {}),
    ...extra,
  });
  const out: Json[] = [];
  if (!loaded) {
    out.push(statement(subject, 'entity', entityDetails(row.name, 'registeredEntity')));
    return out;
  }
  const g = loaded.graph;
  for (const n of g.nodes.values()) {
    if (n.kind === 'unknown') continue; // unspecified parties are stated inside the relationship
    if (n.kind === 'person') {
      const p = loaded.persons.get(n.id)?.data;
      out.push(
        statement(n.id, 'person', {
          isComponent: false,
          personType: n.type === 'anonymousPerson' || n.type === 'unknownPerson' ? n.type : 'knownPerson',
          ...(n.name ? { names: [{ type: 'legal', fullName: n.name }] } : {}),
          ...(p?.birthYear
            ? { birthDate: p.birthMonth ? `${p.birthYear}-${String(p.birthMonth).padStart(2, '0')}` : String(p.birthYear) }
            : {}),
        }),
      );
    } else {
      const e = n.id === subject ? entity : loaded.entities.get(n.id)?.data;
      const ids = [
        ...(e?.lei ? [{ id: e.lei, scheme: 'XI-LEI', schemeName: 'Global Legal Entity Identifier Index' }] : []),
        ...(e?.registrationNumber
          ? [
              {
                id: e.registrationNumber,
                ...(e.registrationAuthority ? { schemeName: e.registrationAuthority } : { schemeName: 'register' }),
              },
            ]
          : []),
      ];
      const type = ['registeredEntity', 'legalEntity', 'arrangement', 'anonymousEntity', 'unknownEntity', 'state', 'stateBody'].includes(
        n.type ?? '',
      )
        ? n.type
        : 'registeredEntity';
      out.push(
        statement(
          n.id,
          'entity',
          entityDetails(n.name ?? e?.name, type, {
            ...(ids.length ? { identifiers: ids } : {}),
            ...(e?.jurisdiction && /^[A-Z]{2}$/.test(e.jurisdiction)
              ? { jurisdiction: { code: e.jurisdiction, name: e.jurisdiction } }
              : {}),
            ...(e?.incorporationDate ? { foundingDate: e.incorporationDate } : {}),
            ...(e?.dissolutionDate ? { dissolutionDate: e.dissolutionDate } : {}),
          }),
        ),
      );
    }
  }
  for (const edge of g.edges.values()) {
    if (edge.sameEntity) continue; // two records of one entity, not a relationship (BODS has no statement for it)
    const from = g.nodes.get(edge.from);
    const reason = from?.kind === 'unknown' ? from.unspecifiedReason : undefined;
    const interestedParty =
      from?.kind === 'unknown'
        ? {
            reason: reason && UNSPECIFIED_REASONS.has(reason) ? reason : 'informationUnknownToPublisher',
            ...(from.name ? { description: from.name } : {}),
          }
        : edge.from;
    out.push(
      statement(edge.id, 'relationship', {
        isComponent: edge.isComponent,
        ...(edge.componentIds.length ? { componentRecords: edge.componentIds } : {}),
        subject: edge.to,
        interestedParty,
        interests: edge.interests.map((i: Interest) => ({
          ...(i.type ? { type: i.type } : {}),
          directOrIndirect: i.directOrIndirect,
          ...(i.beneficialOwnershipOrControl !== undefined ? { beneficialOwnershipOrControl: i.beneficialOwnershipOrControl } : {}),
          ...(i.share ? { share: toBodsShare(i.share) } : {}),
          ...(i.startDate ? { startDate: i.startDate } : {}),
          ...(i.endDate ? { endDate: i.endDate } : {}),
        })),
      }),
    );
  }
  return out;
}
