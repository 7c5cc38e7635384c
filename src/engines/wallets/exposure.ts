import { formatAmount, shareOf } from './amounts.js';
import type { Category, IndexedEntry } from './attribution.js';
import type { TransferGraph } from './exposure-graph.js';

// Indirect exposure, defined exactly:
//
//   received share of category C within N hops = the part of the address's total received value
//   that can be traced back to an address attributed to C along paths of at most N transfers,
//   splitting value proportionally at each hop.
//
// Hop 1 weighs each payer by its fraction of the address's inflow. A payer that is attributed
// (to any category) is an end point: its weight counts for each of its categories and is not
// traced further, because funds reaching an attributed service are attributed to it. An
// unattributed payer passes its weight on to *its* payers in proportion to *their* fractions of its
// own inflow, and so on up to N hops. `sent` is the mirror image over payees and outflow.
// Weights at each hop sum to at most 1, so every share is in [0, 1] whatever the cycles: a cycle
// is just another path, cut off at N hops. Paths through the screened address itself are not
// followed (its own money is not exposure). No time ordering is applied: the graph is the set of
// known transfers, not a replay of balances, which over-approximates taint for old inflows.

export type Direction = 'sent' | 'received';

export interface ExposureFinding {
  category: Category;
  direction: Direction;
  /** `${chain}/${asset}` of the sub-graph. */
  unit: string;
  share: number;
  /** share × the address's total value in that direction, decimal string. */
  value: string;
  /** Fewest hops at which the category was reached. */
  hops: number;
  /** Attributed counterparties that contributed most, with their list entries. */
  sources: Array<{ address: string; share: number; hops: number; entries: IndexedEntry[] }>;
}

export type AttributionLookup = (addrKey: string) => readonly IndexedEntry[];

export function computeExposure(
  graph: TransferGraph,
  addrKey: string,
  attributed: AttributionLookup,
  maxHops = 2,
  topSources = 3,
): ExposureFinding[] {
  const out: ExposureFinding[] = [];
  for (const { id: origin, unit } of graph.nodesOf(addrKey)) {
    for (const direction of ['received', 'sent'] as const) {
      const total = graph.total(origin, direction);
      if (total === 0n) continue;
      const acc = new Map<Category, { share: number; hops: number; sources: Map<number, { share: number; hops: number }> }>();
      let frontier = new Map<number, number>([[origin, 1]]);
      for (let hop = 1; hop <= maxHops && frontier.size; hop++) {
        const next = new Map<number, number>();
        for (const [u, w] of frontier) {
          const { peers, fracs, start, end } = graph.neighbours(u, direction);
          for (let e = start; e < end; e++) {
            const v = peers[e]!;
            if (v === origin) continue;
            const share = w * fracs[e]!;
            const entries = attributed(graph.addrOf(v));
            if (entries.length) {
              for (const cat of new Set(entries.map((x) => x.category))) {
                let a = acc.get(cat);
                if (!a) acc.set(cat, (a = { share: 0, hops: hop, sources: new Map() }));
                a.share += share;
                const s = a.sources.get(v);
                if (s) s.share += share;
                else a.sources.set(v, { share, hops: hop });
              }
            } else if (hop < maxHops) {
              next.set(v, (next.get(v) ?? 0) + share);
            }
          }
        }
        frontier = next;
      }
      for (const [category, a] of acc) {
        const share = Math.min(1, a.share);
        const sources = [...a.sources]
          .sort((x, y) => y[1].share - x[1].share)
          .slice(0, topSources)
          .map(([v, s]) => ({ address: graph.addrOf(v), share: s.share, hops: s.hops, entries: [...attributed(graph.addrOf(v))] }));
        out.push({ category, direction, unit, share, value: formatAmount(shareOf(total, share)), hops: a.hops, sources });
      }
    }
  }
  return out;
}
