import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AddressIndex } from './address-index.js';
import type { Category } from './attribution.js';
import { computeExposure, type ExposureFinding } from './exposure.js';
import { TransferGraph } from './exposure-graph.js';

// Hand-made graphs on Ethereum; addresses are numbered 0x…01, 0x…02 …
const A = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;
const X = 1,
  Y = 2,
  Z = 3,
  MID = 4,
  CLEAN = 5,
  SANC = 10,
  MIX = 11;

function setup(
  edges: Array<[number, number, string, string?]>,
  attributed: Array<[number, Category]>,
): { graph: TransferGraph; index: AddressIndex } {
  const graph = new TransferGraph();
  for (const [f, t, amount, asset] of edges) graph.add({ chain: 'ethereum', from: A(f), to: A(t), amount, ...(asset ? { asset } : {}) });
  const index = new AddressIndex();
  index.add(
    attributed.map(([n, category]) => ({
      chain: 'ETH',
      address: A(n),
      category,
      list: { name: 'test', version: '1' },
      entity: { name: `e${n}` },
    })),
  );
  return { graph, index };
}

function find(fs: ExposureFinding[], category: Category, direction: 'sent' | 'received'): ExposureFinding | undefined {
  return fs.find((f) => f.category === category && f.direction === direction);
}

function run(g: ReturnType<typeof setup>, n = X, hops = 2): ExposureFinding[] {
  return computeExposure(g.graph, A(n), (k) => g.index.lookupKey(k), hops);
}

test('one hop: share of received value, value as exact decimal', () => {
  const g = setup(
    [
      [SANC, X, '10'],
      [Y, X, '30'],
    ],
    [[SANC, 'sanctions']],
  );
  const f = find(run(g), 'sanctions', 'received')!;
  assert.equal(f.share, 0.25);
  assert.equal(f.hops, 1);
  assert.equal(f.value, '10');
  assert.equal(f.sources[0]!.entries[0]!.entity?.name, `e${SANC}`);
  assert.equal(find(run(g), 'sanctions', 'sent'), undefined);
});

test('two hops: proportional propagation, and nothing at one hop', () => {
  const g = setup(
    [
      [SANC, MID, '50'],
      [CLEAN, MID, '50'],
      [MID, X, '20'],
      [Z, X, '20'],
    ],
    [[SANC, 'sanctions']],
  );
  const f = find(run(g), 'sanctions', 'received')!;
  assert.equal(f.share, 0.25);
  assert.equal(f.hops, 2);
  assert.equal(f.value, '10');
  assert.equal(run(g, X, 1).length, 0);
});

test('an attributed counterparty is an end point: value is not traced through it', () => {
  const g = setup(
    [
      [SANC, MIX, '100'],
      [MIX, X, '10'],
    ],
    [
      [SANC, 'sanctions'],
      [MIX, 'mixer'],
    ],
  );
  const fs = run(g);
  assert.equal(find(fs, 'mixer', 'received')!.share, 1);
  assert.equal(find(fs, 'sanctions', 'received'), undefined);
});

test('direction: sent exposure follows payees and outflow', () => {
  const g = setup(
    [
      [X, SANC, '5'],
      [X, Y, '15'],
      [Z, X, '100'],
    ],
    [[SANC, 'sanctions']],
  );
  const fs = run(g);
  assert.equal(find(fs, 'sanctions', 'sent')!.share, 0.25);
  assert.equal(find(fs, 'sanctions', 'sent')!.value, '5');
  assert.equal(find(fs, 'sanctions', 'received'), undefined);
});

test('cycles: the screened address is skipped, other cycles are cut at N hops and shares stay ≤ 1', () => {
  const self = setup(
    [
      [X, Y, '10'],
      [Y, X, '10'],
      [SANC, Y, '10'],
    ],
    [[SANC, 'sanctions']],
  );
  assert.equal(find(run(self, X, 3), 'sanctions', 'received')!.share, 0.5);
  // Y ⇄ MID loop feeding X: hop 2 reaches SANC via MID (0.5); hop 4 goes round the loop once more (+0.25).
  const loop = setup(
    [
      [MID, Y, '10'],
      [Y, MID, '10'],
      [SANC, MID, '10'],
      [MID, X, '10'],
    ],
    [[SANC, 'sanctions']],
  );
  assert.equal(find(run(loop, X, 2), 'sanctions', 'received')!.share, 0.5);
  assert.equal(find(run(loop, X, 4), 'sanctions', 'received')!.share, 0.75);
  assert.ok(find(run(loop, X, 40), 'sanctions', 'received')!.share <= 1);
});

test('assets are separate sub-graphs; decimal sums do not drift', () => {
  const g = setup(
    [
      [SANC, X, '0.1', 'USDT'],
      [SANC, X, '0.2', 'USDT'],
      [Y, X, '1000'],
    ],
    [[SANC, 'sanctions']],
  );
  const f = find(run(g), 'sanctions', 'received')!;
  assert.equal(f.unit, 'ethereum/USDT');
  assert.equal(f.share, 1);
  assert.equal(f.value, '0.3');
  assert.equal(run(g).filter((x) => x.unit === 'ethereum/NATIVE').length, 0);
});

test('EVM spellings meet in the graph; bad transfers are recorded, not dropped silently', () => {
  const graph = new TransferGraph();
  graph.add({ chain: 'ethereum', from: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', to: A(X), amount: '1' });
  graph.add({ chain: 'ethereum', from: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', to: A(X), amount: '1' });
  assert.equal(graph.nodeCount, 2);
  assert.equal(graph.add({ chain: 'ethereum', from: '0x12', to: A(X), amount: '1' }), false);
  assert.equal(graph.add({ chain: 'ethereum', from: A(Y), to: A(X), amount: '-1' }), false);
  assert.equal(graph.skipped.length, 2);
});

test('freezeInSteps builds the same view as freeze and pauses between steps of 65,536 edges', async () => {
  const edges = 200_000;
  const build = () => {
    const g = new TransferGraph();
    // A ring of 1,000 addresses with varying amounts: every node sends and receives.
    for (let e = 0; e < edges; e++)
      g.add({ chain: 'ethereum', from: A(1 + (e % 1000)), to: A(1 + ((e * 7 + 3) % 1000)), amount: String(1 + (e % 13)) });
    return g;
  };
  const sync = build();
  sync.freeze();
  const stepped = build();
  let pauses = 0;
  await stepped.freezeInSteps(async () => void pauses++);
  // Per direction: one pause after the offsets, one every 65,536 edges (3 in 200,000).
  assert.equal(pauses, 8);
  for (const n of [1, 2, 500, 1000]) {
    const key = stepped.keyOf('ethereum', A(n));
    const [a] = sync.nodesOf(key);
    const [b] = stepped.nodesOf(key);
    assert.deepEqual(b, a);
    for (const dir of ['sent', 'received'] as const) {
      const x = sync.neighbours(a!.id, dir);
      const y = stepped.neighbours(b!.id, dir);
      assert.deepEqual([...y.peers.subarray(y.start, y.end)], [...x.peers.subarray(x.start, x.end)]);
      assert.deepEqual([...y.fracs.subarray(y.start, y.end)], [...x.fracs.subarray(x.start, x.end)]);
      assert.equal(stepped.total(b!.id, dir), sync.total(a!.id, dir));
    }
  }
  let again = 0;
  await stepped.freezeInSteps(async () => void again++);
  assert.equal(again, 0, 'nothing added since: no rebuild');
});

test('with autoFreeze off, walks read the last frozen view while rows are added, and see them after the next freeze', () => {
  const { graph, index } = setup(
    [
      [SANC, X, '100'],
      [CLEAN, X, '100'],
    ],
    [
      [SANC, 'sanctions'],
      [MIX, 'mixer'],
    ],
  );
  graph.freeze();
  graph.autoFreeze = false;
  const lookup = (k: string) => index.lookupKey(k);
  const before = computeExposure(graph, graph.keyOf('ethereum', A(X)), lookup);
  assert.equal(before.find((f) => f.direction === 'received')!.share, 0.5);
  // A refresh in progress: X receives from a mixer and a new address Y appears.
  graph.add({ chain: 'ethereum', from: A(MIX), to: A(X), amount: '200' });
  graph.add({ chain: 'ethereum', from: A(MIX), to: A(Y), amount: '5' });
  assert.deepEqual(computeExposure(graph, graph.keyOf('ethereum', A(X)), lookup), before, 'the frozen view, not half a refresh');
  assert.deepEqual(graph.nodesOf(graph.keyOf('ethereum', A(Y))), [], 'a node added after the freeze is not in the view');
  graph.freeze();
  const after = computeExposure(graph, graph.keyOf('ethereum', A(X)), lookup);
  assert.deepEqual(
    after
      .filter((f) => f.direction === 'received')
      .map((f) => [f.category, f.share])
      .sort(),
    [
      ['mixer', 0.5],
      ['sanctions', 0.25],
    ],
  );
  assert.equal(graph.nodesOf(graph.keyOf('ethereum', A(Y))).length, 1);
});
