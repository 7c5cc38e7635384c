import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { newId, hasPrefix, idFloor, base32of80 } from './ids.js';
import { randomBytesPooled } from './random.js';

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

test('the random part is the 80 bits in base32, most significant first (the same as a BigInt reading)', () => {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  const byBigInt = (b: Buffer) => {
    let bits = 0n;
    for (const x of b) bits = (bits << 8n) | BigInt(x);
    let r = '';
    for (let i = 0; i < 16; i++) {
      r = alphabet[Number(bits & 31n)] + r;
      bits >>= 5n;
    }
    return r;
  };
  const cases = [Buffer.alloc(10), Buffer.alloc(10, 0xff), Buffer.from([0x80, 0, 0, 0, 0, 0, 0, 0, 0, 1])];
  for (let i = 0; i < 2000; i++) cases.push(randomBytes(10));
  for (const b of cases) assert.equal(base32of80(b), byBigInt(b));
});

test('pooled random bytes are handed out once each, as copies, across pool refills', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const b = randomBytesPooled(12);
    assert.equal(b.length, 12);
    const hex = b.toString('hex');
    assert.ok(!seen.has(hex));
    seen.add(hex);
    b.fill(0); // the caller's copy: zeroing it changes no later output
  }
  assert.equal(randomBytesPooled(1000).length, 1000);
  assert.equal(new Set(Array.from({ length: 100 }, () => randomBytesPooled(12).toString('hex'))).size, 100);
});
