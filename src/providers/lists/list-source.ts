import type { ListEntity, ListSnapshot } from '../../engines/screening/types.js';
import { contentHash } from '../../engines/screening/snapshot-diff.js';

/**
 * Input of a parser: one file's contents, or for multi-file formats (the OFAC CSV set) a map from
 * file name (e.g. `sdn.csv`) to contents.
 */
export type ListInput = string | Uint8Array | Record<string, string | Uint8Array>;

export interface ListSource {
  /** Format name as used by `lists import FILE --format <name>`. */
  name: string;
  description: string;
  /** Snapshot source name of what this format usually carries (`ofac_sdn`, `un`, …). */
  sourceName: string;
  /** Official download location for `lists sync`: one URL, or file name → URL for multi-file formats. */
  officialUrl?: string | Record<string, string>;
  parse(input: ListInput): ListEntity[];
}

/** Decodes bytes as UTF-8, falling back to Windows-1252 (older OFAC files are not UTF-8). */
export function decodeText(input: string | Uint8Array): string {
  if (typeof input === 'string') return input;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    return new TextDecoder('windows-1252').decode(input);
  }
}

/** The single file of a one-file format; a map with exactly one entry is accepted too. */
export function singleFile(input: ListInput): string {
  if (typeof input === 'string' || input instanceof Uint8Array) return decodeText(input);
  const values = Object.values(input);
  if (values.length !== 1) throw new Error(`expected one file, got ${values.length}`);
  return decodeText(values[0]!);
}

export function makeSnapshot(source: string, entities: ListEntity[], fetchedAt = new Date()): ListSnapshot {
  return { source, version: contentHash(entities), fetchedAt: fetchedAt.toISOString(), entities };
}

/** Drops empty and duplicate values, keeping first-seen order. */
export function uniq<T>(xs: Iterable<T | undefined | null | ''>): T[] {
  const seen = new Set<T>();
  for (const x of xs) if (x !== undefined && x !== null && x !== '') seen.add(x as T);
  return [...seen];
}

const MONTHS: Record<string, string> = {
  jan: '01',
  feb: '02',
  mar: '03',
  apr: '04',
  may: '05',
  jun: '06',
  jul: '07',
  aug: '08',
  sep: '09',
  oct: '10',
  nov: '11',
  dec: '12',
};

/** "25 Mar 1977" → 1977-03-25, "Mar 1977"/"1977" → year, "1958 to 1960" → range; also DD-MM-YYYY and ISO. */
export function parseListDate(raw: string): import('../../engines/screening/types.js').BirthDate | undefined {
  const s = raw.trim().replace(/^(circa|approximately|about|c\.)\s+/i, '');
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (m) return m[2] === '00' ? { year: Number(m[1]) } : { date: `${m[1]}-${m[2]}-${m[3] === '00' ? '01' : m[3]}` };
  m = /^(\d{1,2})[-/. ](\d{1,2})[-/. ](\d{4})$/.exec(s);
  if (m) return { date: `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}` };
  m = /^(\d{1,2}) ([A-Za-z]{3})[a-z]* (\d{4})$/.exec(s);
  if (m && MONTHS[m[2]!.toLowerCase()]) return { date: `${m[3]}-${MONTHS[m[2]!.toLowerCase()]}-${m[1]!.padStart(2, '0')}` };
  m = /^(\d{4}) to (\d{4})$/.exec(s);
  if (m) return { from: `${m[1]}-01-01`, to: `${m[2]}-12-31` };
  m = /(\d{4})$/.exec(s);
  if (m) return { year: Number(m[1]) };
  return undefined;
}
