import type { BirthDate, Identifier, ListEntity, ListName } from '../../engines/screening/types.js';
import { countryCode } from '../../engines/screening/countries.js';
import { child, children, childText, parseXml, type XmlElement } from './xml.js';
import { singleFile, uniq, type ListInput, type ListSource } from './list-source.js';

// UN Security Council Consolidated List (https://scsanctions.un.org/resources/xml/en/consolidated.xml):
// <INDIVIDUALS><INDIVIDUAL> and <ENTITIES><ENTITY>, names split into FIRST..FOURTH_NAME, aliases with
// QUALITY Good/Low (individuals) or a.k.a./f.k.a. (entities), dates of birth EXACT/APPROXIMATELY/BETWEEN.

function joinName(el: XmlElement): string {
  return ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME']
    .map((n) => childText(el, n))
    .filter(Boolean)
    .join(' ');
}

function aliases(el: XmlElement, tag: string): ListName[] {
  const out: ListName[] = [];
  for (const a of children(el, tag)) {
    const name = childText(a, 'ALIAS_NAME');
    if (!name) continue;
    out.push({ full: name, quality: childText(a, 'QUALITY')?.toLowerCase() === 'low' ? 'weak' : 'strong' });
  }
  return out;
}

function birthDates(el: XmlElement): BirthDate[] {
  const out: BirthDate[] = [];
  for (const d of children(el, 'INDIVIDUAL_DATE_OF_BIRTH')) {
    const type = childText(d, 'TYPE_OF_DATE');
    const date = childText(d, 'DATE');
    const year = childText(d, 'YEAR');
    const from = childText(d, 'FROM_YEAR');
    const to = childText(d, 'TO_YEAR');
    if (type === 'BETWEEN' && from && to) out.push({ from: `${from}-01-01`, to: `${to}-12-31` });
    else if (date) out.push({ date: date.slice(0, 10) });
    else if (year) out.push({ year: Number(year) });
  }
  return out;
}

function documents(el: XmlElement): Identifier[] {
  const out: Identifier[] = [];
  for (const d of children(el, 'INDIVIDUAL_DOCUMENT')) {
    const value = childText(d, 'NUMBER');
    if (!value) continue;
    const t = (childText(d, 'TYPE_OF_DOCUMENT') ?? '').toLowerCase();
    const type = /pass|pasa/.test(t) ? 'passport' : /national|identif/.test(t) ? 'national_id' : 'other';
    const country = countryCode(childText(d, 'ISSUING_COUNTRY') ?? childText(d, 'COUNTRY_OF_ISSUE'));
    out.push({ type, value, ...(country ? { country } : {}) });
  }
  return out;
}

function addresses(el: XmlElement, tag: string): { text: string[]; countries: string[] } {
  const text: string[] = [];
  const countries: string[] = [];
  for (const a of children(el, tag)) {
    const parts = ['STREET', 'CITY', 'STATE_PROVINCE', 'ZIP_CODE', 'COUNTRY'].map((n) => childText(a, n)).filter(Boolean) as string[];
    if (parts.length) text.push(parts.join(', '));
    const c = countryCode(childText(a, 'COUNTRY'));
    if (c) countries.push(c);
  }
  return { text, countries };
}

function values(el: XmlElement, tag: string): string[] {
  return children(child(el, tag), 'VALUE')
    .map((v) => v.text.trim())
    .filter(Boolean);
}

function record(el: XmlElement, person: boolean): ListEntity | undefined {
  const ref = childText(el, 'REFERENCE_NUMBER') ?? childText(el, 'DATAID');
  const name = joinName(el);
  if (!ref || !name) return undefined;
  const orig = childText(el, 'NAME_ORIGINAL_SCRIPT');
  const names: ListName[] = [
    { full: name, quality: 'strong' },
    ...(orig ? [{ full: orig, quality: 'strong' as const }] : []),
    ...aliases(el, person ? 'INDIVIDUAL_ALIAS' : 'ENTITY_ALIAS'),
  ];
  const addr = addresses(el, person ? 'INDIVIDUAL_ADDRESS' : 'ENTITY_ADDRESS');
  const gender = childText(el, 'GENDER')?.toLowerCase();
  const nationalities = values(el, 'NATIONALITY').map((n) => countryCode(n));
  const listType = childText(el, 'UN_LIST_TYPE');
  return {
    id: `un:${ref}`,
    source: 'un',
    datasets: ['sanctions'],
    schema: person ? 'person' : 'organization',
    names,
    birthDates: person ? birthDates(el) : [],
    nationalities: uniq(nationalities),
    countries: uniq(addr.countries),
    ...(gender === 'male' || gender === 'female' ? { gender } : {}),
    addresses: addr.text,
    identifiers: person ? documents(el) : [],
    programs: listType ? [listType] : [],
    listedAt: childText(el, 'LISTED_ON'),
    sourceUrl: 'https://main.un.org/securitycouncil/en/content/un-sc-consolidated-list',
    remarks: childText(el, 'COMMENTS1'),
  };
}

export function parseUnXml(input: ListInput): ListEntity[] {
  const root = parseXml(singleFile(input));
  if (root.name !== 'CONSOLIDATED_LIST') throw new Error(`UN XML: unexpected root <${root.name}>`);
  const out: ListEntity[] = [];
  for (const el of children(child(root, 'INDIVIDUALS'), 'INDIVIDUAL')) {
    const r = record(el, true);
    if (r) out.push(r);
  }
  for (const el of children(child(root, 'ENTITIES'), 'ENTITY')) {
    const r = record(el, false);
    if (r) out.push(r);
  }
  return out;
}

export const unXmlSource: ListSource = {
  name: 'un_xml',
  description: 'UN Security Council Consolidated List XML',
  sourceName: 'un',
  officialUrl: 'https://scsanctions.un.org/resources/xml/en/consolidated.xml',
  parse: parseUnXml,
};
