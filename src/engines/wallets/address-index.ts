import { indexEntry, type AttributionEntry, type IndexedEntry, type ListRef, type RejectedEntry } from './attribution.js';
import type { ParsedAddress } from './types.js';

// Direct lookups. Keys are the parsed address's normalised forms: lower-case hex for EVM (so an
// EIP-55 spelling and an all-lower spelling meet), lower-case bech32/CashAddr, base58 exactly as
// written (base58 is case-sensitive). Keys carry no chain: the same EVM account or the same legacy
// hash160 on a fork is reported with the chain it was listed on, and the caller sees `listedChain`.

export class AddressIndex {
  private readonly byKey = new Map<string, IndexedEntry[]>();
  private readonly lists = new Map<string, string>();
  readonly rejected: RejectedEntry[] = [];
  /** Entries indexed on another chain than the one their source named (see IndexedEntry). */
  readonly chainMismatches: IndexedEntry[] = [];
  size = 0;

  /** Adds entries; those whose address does not parse are kept in `rejected` with the reason. */
  add(entries: Iterable<AttributionEntry>): { added: number; rejected: RejectedEntry[] } {
    let added = 0;
    const rejected: RejectedEntry[] = [];
    for (const e of entries) {
      this.lists.set(e.list.name, e.list.version);
      const r = indexEntry(e);
      if ('reason' in r) {
        rejected.push(r);
        continue;
      }
      if (r.declaredChainError) this.chainMismatches.push(r);
      for (const k of r.keys) {
        const bucket = this.byKey.get(k);
        if (bucket) bucket.push(r);
        else this.byKey.set(k, [r]);
      }
      added++;
    }
    this.size += added;
    this.rejected.push(...rejected);
    return { added, rejected };
  }

  /** Drops every entry of a list (before loading its new version). */
  removeList(name: string): void {
    const removed = new Set<IndexedEntry>();
    for (const [k, bucket] of this.byKey) {
      const kept = bucket.filter((e) => e.list.name !== name);
      if (kept.length === bucket.length) continue;
      for (const e of bucket) if (e.list.name === name) removed.add(e);
      if (kept.length) this.byKey.set(k, kept);
      else this.byKey.delete(k);
    }
    this.size -= removed.size;
    this.lists.delete(name);
  }

  lookup(address: ParsedAddress): IndexedEntry[] {
    const seen = new Set<IndexedEntry>();
    for (const k of address.keys) for (const e of this.byKey.get(k) ?? []) seen.add(e);
    return [...seen];
  }

  /** Lookup by a single normalised key (the exposure graph's node key). */
  lookupKey(key: string): readonly IndexedEntry[] {
    return this.byKey.get(key) ?? [];
  }

  /** Every lookup key a list contributes: diff two versions' sets to re-screen only affected monitors. */
  keysOf(listName: string): Set<string> {
    const out = new Set<string>();
    for (const [k, bucket] of this.byKey) if (bucket.some((e) => e.list.name === listName)) out.add(k);
    return out;
  }

  listVersions(): Record<string, string> {
    return Object.fromEntries(this.lists);
  }
}

export type { ListRef };
