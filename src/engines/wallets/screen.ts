import type { AddressIndex } from './address-index.js';
import type { Category, IndexedEntry } from './attribution.js';
import { computeExposure, type Direction } from './exposure.js';
import type { TransferGraph } from './exposure-graph.js';
import { parseAddress } from './parse.js';
import { DEFAULT_POLICY, LEVELS, levelFor, scoreFor, type PolicyRow, type RiskLevel } from './policy.js';
import type { AddressKind, ChecksumState } from './types.js';

// screenWallet: parse → direct lookups in every index given (global lists, the tenant's block list,
// operator attributions) → indirect exposure over the known-transfer graph → policy → one result.
// An invalid address throws AddressError (its `reason` is the API's field error); a hit is data.

export interface EntrySource {
  list: string;
  version: string;
  entityId?: string;
  entityName?: string;
  program?: string;
  listedChain: string;
  address: string;
  /** The list named another chain on which the address is invalid (see IndexedEntry.declaredChainError). */
  note?: string;
}

export interface CategoryFinding {
  category: Category;
  exposure: 'direct' | 'indirect';
  direction: Direction | 'both';
  share: number;
  hops: number;
  value?: string;
  unit?: string;
  /** Level from the policy table; undefined when no row applies. */
  level?: RiskLevel;
  sources: EntrySource[];
}

export interface WalletScreenResult {
  input: string;
  chain: string;
  candidateChains: string[];
  kind: AddressKind;
  normalizedAddress: string;
  valid: true;
  checksum: ChecksumState;
  risk: { score: number; level: RiskLevel; reasons: string[] };
  categories: CategoryFinding[];
  listVersions: Record<string, string>;
}

export interface ScreenOptions {
  indexes: AddressIndex | readonly AddressIndex[];
  graph?: TransferGraph;
  policy?: readonly PolicyRow[];
  /** Hops for indirect exposure (default 2; 0 disables). */
  hops?: number;
}

function source(e: IndexedEntry): EntrySource {
  return {
    list: e.list.name,
    version: e.list.version,
    listedChain: e.listedChain,
    address: e.normalized,
    ...(e.entity?.id ? { entityId: e.entity.id } : {}),
    ...(e.entity?.name ? { entityName: e.entity.name } : {}),
    ...(e.program ? { program: e.program } : {}),
    ...(e.declaredChainError ? { note: `listed as ${e.chain}: ${e.declaredChainError.message}` } : {}),
  };
}

export function screenWallet(input: { address: string; chain?: string }, options: ScreenOptions): WalletScreenResult {
  const { address: parsed, candidates } = parseAddress(input.address, input.chain);
  const indexes = Array.isArray(options.indexes) ? options.indexes : [options.indexes as AddressIndex];
  const policy = options.policy ?? DEFAULT_POLICY;
  const categories: CategoryFinding[] = [];

  const direct = new Map<Category, IndexedEntry[]>();
  for (const ix of indexes) {
    for (const e of ix.lookup(parsed)) direct.set(e.category, [...(direct.get(e.category) ?? []), e]);
  }
  for (const [category, entries] of direct) {
    categories.push({
      category,
      exposure: 'direct',
      direction: 'both',
      share: 1,
      hops: 0,
      level: levelFor(policy, category, 'direct', 1),
      sources: entries.map(source),
    });
  }

  const hops = options.hops ?? 2;
  if (options.graph && hops > 0) {
    const lookup = (key: string): IndexedEntry[] => indexes.flatMap((ix) => ix.lookupKey(key));
    for (const f of computeExposure(options.graph, parsed.keys[0]!, lookup, hops)) {
      categories.push({
        category: f.category,
        exposure: 'indirect',
        direction: f.direction,
        share: f.share,
        hops: f.hops,
        value: f.value,
        unit: f.unit,
        level: levelFor(policy, f.category, 'indirect', f.share),
        sources: f.sources.flatMap((s) => s.entries.filter((e) => e.category === f.category).map(source)),
      });
    }
  }

  let level: RiskLevel = 'low';
  let score = 0;
  const reasons: string[] = [];
  for (const c of categories) {
    if (!c.level) continue;
    const s = scoreFor(c.level, c.share);
    if (s > score) score = s;
    if (LEVELS.indexOf(c.level) > LEVELS.indexOf(level)) level = c.level;
    reasons.push(`wallet_${c.exposure}:${c.category}`);
  }
  categories.sort((a, b) => LEVELS.indexOf(b.level ?? 'low') - LEVELS.indexOf(a.level ?? 'low') || b.share - a.share);

  return {
    input: input.address,
    chain: parsed.chain,
    candidateChains: candidates,
    kind: parsed.kind,
    normalizedAddress: parsed.normalized,
    valid: true,
    checksum: parsed.checksum,
    risk: { score, level, reasons: [...new Set(reasons)] },
    categories,
    listVersions: Object.assign({}, ...indexes.map((ix) => ix.listVersions())) as Record<string, string>,
  };
}

/**
 * What a monitor compares between two screens: the level and the set of category × exposure ×
 * direction findings, not shares or values, so re-screening emits an event only on a real change.
 */
export function riskFingerprint(r: WalletScreenResult): string {
  const cats = [...new Set(r.categories.map((c) => `${c.category}:${c.exposure}:${c.direction}`))].sort();
  return `${r.risk.level}|${cats.join(',')}`;
}
