import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seeded, seededInts } from './random.js';

test('a seed gives the same sequence every time, another seed another one', () => {
  const a = seeded(42);
  const b = seeded(42);
  const c = seeded(43);
  const xs = Array.from({ length: 5 }, () => a());
  assert.deepEqual(
    Array.from({ length: 5 }, () => b()),
    xs,
  );
  assert.notDeepEqual(
    Array.from({ length: 5 }, () => c()),
    xs,
  );
});

test('200,000 draws stay in [0, 1) and do not fall into a short cycle (the old LCG repeated within ~14,500)', () => {
  const rnd = seeded(12345);
  const seen = new Set<number>();
  for (let i = 0; i < 200_000; i++) {
    const x = rnd();
    assert.ok(x >= 0 && x < 1, `${x}`);
    seen.add(x);
  }
  assert.ok(seen.size > 199_000, `${seen.size} distinct values`);
});

test('seededInts draws every whole number in [0, n), about equally often', () => {
  const int = seededInts(7);
  const counts = new Array<number>(6).fill(0);
  for (let i = 0; i < 60_000; i++) counts[int(6)]!++;
  for (const c of counts) assert.ok(c > 9_500 && c < 10_500, `${counts.join(' ')}`);
});
