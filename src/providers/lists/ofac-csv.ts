import type { EntitySchema, ListEntity, ListName } from '../../engines/screening/types.js';
import { countryCode } from '../../engines/screening/countries.js';
import { parseCsv } from './csv.js';
import { decodeText, uniq, type ListInput, type ListSource } from './list-source.js';
import { parseOfacRemarks } from './ofac-remarks.js';

// OFAC's legacy CSV set: sdn.csv (one row per entry) joined on ent_num with add.csv (addresses),
// alt.csv (aliases) and sdn_comments.csv (remarks overflow). The consolidated non-SDN list uses the
// same layout under cons_prim/cons_add/cons_alt/cons_comments. "-0-" marks an empty field.

const NULL = '-0-';

function f(v: string | undefined): string | undefined {
  const t = v?.trim();
  return !t || t === NULL ? undefined : t;
}

function pick(files: Record<string, string | Uint8Array>, ...names: string[]): string | undefined {
  for (const [k, v] of Object.entries(files)) {
    const base = k.split(/[\\/]/).pop()!.toLowerCase();
    if (names.includes(base)) return decodeText(v);
  }
  return undefined;
}

function schemaOf(t: string | undefined): EntitySchema {
  switch (t?.toLowerCase()) {
    case 'individual':
      return 'person';
    case 'vessel':
      return 'vessel';
    case 'aircraft':
      return 'aircraft';
    default:
      return 'organization';
  }
}

export interface OfacCsvOptions {
  /** `ofac_sdn` (default) or `ofac_cons` for the consolidated non-SDN list. */
  source?: 'ofac_sdn' | 'ofac_cons';
}

/**
 * Parses the OFAC CSV set given as a map of file name → contents (`sdn.csv` required; `add.csv`,
 * `alt.csv`, `sdn_comments.csv` optional), or a single sdn.csv as a string.
 */
export function parseOfacCsv(input: ListInput, options: OfacCsvOptions = {}): ListEntity[] {
  const files = typeof input === 'string' || input instanceof Uint8Array ? { 'sdn.csv': input } : input;
  const main = pick(files, 'sdn.csv', 'cons_prim.csv');
  if (main === undefined) throw new Error('OFAC CSV: sdn.csv (or cons_prim.csv) is required');
  const cons = pick(files, 'cons_prim.csv') !== undefined && pick(files, 'sdn.csv') === undefined;
  const source = options.source ?? (cons ? 'ofac_cons' : 'ofac_sdn');
  const prefix = source === 'ofac_cons' ? 'ofac-cons' : 'ofac-sdn';

  const comments = new Map<string, string>();
  for (const r of parseCsv(pick(files, 'sdn_comments.csv', 'cons_comments.csv') ?? '')) {
    const id = r[0]?.trim();
    const text = f(r[1]);
    if (id && text) comments.set(id, (comments.get(id) ?? '') + text);
  }
  const aliases = new Map<string, ListName[]>();
  for (const r of parseCsv(pick(files, 'alt.csv', 'cons_alt.csv') ?? '')) {
    const id = r[0]?.trim();
    const name = f(r[3]);
    if (!id || !name) continue;
    const list = aliases.get(id) ?? [];
    list.push({ full: name, quality: 'strong' });
    aliases.set(id, list);
  }
  const addresses = new Map<string, Array<{ text: string; country?: string }>>();
  for (const r of parseCsv(pick(files, 'add.csv', 'cons_add.csv') ?? '')) {
    const id = r[0]?.trim();
    if (!id) continue;
    const parts = [f(r[2]), f(r[3]), f(r[4])].filter(Boolean) as string[];
    if (!parts.length) continue;
    const list = addresses.get(id) ?? [];
    list.push({ text: parts.join(', '), country: countryCode(f(r[4])) });
    addresses.set(id, list);
  }

  const out: ListEntity[] = [];
  for (const r of parseCsv(main)) {
    const id = r[0]?.trim();
    const name = f(r[1]);
    if (!id || !/^\d+$/.test(id) || !name) continue;
    const remarks = [f(r[11]), comments.get(id)].filter(Boolean).join('');
    const rem = parseOfacRemarks(remarks);
    const schema = schemaOf(f(r[2]));
    const identifiers = [...rem.identifiers];
    const callSign = f(r[5]);
    if (callSign) identifiers.push({ type: 'call_sign', value: callSign });
    const flag = countryCode(f(r[9]));
    const adds = addresses.get(id) ?? [];
    out.push({
      id: `${prefix}:${id}`,
      source,
      datasets: ['sanctions'],
      schema,
      names: [{ full: name, quality: 'strong' }, ...(aliases.get(id) ?? []), ...rem.weakAliases],
      birthDates: rem.birthDates,
      nationalities: uniq(rem.nationalities),
      countries: uniq([...adds.map((a) => a.country), flag]),
      ...(rem.gender ? { gender: rem.gender } : {}),
      addresses: adds.map((a) => a.text),
      identifiers,
      programs: (f(r[3]) ?? '')
        .split(/\]\s*\[/)
        .map((p) => p.replace(/[[\]]/g, '').trim())
        .filter(Boolean),
      sourceUrl: `https://sanctionssearch.ofac.treas.gov/Details.aspx?id=${id}`,
      ...(remarks ? { remarks } : {}),
    });
  }
  return out;
}

export const ofacCsvSource: ListSource = {
  name: 'ofac_csv',
  description: 'OFAC SDN (or consolidated non-SDN) legacy CSV set: sdn.csv + add.csv + alt.csv + sdn_comments.csv',
  sourceName: 'ofac_sdn',
  officialUrl: {
    'sdn.csv': 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.CSV',
    'add.csv': 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ADD.CSV',
    'alt.csv': 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ALT.CSV',
    'sdn_comments.csv': 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN_COMMENTS.CSV',
  },
  parse: (input) => parseOfacCsv(input),
};
