import type { EntitySchema, Identifier, ListEntity, ListName } from '../../engines/screening/types.js';
import { countryCode } from '../../engines/screening/countries.js';
import { parseCsvRecords } from './csv.js';
import { parseListDate, singleFile, uniq, type ListInput, type ListSource } from './list-source.js';

// UK Sanctions List (FCDO) CSV. The 8-column export (Unique ID, OFSI Group ID, Name, Regime Name,
// Type, Designation source, Date Designated, Sanctions Imposed) is tested on a real file. Rows of the
// full export share a Unique ID per designation (one row per name) and add Name 1–6, Name type,
// Alias strength, D.O.B, Nationality, Passport number, National Identifier number and IMO number;
// those columns are read when present (written from the published column list, no real sample here).

function schemaOf(t: string): EntitySchema {
  const s = t.toLowerCase();
  if (s.startsWith('individual')) return 'person';
  if (s.startsWith('ship')) return 'vessel';
  if (s.startsWith('entity')) return 'organization';
  return 'unknown';
}

function col(r: Record<string, string>, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = r[n]?.replace(/\s+/g, ' ').trim();
    if (v) return v;
  }
  return undefined;
}

function nameOf(r: Record<string, string>): string | undefined {
  const direct = col(r, 'Name');
  if (direct) return direct;
  // Full export: Name 1..5 are given names, Name 6 the surname or entity name.
  const parts = ['Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5', 'Name 6'].map((n) => col(r, n)).filter(Boolean);
  return parts.length ? parts.join(' ') : undefined;
}

function designationDate(s: string | undefined): string | undefined {
  const d = s ? parseListDate(s) : undefined;
  return d?.date;
}

export function parseUkCsv(input: ListInput): ListEntity[] {
  const rows = parseCsvRecords(singleFile(input));
  if (rows.length && !('Unique ID' in rows[0]!)) throw new Error('UK CSV: no "Unique ID" column');
  const byId = new Map<string, ListEntity>();
  for (const r of rows) {
    const id = col(r, 'Unique ID');
    const name = nameOf(r);
    if (!id || !name) continue;
    let e = byId.get(id);
    const nameType = (col(r, 'Name type', 'Name Type') ?? 'Primary name').toLowerCase();
    const weak = (col(r, 'Alias strength', 'Alias Strength') ?? '').toLowerCase() === 'weak';
    const listName: ListName = { full: name, quality: weak ? 'weak' : 'strong' };
    if (!e) {
      const regime = col(r, 'Regime Name', 'Regime');
      e = {
        id: `uk:${id}`,
        source: 'uk_fcdo',
        datasets: ['sanctions'],
        schema: schemaOf(col(r, 'Type', 'Designation Type', 'Group Type') ?? ''),
        names: [],
        birthDates: [],
        nationalities: [],
        countries: [],
        addresses: [],
        identifiers: [],
        programs: regime ? [regime] : [],
        listedAt: designationDate(col(r, 'Date Designated')),
        sourceUrl: 'https://www.gov.uk/government/publications/the-uk-sanctions-list',
      };
      byId.set(id, e);
    }
    if (!e.names.some((n) => n.full === name)) {
      if (nameType.startsWith('primary')) e.names.unshift(listName);
      else e.names.push(listName);
    }
    const nonLatin = col(r, 'Name non-latin script');
    if (nonLatin && !e.names.some((n) => n.full === nonLatin)) e.names.push({ full: nonLatin, quality: 'strong' });
    const dob = col(r, 'D.O.B', 'DOB');
    const bd = dob ? parseListDate(dob.replace(/^(\d{2})\/(\d{2})\/(\d{4})$/, '$3-$2-$1')) : undefined;
    if (bd && !e.birthDates.some((b) => JSON.stringify(b) === JSON.stringify(bd))) e.birthDates.push(bd);
    const nats = (col(r, 'Nationality(/ies)', 'Nationality') ?? '').split(/[,;]|\(\d\)/).map((n) => countryCode(n.trim()));
    e.nationalities = uniq([...e.nationalities, ...nats]);
    const ids: Identifier[] = [];
    const passport = col(r, 'Passport number', 'Passport Number');
    if (passport) ids.push({ type: 'passport', value: passport });
    const nid = col(r, 'National Identifier number', 'National Identification Number');
    if (nid) ids.push({ type: 'national_id', value: nid });
    const imo = col(r, 'IMO number', 'IMO Number');
    if (imo) ids.push({ type: 'imo', value: imo });
    for (const i of ids) if (!e.identifiers.some((x) => x.type === i.type && x.value === i.value)) e.identifiers.push(i);
  }
  return [...byId.values()];
}

export const ukCsvSource: ListSource = {
  name: 'uk_csv',
  description: 'UK Sanctions List (FCDO) CSV export',
  sourceName: 'uk_fcdo',
  officialUrl: 'https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.csv',
  parse: parseUkCsv,
};
