import type { Dataset, EntitySchema, Identifier, ListEntity, ListName } from '../../engines/screening/types.js';
import { countryCode } from '../../engines/screening/countries.js';
import { parseCsvRecords } from './csv.js';
import { parseListDate, singleFile, uniq, type ListInput, type ListSource } from './list-source.js';

// An operator's own list, one row per entity. Columns (header required, only id and name mandatory):
//   id, name, schema (person|organization|vessel|aircraft), aliases (";"-separated, prefix "weak:" for
//   weak aliases), birth_dates (";"-separated YYYY-MM-DD / YYYY / YYYY..YYYY), nationalities, countries
//   (";"-separated names or ISO codes), gender, identifiers (";"-separated type:value, e.g.
//   "passport:X123;crypto:XBT:1abc"), datasets (sanctions|pep|adverse_media, default sanctions),
//   programs, listed_at, remarks.

const SCHEMAS: ReadonlySet<string> = new Set(['person', 'organization', 'vessel', 'aircraft']);
const DATASETS: ReadonlySet<string> = new Set(['sanctions', 'pep', 'adverse_media']);

function list(v: string | undefined): string[] {
  return (v ?? '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

function identifier(s: string): Identifier | undefined {
  const i = s.lastIndexOf(':');
  if (i <= 0) return undefined;
  return { type: s.slice(0, i).trim().toLowerCase(), value: s.slice(i + 1).trim() };
}

export interface CustomCsvOptions {
  /** Prefix of entity ids, e.g. the list's name: `custom:<list>:<id>`. */
  listName?: string;
}

export function parseCustomCsv(input: ListInput, options: CustomCsvOptions = {}): ListEntity[] {
  const rows = parseCsvRecords(singleFile(input));
  if (rows.length && !('name' in rows[0]! && 'id' in rows[0]!)) throw new Error('custom CSV: "id" and "name" columns are required');
  const prefix = options.listName ? `custom:${options.listName}` : 'custom';
  const out: ListEntity[] = [];
  for (const [n, r] of rows.entries()) {
    const id = r.id?.trim();
    const name = r.name?.trim();
    if (!id || !name) throw new Error(`custom CSV: row ${n + 2} lacks id or name`);
    const schema = (r.schema ?? '').trim().toLowerCase();
    const aliases: ListName[] = list(r.aliases).map((a) =>
      a.startsWith('weak:') ? { full: a.slice(5).trim(), quality: 'weak' } : { full: a, quality: 'strong' },
    );
    const datasets = list(r.datasets).filter((d) => DATASETS.has(d)) as Dataset[];
    const gender = r.gender?.trim().toLowerCase();
    out.push({
      id: `${prefix}:${id}`,
      source: 'custom',
      datasets: datasets.length ? datasets : ['sanctions'],
      schema: (SCHEMAS.has(schema) ? schema : 'unknown') as EntitySchema,
      names: [{ full: name, quality: 'strong' }, ...aliases],
      birthDates: uniq(
        list(r.birth_dates).map((d) => {
          const range = /^(\d{4})\.\.(\d{4})$/.exec(d);
          return range ? { from: `${range[1]}-01-01`, to: `${range[2]}-12-31` } : parseListDate(d);
        }),
      ),
      nationalities: uniq(list(r.nationalities).map((c) => countryCode(c))),
      countries: uniq(list(r.countries).map((c) => countryCode(c))),
      ...(gender === 'male' || gender === 'female' ? { gender } : {}),
      addresses: list(r.addresses),
      identifiers: uniq(list(r.identifiers).map(identifier)),
      programs: list(r.programs),
      ...(r.listed_at?.trim() ? { listedAt: r.listed_at.trim() } : {}),
      ...(r.remarks?.trim() ? { remarks: r.remarks.trim() } : {}),
    });
  }
  return out;
}

export const customCsvSource: ListSource = {
  name: 'custom_csv',
  description:
    "Operator's own list: id,name,schema,aliases,birth_dates,nationalities,countries,gender,identifiers,datasets,programs,listed_at,remarks",
  sourceName: 'custom',
  parse: (input) => parseCustomCsv(input),
};
