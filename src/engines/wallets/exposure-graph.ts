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

/** What a walk reads: the CSR arrays and value totals of the first `nodes` nodes, as of the last freeze. */
interface View {
  nodes: number;
  edges: number;
  out: Csr;
  in: Csr;
  inTotal: readonly bigint[];
  outTotal: readonly bigint[];
}

/** Edges processed between two pauses of `freezeInSteps`. */
const FREEZE_STEP = 1 << 16;

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
  private readonly inSum: bigint[] = [];
  private readonly outSum: bigint[] = [];
  private view?: View;
  /**
   * When true (the default), a walk after `add` rebuilds the view first. A loader that adds rows in
   * steps while walks are served sets it false: walks then read the last frozen view (a consistent
   * graph as of that freeze) until the loader calls `freeze` or `freezeInSteps`.
   */
  autoFreeze = true;
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
      this.inSum.push(0n);
      this.outSum.push(0n);
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
    this.outSum[s]! += v;
    this.inSum[d]! += v;
    return true;
  }

  /** Builds one direction's CSR over the first `edges` edges, yielding every FREEZE_STEP edges. */
  private *build(from: number[], to: number[], totals: readonly bigint[], edges: number): Generator<void, Csr> {
    const n = totals.length;
    const offsets = new Int32Array(n + 1);
    for (let e = 0; e < edges; e++) offsets[from[e]! + 1]!++;
    for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
    yield;
    const fill = offsets.slice(0, n);
    const peers = new Int32Array(edges);
    const fracs = new Float64Array(edges);
    const totalNum = new Float64Array(n);
    for (let i = 0; i < n; i++) totalNum[i] = Number(totals[i]!);
    for (let e = 0; e < edges; e++) {
      const f = from[e]!;
      const at = fill[f]!++;
      peers[at] = to[e]!;
      fracs[at] = Number(this.amt[e]!) / totalNum[f]!;
      if ((e & (FREEZE_STEP - 1)) === FREEZE_STEP - 1) yield;
    }
    return { offsets, peers, fracs };
  }

  /** The view over every edge added so far, built in steps (each `yield` is a point where the caller may pause). */
  private *freezeSteps(): Generator<void, void> {
    if (this.view && this.view.edges === this.src.length && this.view.nodes === this.nodeAddr.length) return;
    // Nodes and edges are append-only: the first `edges` edges only touch the first `nodes` nodes, and
    // the totals copied here are theirs, so adds made while this runs are left for the next freeze.
    const nodes = this.nodeAddr.length;
    const edges = this.src.length;
    const inTotal = this.inSum.slice(0, nodes);
    const outTotal = this.outSum.slice(0, nodes);
    const out = yield* this.build(this.src, this.dst, outTotal, edges);
    const inc = yield* this.build(this.dst, this.src, inTotal, edges);
    this.view = { nodes, edges, out, in: inc, inTotal, outTotal };
  }

  /** Builds the view at once; called lazily by a walk (see autoFreeze), explicitly by loaders that want the cost up front. */
  freeze(): void {
    const steps = this.freezeSteps();
    while (!steps.next().done);
  }

  /**
   * Builds the view in steps of FREEZE_STEP edges, awaiting `pause` between them (a server passes a
   * setImmediate promise so a million-edge build never holds its event loop for long).
   */
  async freezeInSteps(pause: () => Promise<void>): Promise<void> {
    const steps = this.freezeSteps();
    while (!steps.next().done) await pause();
  }

  private current(): View {
    if (!this.view || (this.autoFreeze && (this.view.edges !== this.src.length || this.view.nodes !== this.nodeAddr.length))) this.freeze();
    return this.view!;
  }

  /** Total value received (`received`) or sent (`sent`) by a node, as of the view. */
  total(id: number, direction: 'sent' | 'received'): bigint {
    const v = this.current();
    return (direction === 'received' ? v.inTotal[id] : v.outTotal[id]) ?? 0n;
  }

  /** The nodes of an address (one per chain and asset) in the view. */
  nodesOf(addrKey: string): GraphNode[] {
    const nodes = this.current().nodes;
    const out: GraphNode[] = [];
    for (const id of this.byAddr.get(addrKey) ?? []) if (id < nodes) out.push({ id, unit: this.nodeUnit[id]! });
    return out;
  }

  addrOf(id: number): string {
    return this.nodeAddr[id]!;
  }

  /** Neighbours of `id` against the direction of funds (`received`: payers) or with it (`sent`: payees). */
  neighbours(id: number, direction: 'sent' | 'received'): { peers: Int32Array; fracs: Float64Array; start: number; end: number } {
    const v = this.current();
    const c = direction === 'sent' ? v.out : v.in;
    if (id >= v.nodes) return { peers: c.peers, fracs: c.fracs, start: 0, end: 0 };
    return { peers: c.peers, fracs: c.fracs, start: c.offsets[id]!, end: c.offsets[id + 1]! };
  }
}
