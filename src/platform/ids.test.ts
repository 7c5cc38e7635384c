import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newId, hasPrefix, idFloor } from './ids.js';

test('ids carry their prefix and sort by creation time', () => {
  const a = newId('session', 1_700_000_000_000);
  const b = newId('session', 1_700_000_000_001);
  assert.match(a, /^ses_[0-9a-z]{26}$/);
  assert.ok(a < b);
  assert.ok(hasPrefix(a, 'session'));
  assert.ok(!hasPrefix(a, 'check'));
});

test('ids made in the same millisecond still sort in creation order and never repeat', () => {
  const ids = Array.from({ length: 1000 }, () => newId('event', 1_800_000_000_000));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
});

test('idFloor(t) sorts after every id made before t and before every id made at t or later', () => {
  const t = 1_900_000_000_000;
  const floor = idFloor('faceEnrollment', t);
  assert.ok(hasPrefix(floor, 'faceEnrollment'));
  assert.ok(newId('faceEnrollment', t - 1) < floor);
  assert.ok(floor < newId('faceEnrollment', t));
  assert.ok(floor < newId('faceEnrollment', t + 60_000));
});
