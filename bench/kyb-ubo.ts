// UBO resolution speed on a synthetic group: 10,000 entities, 2,000 persons, owners drawn from entities
// further up the group (1–2 each), 2 % of holdings crossed back (cycles). Seeded, so runs compare.
import { addEdge, emptyGraph, resolveUbos } from '../src/engines/ownership/index.js';
import { percentile } from './lib/stats.js';
import { seeded } from './lib/random.js';

const rand = seeded(42);
const N = 10_000,
  P = 2_000,
  g = emptyGraph();
for (let i = 0; i < N; i++) g.nodes.set(`e${i}`, { id: `e${i}`, kind: 'entity', type: 'registeredEntity' });
for (let i = 0; i < P; i++) g.nodes.set(`p${i}`, { id: `p${i}`, kind: 'person', type: 'knownPerson' });
let k = 0;
const edge = (from: string, to: string, share: number): void =>
  addEdge(g, {
    id: `r${k++}`,
    from,
    to,
    isComponent: false,
    componentIds: [],
    interests: [
      { type: 'shareholding', directOrIndirect: 'direct', share: { min: share, max: share, minExclusive: false, maxExclusive: false } },
    ],
  });
for (let i = 0; i < N; i++) {
  const owners = i > N - 500 ? 0 : 1 + Math.floor(rand() * 2);
  for (let j = 0; j < owners; j++) {
    const o = Math.min(N - 1, i + 1 + Math.floor(rand() * 50));
    edge(`e${o}`, `e${i}`, 30 + Math.floor(rand() * 40));
    if (rand() < 0.02) edge(`e${i}`, `e${o}`, 5); // cross-holding → cycle
  }
  if (rand() < 0.3 || owners === 0) edge(`p${Math.floor(rand() * P)}`, `e${i}`, 10 + Math.floor(rand() * 30));
}
const times: number[] = [];
let cycles = 0,
  owners = 0;
for (let i = 0; i < 2_000; i++) {
  const root = `e${Math.floor(rand() * N)}`;
  const t = performance.now();
  const res = resolveUbos(g, root, { asOf: '2024-01-01', maxDepth: 10 });
  times.push(performance.now() - t);
  cycles += res.cycles.length;
  owners += res.owners.length;
}
console.log(`synthetic group: ${N} entities, ${P} persons, ${g.edges.size} edges; 2000 roots, maxDepth 10`);
console.log(
  `resolveUbos p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms, max ${Math.max(...times).toFixed(1)} ms; cycles reported ${cycles}, owners ${owners}`,
);
