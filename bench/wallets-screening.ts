// Wallet screening benchmark: direct screening with the OFAC lists + 100,000 synthetic attribution
// entries loaded, and two-hop exposure over 1,000,000 synthetic transfers.
// Run: node --import tsx bench/wallets-screening.ts   (reads ../shared/data/crypto when present)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { bech32 } from '@scure/base';
import {
  AddressIndex,
  CATEGORIES,
  TransferGraph,
  computeExposure,
  screenWallet,
  type AttributionEntry,
  type Category,
} from '../src/engines/wallets/index.js';
import { ofacCryptoFromAddressFiles } from '../src/providers/lists/ofac-crypto.js';
import { percentile } from './lib/stats.js';

let seed = 42;
// mulberry32: a seeded generator so runs are comparable.
function rnd(): number {
  let t = (seed = (seed + 0x6d2b79f5) >>> 0);
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
}
const evm = (n: number): string => `0x${n.toString(16).padStart(8, '0')}${'ab'.repeat(16)}`;
const bytes = (): Uint8Array => Uint8Array.from({ length: 20 }, () => Math.floor(rnd() * 256));
const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(0)} MB`;
function stats(label: string, xs: number[]): void {
  console.log(
    `${label}: n=${xs.length} p50=${percentile(xs, 50).toFixed(3)} ms p99=${percentile(xs, 99).toFixed(3)} ms max=${Math.max(...xs).toFixed(3)} ms`,
  );
}

const dir = new URL('../../shared/data/crypto/ofac_sanctioned_addresses/', import.meta.url);
const index = new AddressIndex();
let ofac: AttributionEntry[] = [];
if (existsSync(dir)) {
  const files = Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.txt'))
      .map((f) => [f, readFileSync(new URL(f, dir), 'utf8')]),
  );
  ofac = ofacCryptoFromAddressFiles(files, '2024-09-27');
} else console.log('note: ../shared/data/crypto absent, OFAC part skipped');

// 100,000 synthetic attribution entries: 60 % EVM (of which 2,000 are nodes of the transfer graph), 40 % bech32 Bitcoin.
const NODES = 200_000;
const synthetic: AttributionEntry[] = [];
const list = { name: 'attribution:synthetic', version: 'bench' };
const cats = CATEGORIES.filter((c) => c !== 'sanctions');
for (let i = 0; i < 100_000; i++) {
  const category = cats[i % cats.length] as Category;
  const address =
    i < 2_000 ? evm(Math.floor(rnd() * NODES)) : i < 60_000 ? evm(NODES + i) : bech32.encode('bc', [0, ...bech32.toWords(bytes())]);
  synthetic.push({ chain: i < 60_000 ? 'ETH' : 'XBT', address, category, list, entity: { name: `entity ${i}` } });
}
let t0 = performance.now();
index.add(ofac);
index.add(synthetic);
console.log(
  `index: ${ofac.length} OFAC addresses (0xB10C per-chain files, 2024-09-27) + ${synthetic.length} synthetic entries loaded in ${(performance.now() - t0).toFixed(0)} ms; ${index.rejected.length} rejected`,
);

// Direct screening: a third OFAC hits, a third synthetic hits, a third unknown addresses.
const queries: Array<{ address: string; chain?: string }> = [];
for (let i = 0; i < 3_000; i++) {
  if (i % 3 === 0 && ofac.length) {
    const e = ofac[Math.floor(rnd() * ofac.length)]!;
    if (!e.address.startsWith('5be5')) queries.push({ address: e.address });
  } else if (i % 3 === 1) queries.push({ address: synthetic[Math.floor(rnd() * synthetic.length)]!.address });
  else queries.push({ address: bech32.encode('bc', [0, ...bech32.toWords(bytes())]), chain: 'bitcoin' });
}
for (const q of queries.slice(0, 300)) screenWallet(q, { indexes: index });
const direct: number[] = [];
for (const q of queries) {
  t0 = performance.now();
  screenWallet(q, { indexes: index });
  direct.push(performance.now() - t0);
}
stats('screenWallet, direct only (no graph)', direct);

// 1,000,000 transfers over 200,000 EVM addresses; skewed so a few hundred addresses are hubs.
if (global.gc) global.gc();
const mem0 = process.memoryUsage();
const graph = new TransferGraph();
t0 = performance.now();
for (let i = 0; i < 1_000_000; i++) {
  const a = Math.floor(NODES * rnd() ** 2);
  let b = Math.floor(NODES * rnd());
  if (b === a) b = (b + 1) % NODES;
  graph.add({ chain: 'ethereum', from: evm(a), to: evm(b), amount: `${Math.floor(rnd() * 10_000)}.${Math.floor(rnd() * 1e6)}` });
}
const addMs = performance.now() - t0;
t0 = performance.now();
graph.freeze();
const freezeMs = performance.now() - t0;
if (global.gc) global.gc();
const mem1 = process.memoryUsage();
console.log(
  `graph: ${graph.edgeCount} transfers, ${graph.nodeCount} nodes; add ${addMs.toFixed(0)} ms, freeze ${freezeMs.toFixed(0)} ms; heap +${mb(mem1.heapUsed - mem0.heapUsed)}, rss ${mb(mem1.rss)}${global.gc ? '' : ' (run with --expose-gc for steadier memory figures)'}`,
);

const lookup = (k: string) => index.lookupKey(k);
const hop2: number[] = [];
const hubs: number[] = [];
let withExposure = 0;
for (let i = 0; i < 2_200; i++) {
  const n = i < 200 ? i : Math.floor(rnd() * NODES);
  t0 = performance.now();
  const f = computeExposure(graph, evm(n), lookup, 2);
  const ms = performance.now() - t0;
  if (i >= 200) {
    hop2.push(ms);
    if (f.length) withExposure++;
  } else if (i >= 100) hubs.push(ms);
}
stats('2-hop exposure, random addresses', hop2);
stats('2-hop exposure, hub addresses (the 100 busiest after warm-up)', hubs);
console.log(`addresses with some indirect exposure: ${withExposure} of ${hop2.length}`);
const full: number[] = [];
for (let i = 0; i < 1_000; i++) {
  const q = { address: evm(Math.floor(rnd() * NODES)) };
  t0 = performance.now();
  screenWallet(q, { indexes: index, graph });
  full.push(performance.now() - t0);
}
stats('screenWallet with the 1M-transfer graph (direct + 2 hops)', full);
