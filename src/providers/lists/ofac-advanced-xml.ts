import type { BirthDate, EntitySchema, Identifier, ListEntity, ListName } from '../../engines/screening/types.js';
import { countryCode } from '../../engines/screening/countries.js';
import { child, children, childText, descendants, parseXml, type XmlElement } from './xml.js';
import { singleFile, uniq, type ListInput, type ListSource } from './list-source.js';

// OFAC SDN_ADVANCED.XML (the "advanced sanctions data model"). Everything is coded against
// <ReferenceValueSets>: party sub-types, alias types, feature types (Birthdate, Nationality Country,
// Gender, "Digital Currency Address - XBT" …), document types and countries. Names are
// DistinctParty/Profile/Identity/Alias/DocumentedName/DocumentedNamePart/NamePartValue; LowQuality="true"
// marks OFAC's weak aliases. Documents live in <IDRegDocuments> keyed by IdentityID, programmes in
// <SanctionsEntries> keyed by ProfileID. No real file could be staged (only LFS pointers exist, see
// MANIFEST), so this follows the published XSD and is tested on a fixture written to it.

type Ref = Map<string, { text: string; attrs: Record<string, string> }>;

function refSet(root: XmlElement, setName: string): Ref {
  const out: Ref = new Map();
  for (const el of child(child(root, 'ReferenceValueSets'), setName)?.children ?? []) {
    const id = el.attrs.ID;
    if (id) out.set(id, { text: el.text.trim(), attrs: el.attrs });
  }
  return out;
}

function schemaOf(subType: string | undefined): EntitySchema {
  switch (subType?.toLowerCase()) {
    case 'individual':
      return 'person';
    case 'vessel':
      return 'vessel';
    case 'aircraft':
      return 'aircraft';
    case 'entity':
      return 'organization';
    default:
      return 'unknown';
  }
}

function datePart(el: XmlElement | undefined): string | undefined {
  const y = childText(el, 'Year');
  if (!y) return undefined;
  return `${y}-${(childText(el, 'Month') ?? '01').padStart(2, '0')}-${(childText(el, 'Day') ?? '01').padStart(2, '0')}`;
}

function birthDate(period: XmlElement | undefined): BirthDate | undefined {
  const from = datePart(child(child(period, 'Start'), 'From'));
  const to = datePart(child(child(period, 'End'), 'To')) ?? datePart(child(child(period, 'Start'), 'To'));
  if (!from) return undefined;
  if (!to || to === from) return { date: from };
  if (from.slice(0, 4) === to.slice(0, 4) && from.endsWith('-01-01') && to.endsWith('-12-31')) return { year: Number(from.slice(0, 4)) };
  return { from, to };
}

export function parseOfacAdvancedXml(input: ListInput): ListEntity[] {
  const root = parseXml(singleFile(input));
  if (root.name !== 'Sanctions') throw new Error(`OFAC advanced XML: unexpected root <${root.name}>`);
  const subTypes = refSet(root, 'PartySubTypeValues');
  const featureTypes = refSet(root, 'FeatureTypeValues');
  const docTypes = refSet(root, 'IDRegDocTypeValues');
  const countries = refSet(root, 'CountryValues');
  const details = refSet(root, 'DetailReferenceValues');
  const aliasTypes = refSet(root, 'AliasTypeValues');
  const iso = (id: string | undefined): string | undefined => {
    const c = id ? countries.get(id) : undefined;
    return c ? countryCode(c.attrs.ISO2 ?? c.text) : undefined;
  };
  const locationCountry = new Map<string, string>();
  for (const loc of children(child(root, 'Locations'), 'Location')) {
    const c = iso(child(loc, 'LocationCountry')?.attrs.CountryID);
    if (loc.attrs.ID && c) locationCountry.set(loc.attrs.ID, c);
  }
  const docs = new Map<string, Identifier[]>();
  for (const d of children(child(root, 'IDRegDocuments'), 'IDRegDocument')) {
    const value = childText(d, 'IDRegistrationNo');
    const identity = d.attrs.IdentityID;
    if (!value || !identity) continue;
    const t = (docTypes.get(d.attrs.IDRegDocTypeID ?? '')?.text ?? 'other').toLowerCase();
    const type = /passport/.test(t)
      ? 'passport'
      : /national id|cedula|identification/.test(t)
        ? 'national_id'
        : /tax|rfc|nit/.test(t)
          ? 'tax_id'
          : /imo/.test(t)
            ? 'imo'
            : /registration/.test(t)
              ? 'registration'
              : t.replace(/\s+/g, '_');
    const country = iso(d.attrs['IssuedBy-CountryID']);
    docs.set(identity, [...(docs.get(identity) ?? []), { type, value, ...(country ? { country } : {}) }]);
  }
  const programs = new Map<string, string[]>();
  const listed = new Map<string, string>();
  for (const s of children(child(root, 'SanctionsEntries'), 'SanctionsEntry')) {
    const pid = s.attrs.ProfileID;
    if (!pid) continue;
    const progs = children(s, 'SanctionsMeasure')
      .map((m) => childText(m, 'Comment'))
      .filter(Boolean) as string[];
    programs.set(pid, [...(programs.get(pid) ?? []), ...progs]);
    const date = datePart(child(child(s, 'EntryEvent'), 'Date'));
    if (date) listed.set(pid, date);
  }

  const out: ListEntity[] = [];
  for (const party of children(child(root, 'DistinctParties'), 'DistinctParty')) {
    const profile = child(party, 'Profile');
    const pid = profile?.attrs.ID ?? party.attrs.FixedRef;
    if (!profile || !pid) continue;
    const names: ListName[] = [];
    const identifiers: Identifier[] = [];
    for (const identity of children(profile, 'Identity')) {
      for (const alias of children(identity, 'Alias')) {
        for (const dn of children(alias, 'DocumentedName')) {
          const full = descendants(dn, 'NamePartValue')
            .map((v) => v.text.trim())
            .filter(Boolean)
            .join(' ');
          if (!full || names.some((n) => n.full === full)) continue;
          const primary = alias.attrs.Primary === 'true';
          const name: ListName = { full, quality: alias.attrs.LowQuality === 'true' ? 'weak' : 'strong' };
          if (primary) names.unshift(name);
          else names.push(name);
        }
        void aliasTypes;
      }
      identifiers.push(...(docs.get(identity.attrs.ID ?? '') ?? []));
    }
    if (!names.length) continue;
    const birthDates: BirthDate[] = [];
    const nationalities: string[] = [];
    const linked: string[] = [];
    let gender: 'male' | 'female' | undefined;
    for (const f of children(profile, 'Feature')) {
      const type = featureTypes.get(f.attrs.FeatureTypeID ?? '')?.text ?? '';
      const version = child(f, 'FeatureVersion');
      const detail = child(version, 'VersionDetail');
      const detailText = detail?.text.trim() || details.get(detail?.attrs.DetailReferenceID ?? '')?.text;
      const loc = locationCountry.get(child(version, 'VersionLocation')?.attrs.LocationID ?? '');
      if (/^birthdate$/i.test(type)) {
        const b = birthDate(child(version, 'DatePeriod'));
        if (b) birthDates.push(b);
      } else if (/nationality|citizenship/i.test(type)) {
        if (loc) nationalities.push(loc);
      } else if (/^gender$/i.test(type)) {
        const g = detailText?.toLowerCase();
        if (g === 'male' || g === 'female') gender = g;
      } else if (/^Digital Currency Address - /.test(type) && detailText)
        identifiers.push({ type: `crypto:${type.slice('Digital Currency Address - '.length)}`, value: detailText });
      else if (/IMO|MMSI|Call Sign|Email/i.test(type) && detailText)
        identifiers.push({
          type: type
            .toLowerCase()
            .replace(/.*imo.*/, 'imo')
            .replace(/\s+/g, '_'),
          value: detailText,
        });
      else if (loc) linked.push(loc);
    }
    const subType = subTypes.get(profile.attrs.PartySubTypeID ?? '')?.text;
    out.push({
      id: `ofac-sdn:${party.attrs.FixedRef ?? pid}`,
      source: 'ofac_sdn',
      datasets: ['sanctions'],
      schema: schemaOf(subType),
      names,
      birthDates,
      nationalities: uniq(nationalities),
      countries: uniq(linked),
      ...(gender ? { gender } : {}),
      addresses: [],
      identifiers,
      programs: uniq(programs.get(pid) ?? []),
      listedAt: listed.get(pid),
      sourceUrl: `https://sanctionssearch.ofac.treas.gov/Details.aspx?id=${party.attrs.FixedRef ?? pid}`,
    });
  }
  return out;
}

export const ofacAdvancedXmlSource: ListSource = {
  name: 'ofac_advanced_xml',
  description: 'OFAC SDN_ADVANCED.XML (advanced sanctions data model)',
  sourceName: 'ofac_sdn',
  officialUrl: 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN_ADVANCED.XML',
  parse: parseOfacAdvancedXml,
};
