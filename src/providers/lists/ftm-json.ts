import type { Dataset, EntitySchema, Identifier, ListEntity, ListName } from '../../engines/screening/types.js';
import { countryCode } from '../../engines/screening/countries.js';
import { parseListDate, singleFile, uniq, type ListInput, type ListSource } from './list-source.js';

// OpenSanctions FollowTheMoney entities, one JSON object per line (entities.ftm.json). Topics decide
// the dataset: sanction* → sanctions, role.pep/role.rca → pep, crime*/wanted/reg.warn → adverse_media.
// Address and Sanction entities are folded into the entities that reference them; CryptoWallet
// entities become `crypto:<currency>` identifiers of their holder (wallet screening reads them).

interface FtmEntity {
  id: string;
  schema: string;
  caption?: string;
  properties: Record<string, string[] | undefined>;
  datasets?: string[];
  first_seen?: string;
}

const SCHEMAS: Record<string, EntitySchema> = {
  Person: 'person',
  Organization: 'organization',
  Company: 'organization',
  LegalEntity: 'organization',
  PublicBody: 'organization',
  Vessel: 'vessel',
  Airplane: 'aircraft',
};

const ID_PROPS: Record<string, string> = {
  idNumber: 'national_id',
  passportNumber: 'passport',
  taxNumber: 'tax_id',
  registrationNumber: 'registration',
  leiCode: 'lei',
  imoNumber: 'imo',
  mmsi: 'mmsi',
  innCode: 'tax_id',
  ogrnCode: 'registration',
  swiftBic: 'swift',
  email: 'email',
  callSign: 'call_sign',
  vatCode: 'tax_id',
  dunsCode: 'duns',
};

function datasetsOf(topics: string[]): Dataset[] {
  const out = new Set<Dataset>();
  for (const t of topics) {
    if (t.startsWith('sanction') || t === 'debarment' || t === 'export.control') out.add('sanctions');
    else if (t.startsWith('role.')) out.add('pep');
    else if (t.startsWith('crime') || t === 'wanted' || t === 'reg.warn' || t === 'reg.action') out.add('adverse_media');
  }
  return [...out];
}

function lines(text: string): FtmEntity[] {
  const t = text.trim();
  if (t.startsWith('[')) return JSON.parse(t) as FtmEntity[];
  return t
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return JSON.parse(l) as FtmEntity;
      } catch {
        throw new Error(`FtM JSON: line ${i + 1} is not valid JSON`);
      }
    });
}

export function parseFtmJson(input: ListInput): ListEntity[] {
  const all = lines(singleFile(input));
  const addresses = new Map<string, string>();
  const programs = new Map<string, string[]>();
  const wallets = new Map<string, Identifier[]>();
  for (const e of all) {
    if (e.schema === 'CryptoWallet') {
      const currency = e.properties.currency?.[0] ?? e.properties.currencySymbol?.[0] ?? '';
      for (const holder of e.properties.holder ?? [])
        for (const key of e.properties.publicKey ?? [])
          wallets.set(holder, [...(wallets.get(holder) ?? []), { type: `crypto:${currency.toUpperCase()}`, value: key }]);
    }
    if (e.schema === 'Address') addresses.set(e.id, e.properties.full?.[0] ?? e.caption ?? '');
    if (e.schema === 'Sanction') {
      for (const target of e.properties.entity ?? []) {
        programs.set(target, [...(programs.get(target) ?? []), ...(e.properties.program ?? e.properties.authority ?? [])]);
      }
    }
  }
  const out: ListEntity[] = [];
  for (const e of all) {
    const schema = SCHEMAS[e.schema];
    if (!schema) continue;
    const p = e.properties;
    const names: ListName[] = [];
    const seen = new Set<string>();
    const add = (full: string | undefined, quality: ListName['quality']): void => {
      if (full && !seen.has(full)) {
        seen.add(full);
        names.push({ full, quality });
      }
    };
    add(e.caption, 'strong');
    for (const n of p.name ?? []) add(n, 'strong');
    for (const n of p.alias ?? []) add(n, 'strong');
    for (const n of p.previousName ?? []) add(n, 'strong');
    for (const n of p.weakAlias ?? []) add(n, 'weak');
    if (!names.length) continue;
    const identifiers: Identifier[] = [];
    for (const [prop, type] of Object.entries(ID_PROPS)) for (const v of p[prop] ?? []) identifiers.push({ type, value: v });
    identifiers.push(...(wallets.get(e.id) ?? []));
    const gender = p.gender?.[0];
    out.push({
      id: `opensanctions:${e.id}`,
      source: 'opensanctions',
      datasets: datasetsOf(p.topics ?? []),
      schema,
      names,
      birthDates: uniq((p.birthDate ?? []).map((d) => parseListDate(d))),
      nationalities: uniq([...(p.nationality ?? []), ...(p.citizenship ?? [])].map((c) => countryCode(c))),
      countries: uniq([...(p.country ?? []), ...(p.jurisdiction ?? []), ...(p.flag ?? [])].map((c) => countryCode(c))),
      ...(gender === 'male' || gender === 'female' ? { gender } : {}),
      addresses: uniq([...(p.address ?? []), ...(p.addressEntity ?? []).map((a) => addresses.get(a))]),
      identifiers,
      programs: uniq([...(programs.get(e.id) ?? []), ...(e.datasets ?? [])]),
      listedAt: p.createdAt?.[0] ?? e.first_seen?.slice(0, 10),
      sourceUrl: `https://www.opensanctions.org/entities/${e.id}/`,
      ...(p.notes?.length ? { remarks: p.notes.join(' ') } : {}),
    });
  }
  return out;
}

export const ftmJsonSource: ListSource = {
  name: 'ftm_json',
  description: 'OpenSanctions FollowTheMoney entities (JSON lines); brings sanctions, PEPs and crime-related entities',
  sourceName: 'opensanctions',
  officialUrl: 'https://data.opensanctions.org/datasets/latest/default/entities.ftm.json',
  parse: parseFtmJson,
};
