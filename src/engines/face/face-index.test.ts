import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { FaceIndex } from './face-index.js';

// Deterministic pseudo-random vectors (xorshift) so the test is reproducible.
function vectors(count: number, dims: number, seed: number): Float32Array[] {
  let s = seed >>> 0 || 1;
  const next = (): number => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296 - 0.5;
  };
  // A shared component makes unrelated faces correlate (~0.4), as real embeddings do.
  const common = Float32Array.from({ length: dims }, next);
  return Array.from({ length: count }, () => Float32Array.from({ length: dims }, (_, i) => 0.8 * common[i]! + next()));
}

const near = (v: Float32Array, amount: number, seed: number): Float32Array => {
  const noise = vectors(1, v.length, seed)[0]!;
  return v.map((x, i) => x + amount * noise[i]!);
};

describe('face index', () => {
  test('returns the enrolled identity first, with cosine similarity', () => {
    const index = new FaceIndex(64);
    const vs = vectors(50, 64, 7);
    vs.forEach((v, i) => index.add(`face_${i}`, `subject_${i % 25}`, v));
    const hits = index.search(near(vs[17]!, 0.2, 99), { k: 3 });
    assert.equal(hits[0]!.id, 'face_17');
    assert.ok(hits[0]!.similarity > 0.9 && hits[0]!.similarity <= 1 + 1e-6);
    assert.ok(hits[0]!.similarity >= hits[1]!.similarity);
  });

  test('remove, replace, exclusion and duplicate detection', () => {
    const index = new FaceIndex(32);
    const vs = vectors(10, 32, 3);
    vs.forEach((v, i) => index.add(`f${i}`, `s${i}`, v));
    assert.equal(index.remove('f3'), true);
    assert.equal(index.remove('f3'), false);
    assert.equal(index.size, 9);
    assert.notEqual(index.search(vs[3]!, { k: 1 })[0]!.id, 'f3');
    assert.equal(index.search(vs[9]!, { k: 1 })[0]!.id, 'f9', 'the row moved by swap-remove is still found');
    assert.equal(index.search(vs[5]!, { k: 1, excludeSubjectId: 's5' })[0]!.id === 'f5', false);
    const dup = index.findDuplicates('s_new', near(vs[5]!, 0.05, 4), 0.9);
    assert.equal(dup.hits[0]!.subjectId, 's5');
    assert.equal(dup.signal.passed, false);
    assert.equal(index.findDuplicates('s5', vs[5]!, 0.99).signal.passed, true, 'own faces are not duplicates');
  });

  // The coarse stage may reorder the tail of unrelated faces; what must hold is that every face the
  // exact scan finds above the review band is found too, in the same order.
  test('two-stage search finds every close face the exact scan finds', () => {
    const index = new FaceIndex(1024, 500);
    const vs = vectors(3000, 1024, 11);
    vs.forEach((v, i) => index.add(`f${i}`, `s${i}`, v));
    for (const probe of [5, 1234, 2999]) {
      const q = near(vs[probe]!, 0.6, probe);
      const fast = index.search(q, { k: 5, minSimilarity: 0.55 }).map((h) => h.id);
      const exact = index.search(q, { k: 5, minSimilarity: 0.55, exact: true }).map((h) => h.id);
      assert.equal(fast[0], `f${probe}`);
      assert.deepEqual(fast, exact);
    }
  });

  test('serialises and restores', () => {
    const index = new FaceIndex(16);
    const vs = vectors(5, 16, 5);
    vs.forEach((v, i) => index.add(`f${i}`, `s${i}`, v));
    const copy = FaceIndex.deserialize(index.serialize());
    assert.equal(copy.size, 5);
    assert.deepEqual(copy.search(vs[2]!, { k: 2 }), index.search(vs[2]!, { k: 2 }));
    assert.throws(() => FaceIndex.deserialize(Buffer.from('garbage-garbage')));
  });

  test('rejects embeddings of the wrong length', () => {
    assert.throws(() => new FaceIndex(8).add('x', 's', new Float32Array(7)), RangeError);
  });
});
