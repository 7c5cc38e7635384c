import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedMap } from './bounded-map.js';

test('in insertion order, a new key past max drops the entry set first, even one read since', () => {
  const m = new BoundedMap<string, number>(3);
  m.set('a', 1).set('b', 2).set('c', 3);
  assert.equal(m.get('a'), 1);
  m.set('d', 4);
  assert.equal(m.size, 3);
  assert.deepEqual([...m.keys()], ['b', 'c', 'd']);
  assert.equal(m.get('a'), undefined);
});

test('in insertion order, replacing a value keeps its place and drops nothing', () => {
  const m = new BoundedMap<string, number>(2);
  m.set('a', 1).set('b', 2).set('a', 10);
  assert.deepEqual([...m.keys()], ['a', 'b']);
  assert.equal(m.get('a'), 10);
  m.set('c', 3);
  assert.deepEqual([...m.keys()], ['b', 'c']);
});

test('in use order, a read or a set makes an entry the newest, so the least recently used goes first', () => {
  const m = new BoundedMap<string, number>(3, 'use');
  m.set('a', 1).set('b', 2).set('c', 3);
  assert.equal(m.get('a'), 1);
  m.set('b', 20);
  m.set('d', 4);
  assert.deepEqual([...m.keys()], ['a', 'b', 'd']);
  assert.equal(m.has('c'), false);
  // has() is not a use
  assert.equal(m.has('a'), true);
  m.set('e', 5);
  assert.deepEqual([...m.keys()], ['b', 'd', 'e']);
});

test('in use order, an entry whose value is undefined is still moved by a read, and a missing key adds nothing', () => {
  const m = new BoundedMap<string, number | undefined>(2, 'use');
  m.set('a', undefined).set('b', 1);
  assert.equal(m.get('a'), undefined);
  assert.equal(m.get('zz'), undefined);
  assert.equal(m.size, 2);
  m.set('c', 2);
  assert.deepEqual([...m.keys()], ['a', 'c']);
});

test('a map of one keeps the latest entry; delete and clear free room', () => {
  const m = new BoundedMap<number, string>(1);
  m.set(1, 'x').set(2, 'y');
  assert.deepEqual([...m.keys()], [2]);
  assert.equal(m.delete(2), true);
  assert.equal(m.size, 0);
  m.set(3, 'z');
  m.clear();
  assert.equal(m.size, 0);
});

test('max must be a whole number of at least one', () => {
  for (const max of [0, -1, 1.5, Number.NaN]) assert.throws(() => new BoundedMap(max), RangeError);
});

test('each entry dropped to make room is told, with its value; delete and clear are not', () => {
  const dropped: [number, string][] = [];
  const m = new BoundedMap<number, string>(2, 'use', (k, v) => dropped.push([k, v]));
  m.set(1, 'a').set(2, 'b');
  m.get(1);
  m.set(3, 'c'); // 2 is the least recently used
  m.set(3, 'c2'); // a key already held: nothing dropped
  m.delete(1);
  m.set(4, 'd').clear();
  assert.deepEqual(dropped, [[2, 'b']]);
});

test('in use order with 8 or more entries, a read moves its entry only once max/8 entries were placed after it', () => {
  const m = new BoundedMap<number, number>(16, 'use'); // slack 2
  for (let i = 0; i < 16; i++) m.set(i, i);
  m.get(14); // 1 placed after it: stays
  assert.deepEqual([...m.keys()].slice(-3), [13, 14, 15]);
  m.get(13); // 2 placed after it: stays
  assert.deepEqual([...m.keys()].slice(-3), [13, 14, 15]);
  m.get(12); // 3 placed after it: moves to the newest place
  assert.deepEqual([...m.keys()].slice(-3), [14, 15, 12]);
  m.get(0); // the oldest, read: moves, so the next new key drops 1 instead
  m.set(16, 16);
  assert.equal(m.has(0), true);
  assert.equal(m.has(1), false);
  assert.equal(m.size, 16);
});

test('in use order, an entry read between every few new keys is never dropped, however many keys pass', () => {
  const dropped: number[] = [];
  const m = new BoundedMap<number, string>(64, 'use', (k) => dropped.push(k)); // slack 8
  m.set(-1, 'hot');
  for (let i = 0; i < 10_000; i++) {
    m.set(i, 'cold');
    if (i % 50 === 0) assert.equal(m.get(-1), 'hot');
  }
  assert.equal(m.has(-1), true);
  assert.equal(dropped.includes(-1), false);
  assert.equal(dropped.length, 10_000 + 1 - 64);
});
