import { parseAmount } from './amounts.js';
import { parseAddress } from './parse.js';

// The address graph over known transfers, one sub-graph per (chain, asset) so values of different
// assets are never added. Built append-only, then frozen into CSR arrays (offsets + neighbour ids +
// the edge's fraction of the node's total) so a two-hop walk over a million edges touches only the
// neighbourhood. Value sums are BigInt; the per-edge fractions are ratios, hence floats.

export interface GraphNode {
  id: number;
  unit: string;
}

interface Csr {
  offsets: Int32Array;
  peers: Int32Array;
  fracs: Float64Array;
}

export class TransferGraph {
  /** unit → address key → node id (nested maps avoid building a composite string per transfer). */
  private readonly ids = new Map<string, Map<string, number>>();
  private readonly units = new Map<string, string>();
  private readonly nodeAddr: string[] = [];
  private readonly nodeUnit: string[] = [];
  private readonly byAddr = new Map<string, number[]>();
  private readonly keyCache = new Map<string, Map<string, string>>();
  private src: number[] = [];
  private dst: number[] = [];
  private amt: bigint[] = [];
  readonly inTotal: bigint[] = [];
  readonly outTotal: bigint[] = [];
  private outCsr?: Csr;
  private inCsr?: Csr;
  readonly skipped: Array<{ transfer: { from: string; to: string }; reason: string }> = [];

  get nodeCount(): number {
    return this.nodeAddr.length;
  }
  get edgeCount(): number {
    return this.src.length;
  }

  /** The lookup key of an address on a chain (same normalisation as the address index). */
  keyOf(chain: string, address: string): string {
    let cache = this.keyCache.get(chain);
    if (!cache) this.keyCache.set(chain, (cache = new Map()));
    let k = cache.get(address);
    if (k === undefined) {
      k = parseAddress(address, chain).address.keys[0]!;
      cache.set(address, k);
    }
    return k;
  }

  private node(unit: string, addrKey: string): number {
    let ids = this.ids.get(unit);
    if (!ids) this.ids.set(unit, (ids = new Map()));
    let id = ids.get(addrKey);
    if (id === undefined) {
      id = this.nodeAddr.length;
      ids.set(addrKey, id);
      this.nodeAddr.push(addrKey);
      this.nodeUnit.push(unit);
      this.inTotal.push(0n);
      this.outTotal.push(0n);
      const list = this.byAddr.get(addrKey);
      if (list) list.push(id);
      else this.byAddr.set(addrKey, [id]);
    }
    return id;
  }

  /** Adds a transfer; one whose address or amount does not parse is recorded in `skipped`. */
  add(t: { chain: string; asset?: string; from: string; to: string; amount: string }): boolean {
    let a: string, b: string, v: bigint;
    try {
      a = this.keyOf(t.chain, t.from);
      b = this.keyOf(t.chain, t.to);
      v = parseAmount(t.amount);
    } catch (e) {
      this.skipped.push({ transfer: { from: t.from, to: t.to }, reason: (e as Error).message });
      return false;
    }
    if (a === b || v === 0n) return false;
    const unitKey = `${t.chain}/${t.asset ?? ''}`;
    let unit = this.units.get(unitKey);
    if (unit === undefined) this.units.set(unitKey, (unit = `${t.chain.toLowerCase()}/${(t.asset ?? 'native').toUpperCase()}`));
    const s = this.node(unit, a);
    const d = this.node(unit, b);
    this.src.push(s);
    this.dst.push(d);
    this.amt.push(v);
    this.outTotal[s]! += v;
    this.inTotal[d]! += v;
    this.outCsr = this.inCsr = undefined;
    return true;
  }

  private build(from: number[], to: number[], totals: bigint[]): Csr {
    const n = this.nodeAddr.length;
    const offsets = new Int32Array(n + 1);
    for (const f of from) offsets[f + 1]!++;
    for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
    const fill = offsets.slice(0, n);
    const peers = new Int32Array(from.length);
    const fracs = new Float64Array(from.length);
    const totalNum = totals.map(Number);
    for (let e = 0; e < from.length; e++) {
      const f = from[e]!;
      const at = fill[f]!++;
      peers[at] = to[e]!;
      fracs[at] = Number(this.amt[e]!) / totalNum[f]!;
    }
    return { offsets, peers, fracs };
  }

  /** Builds the CSR views; called lazily by the walk, explicitly by loaders that want the cost up front. */
  freeze(): void {
    this.outCsr ??= this.build(this.src, this.dst, this.outTotal);
    this.inCsr ??= this.build(this.dst, this.src, this.inTotal);
  }

  nodesOf(addrKey: string): GraphNode[] {
    return (this.byAddr.get(addrKey) ?? []).map((id) => ({ id, unit: this.nodeUnit[id]! }));
  }

  addrOf(id: number): string {
    return this.nodeAddr[id]!;
  }

  /** Neighbours of `id` against the direction of funds (`received`: payers) or with it (`sent`: payees). */
  neighbours(id: number, direction: 'sent' | 'received'): { peers: Int32Array; fracs: Float64Array; start: number; end: number } {
    this.freeze();
    const c = direction === 'sent' ? this.outCsr! : this.inCsr!;
    return { peers: c.peers, fracs: c.fracs, start: c.offsets[id]!, end: c.offsets[id + 1]! };
  }
}
