import { parseAddress } from './parse.js';
import { AddressError, type AddressErrorReason } from './types.js';

// Attribution entries: "this address belongs to X, which is in category C, according to list L
// version V". Sanctions lists, the caller's block list and operator imports all become entries.

export const CATEGORIES = [
  'sanctions',
  'terrorist_financing',
  'darknet_market',
  'mixer',
  'ransomware',
  'scam',
  'stolen_funds',
  'gambling',
  'exchange',
  'no_kyc_exchange',
  'custom',
] as const;
export type Category = (typeof CATEGORIES)[number];

export function isCategory(x: string): x is Category {
  return (CATEGORIES as readonly string[]).includes(x);
}

export interface ListRef {
  /** `ofac_sdn`, `opensanctions`, `blocklist:<tenant>`, `attribution:<name>` … */
  name: string;
  version: string;
}

export interface AttributionEntry {
  /** Chain id, alias or token as the source wrote it (XBT, ETH, USDT, bitcoin …); empty: inferred. */
  chain: string;
  address: string;
  category: Category;
  list: ListRef;
  entity?: { id?: string; name?: string };
  program?: string;
}

/** An entry after its address was parsed: what the index stores. */
export interface IndexedEntry extends AttributionEntry {
  listedChain: string;
  normalized: string;
  keys: string[];
  /**
   * Set when the address is not valid on the chain the source named but is a valid address of
   * another chain (OFAC files a TRON address under XBT): indexed on the chain it parses on, flagged.
   */
  declaredChainError?: { reason: AddressErrorReason; message: string };
}

export interface RejectedEntry {
  entry: AttributionEntry;
  reason: AddressErrorReason;
  message: string;
}

function tryParse(address: string, chain?: string): ReturnType<typeof parseAddress> | AddressError {
  try {
    return parseAddress(address, chain);
  } catch (e) {
    if (!(e instanceof AddressError)) throw e;
    return e;
  }
}

export function indexEntry(entry: AttributionEntry): IndexedEntry | RejectedEntry {
  const declared = tryParse(entry.address, entry.chain || undefined);
  if (!(declared instanceof AddressError)) {
    const { address } = declared;
    return { ...entry, listedChain: address.chain, normalized: address.normalized, keys: address.keys };
  }
  const inferred = entry.chain ? tryParse(entry.address) : declared;
  if (inferred instanceof AddressError) return { entry, reason: declared.reason, message: declared.message };
  const { address } = inferred;
  return {
    ...entry,
    listedChain: address.chain,
    normalized: address.normalized,
    keys: address.keys,
    declaredChainError: { reason: declared.reason, message: `${declared.message}; valid on ${inferred.candidates.join(', ')}` },
  };
}

/**
 * Operator attribution import: JSON lines, or CSV with a header naming chain, address, category,
 * entity and (optionally) entity_id and program. Unknown categories are errors with the line number,
 * not silent skips.
 */
export function parseAttributionLines(text: string, list: ListRef): AttributionEntry[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() && !l.startsWith('#'));
  if (!lines.length) return [];
  const json = lines[0]!.trimStart().startsWith('{');
  const header = json ? [] : lines[0]!.split(',').map((h) => h.trim().toLowerCase());
  const out: AttributionEntry[] = [];
  lines.slice(json ? 0 : 1).forEach((line, i) => {
    const n = i + (json ? 1 : 2);
    let rec: Record<string, string | undefined>;
    if (json) rec = JSON.parse(line) as Record<string, string>;
    else {
      const cells = line.split(',').map((c) => c.trim());
      rec = Object.fromEntries(header.map((h, j) => [h, cells[j]]));
    }
    const { chain, address, category } = rec;
    if (!chain || !address || !category) throw new Error(`attribution line ${n}: chain, address and category are required`);
    if (!isCategory(category)) throw new Error(`attribution line ${n}: unknown category "${category}"`);
    const entity =
      rec.entity || rec.entity_id
        ? { ...(rec.entity_id ? { id: rec.entity_id } : {}), ...(rec.entity ? { name: rec.entity } : {}) }
        : undefined;
    out.push({ chain, address, category, list, ...(entity ? { entity } : {}), ...(rec.program ? { program: rec.program } : {}) });
  });
  return out;
}
