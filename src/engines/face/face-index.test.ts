import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { FaceIndex } from './face-index.js';
import { SignCodes } from './sign-codes.js';

// Deterministic pseudo-random vectors (xorshift) so the test is reproducible.
function vectors(count: number, dims: number, seed: number): Float32Array[] {
  let s = seed >>> 0 || 1;
  const next = (): number => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
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

const unit = (v: Float32Array): Float32Array => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

/** A vector whose cosine with `v` is exactly `cos` (v's unit direction plus an orthogonal random part). */
function atSimilarity(v: Float32Array, cos: number, seed: number): Float32Array {
  const u = unit(v);
  const r = vectors(1, v.length, seed)[0]!;
  let along = 0;
  for (let i = 0; i < r.length; i++) along += r[i]! * u[i]!;
  const orth = unit(r.map((x, i) => x - along * u[i]!));
  return u.map((x, i) => cos * x + Math.sqrt(1 - cos * cos) * orth[i]!);
}

const exactDot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** 3,000 correlated faces (unrelated ≈ 0.4) plus, for each of 4 probes, 7 planted faces at 0.62–0.80. */
function plantedIndex(coarseFrom = 500): { index: FaceIndex; probes: Float32Array[] } {
  const index = new FaceIndex(1024, coarseFrom, 16);
  const all = vectors(3004, 1024, 11); // one shared component for the crowd and the probes
  all.slice(0, 3000).forEach((v, i) => index.add(`f${i}`, `s${i}`, v));
  const probes = all.slice(3000);
  probes.forEach((p, j) => {
    [0.62, 0.645, 0.651, 0.655, 0.67, 0.7, 0.8].forEach((cos, m) =>
      index.add(`dup${j}_${m}`, `d${j}_${m}`, atSimilarity(p, cos, 1000 * j + m)),
    );
  });
  return { index, probes };
}

/**
 * Every hit at or above `floor` in the exact scan is in the two-stage result, with the same score. The
 * floor is passed as `recallFrom` (these synthetic tests use the faceres-scale 0.65; the default
 * FACE_DUPLICATE_THRESHOLD is 0.926 on the face-api scale since #19).
 */
function assertRecall(index: FaceIndex, q: Float32Array, floor: number, options: { k?: number; excludeSubjectId?: string } = {}): number {
  const exact = index.search(q, { ...options, exact: true }).filter((h) => h.similarity >= floor);
  const fast = index.search(q, { recallFrom: floor, ...options });
  for (const h of exact)
    assert.ok(
      fast.some((g) => g.id === h.id && g.similarity === h.similarity),
      `${h.id} at ${h.similarity.toFixed(4)} missed`,
    );
  return exact.length;
}

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

  test('sign-code bounds hold for every pair and are tight enough to prune', () => {
    const d = 1024;
    const all = vectors(1506, d, 21).map(unit);
    const rows = all.slice(0, 1500);
    const queries = all.slice(1500);
    queries.forEach((q, j) => [0.5, 0.65, 0.8, 0.95].forEach((cos, m) => rows.push(atSimilarity(q, cos, 50 * j + m))));
    const flat = new Float32Array(rows.length * d);
    rows.forEach((r, i) => flat.set(r, i * d));
    const codes = new SignCodes(d, rows.length);
    codes.setCentre(SignCodes.mean(flat, rows.length, d));
    rows.forEach((_, i) => codes.encode(flat, i));
    let slackSum = 0;
    for (const q of queries) {
      const full = codes.upperBounds(q, rows.length, -Infinity);
      const half = codes.upperBounds(q, rows.length, Infinity);
      rows.forEach((r, i) => {
        const s = exactDot(r, q);
        assert.ok(full[i]! >= s, `full bound ${full[i]} below exact ${s}`);
        assert.ok(half[i]! >= s, `half bound ${half[i]} below exact ${s}`);
        slackSum += full[i]! - s;
      });
      // Unrelated rows (≈ 0.4) must mostly fall below a 0.65 floor, or the bound prunes nothing.
      assert.ok(full.filter((b) => b >= 0.65).length < rows.length * 0.02);
    }
    assert.ok(slackSum / (rows.length * queries.length) < 0.15, 'bounds are loose');
  });

  test('two-stage search finds every planted face at or above the floor, with exact scores', () => {
    const { index, probes } = plantedIndex();
    for (const q of probes) {
      // 0.651, 0.655, 0.67, 0.7, 0.8 planted above the floor; the crowd stays below.
      assert.equal(assertRecall(index, q, 0.65), 5);
      assert.ok(assertRecall(index, q, 0.6, { k: 10 }) >= 7);
      const low = index.search(q, { k: 10, minSimilarity: 0.6 });
      assert.deepEqual(low, index.search(q, { k: 10, minSimilarity: 0.6, exact: true }), 'with minSimilarity 0.6 the floor is 0.6');
    }
  });

  test('rows beyond the first candidates are found through their bounds', () => {
    // 400 faces of one subject fill the first candidates and are excluded; the other subjects'
    // faces above the floor can only be reached by the pass over the bounds.
    const { index, probes } = plantedIndex();
    const q = probes[0]!;
    for (let m = 0; m < 400; m++) index.add(`self${m}`, 'self', atSimilarity(q, 0.85 + (m % 10) * 0.01, 9000 + m));
    // The floor is set explicitly: the default (FACE_DUPLICATE_THRESHOLD) is on the face-api scale (0.926) since #19.
    const hits = index.search(q, { k: 5, excludeSubjectId: 'self', recallFrom: 0.65 });
    assert.deepEqual(
      hits.map((h) => h.id),
      ['dup0_6', 'dup0_5', 'dup0_4', 'dup0_3', 'dup0_2'],
    );
    assert.equal(assertRecall(index, q, 0.65, { k: 5, excludeSubjectId: 'self' }), 5);
  });

  test('two-stage search after removals, replacements and growth past a re-centring', () => {
    const { index, probes } = plantedIndex();
    const q = probes[1]!;
    index.search(q); // codes built
    assert.equal(index.remove('dup1_6'), true); // the best hit
    assert.equal(index.remove('f0'), true); // row 0 now holds what was the last row, dup3_5
    index.add('dup1_5', 'd1_5', atSimilarity(q, 0.9, 1)); // replaced in place
    let hits = index.search(q, { k: 3, minSimilarity: 0.65 });
    assert.deepEqual(
      hits.map((h) => h.id),
      ['dup1_5', 'dup1_4', 'dup1_3'],
    );
    assert.ok(Math.abs(hits[0]!.similarity - 0.9) < 1e-5);
    assert.deepEqual(
      index.search(probes[3]!, { k: 2 }).map((h) => h.id),
      ['dup3_6', 'dup3_5'],
      'the moved rows are found',
    );
    // Doubling the index re-centres the codes; new faces are found, old ones too.
    vectors(3100, 1024, 12).forEach((v, i) => index.add(`g${i}`, `t${i}`, v));
    index.add('late', 'late', atSimilarity(q, 0.66, 2));
    for (const p of probes) assertRecall(index, p, 0.65);
    hits = index.search(q, { k: 10, minSimilarity: 0.65 });
    assert.ok(hits.some((h) => h.id === 'late'));
  });

  test('serialises and restores', () => {
    const index = new FaceIndex(16);
    const vs = vectors(5, 16, 5);
    vs.forEach((v, i) => index.add(`f${i}`, `s${i}`, v));
    const copy = FaceIndex.deserialize(index.serialize());
    assert.equal(copy.size, 5);
    assert.deepEqual(copy.search(vs[2]!, { k: 2 }), index.search(vs[2]!, { k: 2 }));
    assert.throws(() => FaceIndex.deserialize(Buffer.from('garbage-garbage')), /not a face index snapshot/);
  });

  test('a two-stage snapshot restores the same results; version 1 still loads; others fail clearly', () => {
    const { index, probes } = plantedIndex();
    const before = probes.map((q) => index.search(q, { k: 10 }));
    const snapshot = index.serialize();
    const copy = FaceIndex.deserialize(snapshot);
    assert.equal(copy.size, index.size);
    probes.forEach((q, j) => assert.deepEqual(copy.search(q, { k: 10 }), before[j]));
    // Version 1: the same header without centredAt and no centre after the vectors.
    const headerLength = snapshot.readUInt32LE(0);
    const header = JSON.parse(snapshot.subarray(4, 4 + headerLength).toString('utf8')) as Record<string, unknown>;
    const v1Header = Buffer.from(JSON.stringify({ ...header, magic: 'VERITY-FACE-INDEX-1', centredAt: undefined }));
    const vectorsBytes = index.size * 1024 * 4;
    const len = Buffer.alloc(4);
    len.writeUInt32LE(v1Header.length);
    const v1 = Buffer.concat([len, v1Header, snapshot.subarray(4 + headerLength, 4 + headerLength + vectorsBytes)]);
    const old = FaceIndex.deserialize(v1);
    probes.forEach((q) =>
      assert.deepEqual(old.search(q, { k: 10, minSimilarity: 0.65 }), index.search(q, { k: 10, minSimilarity: 0.65, exact: true })),
    );
    assert.throws(() => FaceIndex.deserialize(snapshot.subarray(0, snapshot.length - 8)), /truncated/);
    const v9Header = Buffer.from(JSON.stringify({ ...header, magic: 'VERITY-FACE-INDEX-9' }));
    len.writeUInt32LE(v9Header.length);
    assert.throws(() => FaceIndex.deserialize(Buffer.concat([len, v9Header])), /VERITY-FACE-INDEX-9 is not supported/);
  });

  test('rejects embeddings of the wrong length', () => {
    assert.throws(() => new FaceIndex(8).add('x', 's', new Float32Array(7)), RangeError);
  });
});
