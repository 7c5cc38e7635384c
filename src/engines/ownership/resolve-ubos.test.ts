import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  add,
  addEdge,
  emptyGraph,
  multiply,
  resolveUbos,
  sanctionsExposure,
  type Interest,
  type OwnershipGraph,
  type ShareRange,
} from './index.js';

const r = (min: number, max = min, minExclusive = false, maxExclusive = false): ShareRange => ({ min, max, minExclusive, maxExclusive });
const sh = (share?: ShareRange, extra: Partial<Interest> = {}): Interest => ({
  type: 'shareholding',
  directOrIndirect: 'direct',
  ...(share ? { share } : {}),
  ...extra,
});

function graph(people: string[], edges: [string, string, Interest[]][]): OwnershipGraph {
  const g = emptyGraph();
  for (const [from, to] of edges)
    for (const id of [from, to])
      g.nodes.set(id, {
        id,
        kind: people.includes(id) ? 'person' : 'entity',
        type: people.includes(id) ? 'knownPerson' : 'registeredEntity',
      });
  edges.forEach(([from, to, interests], i) => addEdge(g, { id: `e${i}`, from, to, interests, isComponent: false, componentIds: [] }));
  return g;
}

test('range arithmetic: products along paths, capped sums, exclusive bounds carried', () => {
  assert.deepEqual(multiply(r(25, 50, true, false), r(60)), r(15, 30, true, false));
  assert.deepEqual(add(r(60, 80, false, true), r(30, 40)), r(90, 100, false, false));
  assert.deepEqual(add(r(10, 20, true, true), r(5)), r(15, 25, true, true));
  assert.deepEqual(multiply(r(0, 100), r(50)), r(0, 50));
});

test('a Companies House band (25, 50] qualifies at 25 %, an exact 25 % does not', () => {
  const g = graph(
    ['p', 'q'],
    [
      ['p', 's', [sh(r(25, 50, true))]],
      ['q', 's', [sh(r(25))]],
    ],
  );
  const res = resolveUbos(g, 's', { asOf: '2024-01-01' });
  assert.deepEqual(res.owners.map((o) => [o.personId, o.qualifies]).sort(), [
    ['p', true],
    ['q', false],
  ]);
});

test('indirect holdings multiply and sum over paths; control qualifies regardless of share', () => {
  const g = graph(
    ['p', 'c'],
    [
      ['a', 's', [sh(r(40))]],
      ['b', 's', [sh(r(20))]],
      ['p', 'a', [sh(r(50))]],
      ['p', 'b', [sh(r(100))]],
      ['c', 's', [{ type: 'appointmentOfBoard', directOrIndirect: 'direct' }]],
    ],
  );
  const res = resolveUbos(g, 's', { asOf: '2024-01-01' });
  const p = res.owners.find((o) => o.personId === 'p')!;
  assert.deepEqual([p.ownership, p.paths.length, p.figureBasis, p.qualifies], [r(40), 2, 'computed', true]);
  const c = res.owners.find((o) => o.personId === 'c')!;
  assert.deepEqual([c.ownership.max, c.reasons], [0, ['control']]);
  assert.deepEqual(
    resolveUbos(g, 's', { asOf: '2024-01-01', basis: 'ownership' }).owners.find((o) => o.personId === 'c')?.qualifies,
    false,
  );
});

test('a declared indirect relationship wins over the computed figure', () => {
  const g = graph(
    ['p'],
    [
      ['a', 's', [sh(r(60))]],
      ['p', 'a', [sh(r(50))]],
      ['p', 's', [sh(r(35), { directOrIndirect: 'indirect' })]],
    ],
  );
  const p = resolveUbos(g, 's', { asOf: '2024-01-01' }).owners[0]!;
  assert.deepEqual([p.ownership, p.computedOwnership, p.figureBasis], [r(35), r(30), 'declared']);
});

test('cycles are reported and not looped on; the depth limit is reported', () => {
  const g = graph(
    ['p'],
    [
      ['a', 's', [sh(r(60))]],
      ['b', 'a', [sh(r(50))]],
      ['a', 'b', [sh(r(10))]],
      ['p', 'b', [sh(r(100))]],
    ],
  );
  const res = resolveUbos(g, 's', { asOf: '2024-01-01' });
  assert.deepEqual(res.cycles, [['a', 'b', 'a']]);
  assert.deepEqual(res.owners[0]?.ownership, r(30));
  const deep = resolveUbos(g, 's', { asOf: '2024-01-01', maxDepth: 2 });
  assert.deepEqual([deep.owners.length, deep.unresolved.map((u) => [u.nodeId, u.reason])], [0, [['b', 'depth_limit']]]);
});

test('as_of filters interests by start and end dates', () => {
  const g = graph(
    ['p', 'q'],
    [
      ['p', 's', [sh(r(60), { endDate: '2020-01-01' })]],
      ['q', 's', [sh(r(60), { startDate: '2020-01-01' })]],
    ],
  );
  assert.deepEqual(
    resolveUbos(g, 's', { asOf: '2019-06-01' })
      .owners.filter((o) => o.qualifies)
      .map((o) => o.personId),
    ['p'],
  );
  assert.deepEqual(
    resolveUbos(g, 's', { asOf: '2021-06-01' })
      .owners.filter((o) => o.qualifies)
      .map((o) => o.personId),
    ['q'],
  );
});

test('senior managing officials are the fallback when nobody qualifies', () => {
  const g = graph(
    ['p', 'd'],
    [
      ['p', 's', [sh(r(10))]],
      ['d', 's', [{ type: 'seniorManagingOfficial', directOrIndirect: 'direct' }]],
    ],
  );
  assert.deepEqual(resolveUbos(g, 's', { asOf: '2024-01-01' }).fallbackSeniorManagingOfficials, ['d']);
  const g2 = graph(
    ['p', 'd'],
    [
      ['p', 's', [sh(r(30))]],
      ['d', 's', [{ type: 'seniorManagingOfficial', directOrIndirect: 'direct' }]],
    ],
  );
  assert.deepEqual(resolveUbos(g2, 's', { asOf: '2024-01-01' }).fallbackSeniorManagingOfficials, []);
});

test('OFAC 50 % rule: met, possible, not met; control flagged separately', () => {
  const g = graph(
    ['x', 'y'],
    [
      ['x', 's', [sh(r(30))]],
      ['y', 's', [sh(r(20))]],
      ['z', 's', [sh(r(25, 50, true))]],
      ['w', 's', [{ type: 'otherInfluenceOrControl', directOrIndirect: 'direct' }]],
    ],
  );
  const at = { asOf: '2024-01-01' };
  const met = sanctionsExposure(g, 's', new Set(['x', 'y']), at);
  assert.deepEqual([met.listedOwnership, met.ofac50PercentRule, met.controlledByListed], [r(50), 'met', false]);
  assert.equal(sanctionsExposure(g, 's', new Set(['y', 'z']), at).ofac50PercentRule, 'possible');
  assert.equal(sanctionsExposure(g, 's', new Set(['x']), at).ofac50PercentRule, 'not_met');
  const ctl = sanctionsExposure(g, 's', new Set(['w']), at);
  assert.deepEqual([ctl.ofac50PercentRule, ctl.controlledByListed], ['not_met', true]);
});

test('a same-entity link carries shares and control across unchanged, is not a level of ownership, and is never a declared owner', () => {
  // B (one register, no owners there) is the same legal entity as B2 (another register), whose owner is P.
  const g = graph(['P'], [['B', 'A', [sh(r(60))]]]);
  g.nodes.set('B2', { id: 'B2', kind: 'entity', type: 'registeredEntity' });
  g.nodes.set('P', { id: 'P', kind: 'person', type: 'knownPerson' });
  addEdge(g, { id: 'link', from: 'B2', to: 'B', interests: [], isComponent: false, componentIds: [], sameEntity: true });
  addEdge(g, { id: 'e9', from: 'P', to: 'B2', interests: [sh(r(50))], isComponent: false, componentIds: [] });
  const res = resolveUbos(g, 'A', { asOf: '2024-01-01', maxDepth: 2 });
  assert.deepEqual(
    res.owners.map((o) => [o.personId, o.ownership, o.paths[0]?.nodeIds, o.paths[0]?.edgeIds]),
    [['P', r(30), ['P', 'B2', 'B', 'A'], ['e9', 'link', 'e0']]],
  );
  assert.deepEqual(res.unresolved, []);
  // Two ownership levels: the link does not count towards max_depth, but the levels do.
  assert.deepEqual(
    resolveUbos(g, 'A', { asOf: '2024-01-01', maxDepth: 1 }).unresolved.map((u) => [u.nodeId, u.reason]),
    [['B', 'depth_limit']],
  );
  // A link straight into the subject is not an owner of it.
  const h = graph(['P'], [['P', 'A2', [sh(r(80))]]]);
  h.nodes.set('A', { id: 'A', kind: 'entity' });
  addEdge(h, { id: 'link', from: 'A2', to: 'A', interests: [], isComponent: false, componentIds: [], sameEntity: true });
  const r2 = resolveUbos(h, 'A', { asOf: '2024-01-01' });
  assert.deepEqual([r2.owners.map((o) => [o.personId, o.ownership]), r2.unresolved], [[['P', r(80)]], []]);
});
