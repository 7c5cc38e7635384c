import type { BirthDate, EntitySchema, Identifier, ListEntity, ListName } from '../../engines/screening/types.js';
import { countryCode } from '../../engines/screening/countries.js';
import { child, children, parseXml, type XmlElement } from './xml.js';
import { singleFile, uniq, type ListInput, type ListSource } from './list-source.js';

// EU Financial Sanctions Files, XML 1.1 (namespace http://eu.europa.ec/fpi/fsd/export). Attribute-based:
// <export><sanctionEntity logicalId euReferenceNumber unitedNationId designationDate>
//   <regulation programme publicationUrl/> <subjectType code="person|enterprise"/>
//   <nameAlias wholeName firstName lastName gender strong="true|false" nameLanguage/>
//   <citizenship countryIso2Code/> <birthdate birthdate year circa countryIso2Code/>
//   <identification number identificationTypeCode countryIso2Code/> <address street city countryIso2Code/>
// No real EU file could be staged in ../shared/data (see MANIFEST), so this follows the published
// schema and is tested on a fixture written to it (eu-fsf-fixture.xml).

const a = (el: XmlElement | undefined, k: string): string | undefined => {
  const v = el?.attrs[k]?.trim();
  return v ? v : undefined;
};

function schemaOf(code: string | undefined): EntitySchema {
  if (code === 'person') return 'person';
  if (code === 'enterprise') return 'organization';
  return 'unknown';
}

function names(el: XmlElement): ListName[] {
  const out: ListName[] = [];
  for (const n of children(el, 'nameAlias')) {
    const whole = a(n, 'wholeName') ?? [a(n, 'firstName'), a(n, 'middleName'), a(n, 'lastName')].filter(Boolean).join(' ');
    if (!whole || out.some((x) => x.full === whole)) continue;
    out.push({ full: whole, quality: a(n, 'strong') === 'false' ? 'weak' : 'strong' });
  }
  // A weak first alias must not become the primary name.
  out.sort((x, y) => Number(x.quality === 'weak') - Number(y.quality === 'weak'));
  return out;
}

function birthDates(el: XmlElement): BirthDate[] {
  const out: BirthDate[] = [];
  for (const b of children(el, 'birthdate')) {
    const full = a(b, 'birthdate');
    const year = a(b, 'year');
    if (full) out.push({ date: full.slice(0, 10) });
    else if (a(b, 'yearRangeFrom') && a(b, 'yearRangeTo'))
      out.push({ from: `${a(b, 'yearRangeFrom')}-01-01`, to: `${a(b, 'yearRangeTo')}-12-31` });
    else if (year) out.push({ year: Number(year) });
  }
  return out;
}

function identifiers(el: XmlElement): Identifier[] {
  const out: Identifier[] = [];
  for (const i of children(el, 'identification')) {
    const value = a(i, 'number') ?? a(i, 'latinNumber');
    if (!value) continue;
    const code = (a(i, 'identificationTypeCode') ?? 'other').toLowerCase();
    const type =
      code === 'passport'
        ? 'passport'
        : code === 'id'
          ? 'national_id'
          : code === 'regnumber'
            ? 'registration'
            : code === 'fiscalcode'
              ? 'tax_id'
              : code;
    const country = countryCode(a(i, 'countryIso2Code'));
    out.push({ type, value, ...(country ? { country } : {}) });
  }
  return out;
}

function entity(el: XmlElement): ListEntity | undefined {
  const id = a(el, 'logicalId');
  const ns = names(el);
  if (!id || !ns.length) return undefined;
  const reg = child(el, 'regulation');
  const addresses = children(el, 'address');
  const gender = children(el, 'nameAlias')
    .map((n) => a(n, 'gender'))
    .find(Boolean);
  const remark = children(el, 'remark')
    .map((r) => r.text.trim())
    .filter(Boolean)
    .join(' ');
  return {
    id: `eu-fsf:${id}`,
    source: 'eu_fsf',
    datasets: ['sanctions'],
    schema: schemaOf(a(child(el, 'subjectType'), 'code')),
    names: ns,
    birthDates: birthDates(el),
    nationalities: uniq(children(el, 'citizenship').map((c) => countryCode(a(c, 'countryIso2Code')))),
    countries: uniq(addresses.map((x) => countryCode(a(x, 'countryIso2Code')))),
    ...(gender === 'M' ? { gender: 'male' as const } : gender === 'F' ? { gender: 'female' as const } : {}),
    addresses: addresses
      .map((x) =>
        ['street', 'city', 'zipCode', 'countryDescription']
          .map((k) => a(x, k))
          .filter(Boolean)
          .join(', '),
      )
      .filter(Boolean),
    identifiers: identifiers(el),
    programs: uniq([a(reg, 'programme')]),
    listedAt: a(el, 'designationDate') ?? a(reg, 'entryIntoForceDate'),
    sourceUrl: child(reg, 'publicationUrl')?.text.trim() || a(reg, 'publicationUrl'),
    ...(remark ? { remarks: remark } : {}),
  };
}

export function parseEuFsfXml(input: ListInput): ListEntity[] {
  const root = parseXml(singleFile(input));
  if (root.name !== 'export') throw new Error(`EU FSF XML: unexpected root <${root.name}>`);
  return children(root, 'sanctionEntity')
    .map(entity)
    .filter((e): e is ListEntity => e !== undefined);
}

export const euFsfXmlSource: ListSource = {
  name: 'eu_fsf_xml',
  description: 'EU Financial Sanctions Files consolidated list, XML 1.1',
  sourceName: 'eu_fsf',
  officialUrl: 'https://webgate.ec.europa.eu/fsd/fsf/public/files/xmlFullSanctionsList_1_1/content',
  parse: parseEuFsfXml,
};
