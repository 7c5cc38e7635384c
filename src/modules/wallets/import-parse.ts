import { parseCsv } from '../../providers/lists/csv.js';
import { AddressError, isCategory, parseAddress, parseAmount, resolveChainName, CATEGORIES } from '../../engines/wallets/index.js';
import type { NewAttribution, NewTransfer } from './repository.js';

// Parsing and checking of operator imports (attribution lists, known transfers), line by line. Pure:
// it runs in a one-shot worker thread (import-parse-worker.ts) so a large file never stalls the event loop.

type Rec = Record<string, string | undefined>;
export interface LineError {
  line: number;
  message: string;
}

export interface ParsedImport<Row> {
  /** Data lines read (good and bad). */
  lines: number;
  errors: LineError[];
  rows: Row[];
  /** Address keys the good rows touch (what a re-screen must look at). */
  keys: string[];
}

/** Data lines with their line numbers, as records keyed by lower-case column name. */
export function readRecords(text: string): Array<{ line: number; rec: Rec } | LineError> {
  const lines = text.split(/\r?\n/);
  const out: Array<{ line: number; rec: Rec } | LineError> = [];
  let header: string[] | null = null;
  let json: boolean | null = null;
  lines.forEach((raw, i) => {
    const line = i + 1;
    const l = raw.trim();
    if (!l || l.startsWith('#')) return;
    json ??= l.startsWith('{');
    if (json) {
      try {
        const obj = JSON.parse(l) as unknown;
        if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new Error('not a JSON object');
        const rec: Rec = {};
        for (const [k, v] of Object.entries(obj as Record<string, unknown>))
          if (v !== null && v !== undefined)
            rec[k.toLowerCase()] = typeof v === 'string' ? v.trim() : JSON.stringify(v).replace(/^"|"$/g, '');
        out.push({ line, rec });
      } catch (e) {
        out.push({ line, message: `not a JSON object (${(e as Error).message})` });
      }
      return;
    }
    const cells = parseCsv(raw)[0] ?? [];
    if (!header) {
      header = cells.map((h) => h.trim().toLowerCase());
      return;
    }
    out.push({ line, rec: Object.fromEntries(header.map((h, j) => [h, cells[j]?.trim() || undefined])) });
  });
  return out;
}

export function tryAddress(value: string, chain: string): string | null {
  try {
    parseAddress(value, chain);
    return null;
  } catch (e) {
    if (e instanceof AddressError) return `${e.reason}: ${e.message}`;
    throw e;
  }
}

function knownChain(chain: string): boolean {
  try {
    resolveChainName(chain);
    return true;
  } catch {
    return false;
  }
}

export function parseAttributionLines(content: string): ParsedImport<NewAttribution> {
  const records = readRecords(content);
  const errors: LineError[] = [];
  const rows: NewAttribution[] = [];
  const keys = new Set<string>();
  for (const r of records) {
    if ('message' in r) {
      errors.push(r);
      continue;
    }
    const { chain, address, category } = r.rec;
    const missing = (['chain', 'address', 'category'] as const).filter((f) => !r.rec[f]);
    if (missing.length) {
      errors.push({ line: r.line, message: `${missing.join(', ')} required` });
      continue;
    }
    if (!isCategory(category!)) {
      errors.push({ line: r.line, message: `category "${category}" is not one of ${CATEGORIES.join(', ')}` });
      continue;
    }
    if (!knownChain(chain!)) {
      errors.push({ line: r.line, message: `chain "${chain}" is unknown` });
      continue;
    }
    const bad = tryAddress(address!, chain!);
    if (bad) {
      errors.push({ line: r.line, message: `address: ${bad}` });
      continue;
    }
    keys.add(parseAddress(address!, chain!).address.keys[0]!);
    rows.push({
      chain: chain!,
      address: address!,
      category: category!,
      entity_id: r.rec.entity_id ?? null,
      entity_name: r.rec.entity ?? r.rec.entity_name ?? null,
      source: r.rec.source ?? null,
    });
  }
  return { lines: records.length, errors, rows, keys: [...keys] };
}

export function parseTransferLines(content: string): ParsedImport<NewTransfer> {
  const records = readRecords(content);
  const errors: LineError[] = [];
  const rows: NewTransfer[] = [];
  const keys = new Set<string>();
  for (const r of records) {
    if ('message' in r) {
      errors.push(r);
      continue;
    }
    const rec = r.rec;
    const amount = rec.amount ?? rec.value;
    const txHash = rec.tx_hash ?? rec.txhash ?? rec.hash ?? null;
    const missing: string[] = (['chain', 'from', 'to'] as const).filter((f) => !rec[f]);
    if (!amount) missing.push('amount');
    if (missing.length) {
      errors.push({ line: r.line, message: `${missing.join(', ')} required` });
      continue;
    }
    const chain = rec.chain!;
    if (!knownChain(chain)) {
      errors.push({ line: r.line, message: `chain "${chain}" is unknown` });
      continue;
    }
    const badFrom = tryAddress(rec.from!, chain);
    const badTo = badFrom ? null : tryAddress(rec.to!, chain);
    if (badFrom || badTo) {
      errors.push({ line: r.line, message: badFrom ? `from: ${badFrom}` : `to: ${badTo}` });
      continue;
    }
    try {
      if (parseAmount(amount!) === 0n) throw new Error('amount must be greater than 0');
    } catch (e) {
      errors.push({ line: r.line, message: `amount: ${(e as Error).message}` });
      continue;
    }
    keys.add(parseAddress(rec.from!, chain).address.keys[0]!);
    keys.add(parseAddress(rec.to!, chain).address.keys[0]!);
    rows.push({ chain, asset: rec.asset ?? null, tx_hash: txHash, from: rec.from!, to: rec.to!, amount: amount! });
  }
  return { lines: records.length, errors, rows, keys: [...keys] };
}
