import type { Dataset, Identifier, ListEntity, ListName } from '../../engines/screening/types.js';
import { countryCode } from '../../engines/screening/countries.js';
import { parseListDate, singleFile, uniq, type ListInput, type ListSource } from './list-source.js';

// Senzing entity-specification JSON as exported by OpenSanctions (and others): a JSON array or JSON
// lines of records. Attributes appear flat ("NAME_FULL") or grouped in arrays ("NAMES": [{…}],
// "IDENTIFIERS": [{…}]); both are read by flattening every record into attribute → values.

type Rec = Record<string, unknown>;

function flatten(rec: Rec, out = new Map<string, string[]>(), groups: Rec[] = []): { attrs: Map<string, string[]>; groups: Rec[] } {
  for (const [k, v] of Object.entries(rec)) {
    if (Array.isArray(v))
      for (const x of v) {
        if (x && typeof x === 'object') {
          groups.push(x as Rec);
          flatten(x as Rec, out, groups);
        }
      }
    else if (typeof v === 'string' && v.trim()) out.set(k, [...(out.get(k) ?? []), v.trim()]);
  }
  return { attrs: out, groups };
}

const ID_ATTRS: Record<string, string> = {
  PASSPORT_NUMBER: 'passport',
  NATIONAL_ID_NUMBER: 'national_id',
  TAX_ID_NUMBER: 'tax_id',
  SSN_NUMBER: 'ssn',
  DRIVERS_LICENSE_NUMBER: 'drivers_license',
  LEI_NUMBER: 'lei',
  EMAIL_ADDRESS: 'email',
  OTHER_ID_NUMBER: 'other',
};

function records(text: string): Rec[] {
  const t = text.trim();
  if (t.startsWith('[')) return JSON.parse(t) as Rec[];
  return t
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Rec);
}

export function parseSenzingJson(input: ListInput): ListEntity[] {
  const out: ListEntity[] = [];
  for (const rec of records(singleFile(input))) {
    const { attrs, groups } = flatten(rec);
    const one = (k: string): string | undefined => attrs.get(k)?.[0];
    const id = one('RECORD_ID');
    if (!id) continue;
    const names: ListName[] = [];
    const nameSources = groups.some((g) => 'NAME_FULL' in g || 'NAME_LAST' in g || 'NAME_ORG' in g) ? groups : [rec];
    for (const g of nameSources) {
      const full = (g.NAME_FULL ?? g.NAME_ORG ?? [g.NAME_FIRST, g.NAME_MIDDLE, g.NAME_LAST].filter(Boolean).join(' ')) as string;
      if (full && typeof full === 'string' && !names.some((n) => n.full === full)) names.push({ full, quality: 'strong' });
    }
    if (!names.length) continue;
    const type = (one('RECORD_TYPE') ?? '').toUpperCase();
    const source = one('DATA_SOURCE') ?? '';
    const datasets: Dataset[] = /PEP/i.test(source) ? ['pep'] : /CRIME|MEDIA|WANTED/i.test(source) ? ['adverse_media'] : ['sanctions'];
    const identifiers: Identifier[] = [];
    for (const [attr, t] of Object.entries(ID_ATTRS)) for (const v of attrs.get(attr) ?? []) identifiers.push({ type: t, value: v });
    const gender = one('GENDER')?.toLowerCase();
    out.push({
      id: `senzing:${source.toLowerCase()}:${id}`,
      source: 'opensanctions',
      datasets,
      schema: type === 'PERSON' ? 'person' : type === 'ORGANIZATION' ? 'organization' : 'unknown',
      names,
      birthDates: uniq((attrs.get('DATE_OF_BIRTH') ?? []).map((d) => parseListDate(d))),
      nationalities: uniq([...(attrs.get('NATIONALITY') ?? []), ...(attrs.get('CITIZENSHIP') ?? [])].map((c) => countryCode(c))),
      countries: uniq([...(attrs.get('ADDR_COUNTRY') ?? []), ...(attrs.get('REGISTRATION_COUNTRY') ?? [])].map((c) => countryCode(c))),
      ...(gender === 'm' || gender === 'male'
        ? { gender: 'male' as const }
        : gender === 'f' || gender === 'female'
          ? { gender: 'female' as const }
          : {}),
      addresses: uniq([
        ...(attrs.get('ADDR_FULL') ?? []),
        [one('ADDR_LINE1'), one('ADDR_CITY'), one('ADDR_STATE'), one('ADDR_COUNTRY')].filter(Boolean).join(', '),
      ]),
      identifiers,
      programs: source ? [source] : [],
    });
  }
  return out;
}

export const senzingJsonSource: ListSource = {
  name: 'senzing_json',
  description: 'Senzing entity-specification JSON (array or JSON lines), e.g. the OpenSanctions Senzing export',
  sourceName: 'opensanctions',
  parse: parseSenzingJson,
};
