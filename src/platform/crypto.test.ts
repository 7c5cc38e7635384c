import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Sealer } from './crypto.js';

const s = new Sealer(Buffer.alloc(32, 3));

test('sealed values round-trip and differ each time', () => {
  const a = s.seal('webhook-secret', 'whsec_abc');
  const b = s.seal('webhook-secret', 'whsec_abc');
  assert.notEqual(a, b);
  assert.equal(s.open('webhook-secret', a), 'whsec_abc');
  assert.ok(!a.includes('whsec_abc'));
});

test('a value sealed for one purpose or key cannot be opened for another, and tampering is detected', () => {
  const a = s.seal('webhook-secret', 'x');
  assert.throws(() => s.open('media', a));
  assert.throws(() => new Sealer(Buffer.alloc(32, 4)).open('webhook-secret', a));
  const raw = Buffer.from(a.slice(3), 'base64url');
  raw[raw.length - 1]! ^= 1;
  assert.throws(() => s.open('webhook-secret', `v1.${raw.toString('base64url')}`));
});
