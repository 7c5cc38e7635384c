// Shared loaders for the screening benchmarks: the official lists from ../shared/data and a seeded
// synthetic name generator. Never imported by the service.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseOfacCsv } from '../src/providers/lists/ofac-csv.js';
import { parseUnXml } from '../src/providers/lists/un-xml.js';
import { parseUkCsv } from '../src/providers/lists/uk-csv.js';
import { sharedData } from '../src/providers/lists/fixtures/shared-data.js';
import type { ListEntity } from '../src/engines/screening/types.js';
import { seeded } from './lib/random.js';

export function dataDir(): string {
  const d = sharedData();
  if (!d) {
    console.error('../shared/data is missing: the screening benchmarks need the labelled data');
    process.exit(2);
  }
  return d;
}

/** OFAC SDN 2024-05-03 (with the 2025 alt/add/comments files, loosely joined), UN consolidated, UK FCDO. */
export function officialLists(): { ofac: ListEntity[]; un: ListEntity[]; uk: ListEntity[] } {
  const d = join(dataDir(), 'sanctions');
  const ofac = parseOfacCsv({
    'sdn.csv': readFileSync(join(d, 'ofac_sdn_csv_2024_snapshots', 'sdn_2024-05-03.csv')),
    'add.csv': readFileSync(join(d, 'ofac_sdn_csv_2025_partial', 'add.csv')),
    'alt.csv': readFileSync(join(d, 'ofac_sdn_csv_2025_partial', 'alt.csv')),
    'sdn_comments.csv': readFileSync(join(d, 'ofac_sdn_csv_2025_partial', 'sdn_comments.csv')),
  });
  const un = parseUnXml(readFileSync(join(d, 'un_consolidated', 'UN_consolidated.xml')));
  const uk = parseUkCsv(readFileSync(join(d, 'uk_fcdo_sanctions_list', 'FCDO_SL_2025-08-11.csv')));
  return { ofac, un, uk };
}

export function ofacSnapshots(): { prev: ListEntity[]; next: ListEntity[] } {
  const d = join(dataDir(), 'sanctions', 'ofac_sdn_csv_2024_snapshots');
  return {
    prev: parseOfacCsv({ 'sdn.csv': readFileSync(join(d, 'sdn_2024-04-25.csv')) }),
    next: parseOfacCsv({ 'sdn.csv': readFileSync(join(d, 'sdn_2024-05-03.csv')) }),
  };
}

/** Deterministic PRNG (mulberry32) so synthetic data is identical on every run. */
export { seeded };

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ra',
  'ne',
  'so',
  'ta',
  'vi',
  'de',
  'ru',
  'an',
  'el',
  'or',
  'us',
  'in',
  'ba',
  'go',
  'sha',
  'khan',
  'dor',
  'len',
  'mar',
  'tin',
  'vel',
  'zar',
  'pol',
  'ser',
  'gen',
  'ric',
  'hol',
];

/** A synthetic person name of 2–3 tokens built from syllables: realistic token lengths and overlap. */
export function syntheticName(rnd: () => number): string {
  const word = (): string => {
    const n = 2 + Math.floor(rnd() * 2);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rnd() * SYLLABLES.length)];
    return w[0]!.toUpperCase() + w.slice(1);
  };
  return rnd() < 0.3 ? `${word()} ${word()} ${word()}` : `${word()} ${word()}`;
}

export function syntheticEntities(n: number, seed = 1): ListEntity[] {
  const rnd = seeded(seed);
  const out: ListEntity[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const y = 1940 + Math.floor(rnd() * 60);
    out[i] = {
      id: `synthetic:${i}`,
      source: 'custom',
      datasets: ['sanctions'],
      schema: 'person',
      names: [{ full: syntheticName(rnd), quality: 'strong' }],
      birthDates: [{ year: y }],
      nationalities: [],
      countries: [],
      addresses: [],
      identifiers: [],
      programs: [],
    };
  }
  return out;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}
