import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBearer } from './bearer.js';

test('bearer tokens: scheme in any case, one token, spaces around it; anything else is missing or malformed', () => {
  assert.deepEqual(parseBearer('Bearer sk_x'), { ok: true, token: 'sk_x' });
  assert.deepEqual(parseBearer('bearer   sk_x  '), { ok: true, token: 'sk_x' });
  assert.deepEqual(parseBearer('BEARER sk_x'), { ok: true, token: 'sk_x' });
  for (const h of [undefined, null, '']) assert.deepEqual(parseBearer(h), { ok: false, problem: 'missing' });
  for (const h of ['sk_x', 'Basic abc', 'Bearer', 'Bearer a b', 'Bearersk_x', ['Bearer sk_x']])
    assert.deepEqual(parseBearer(h), { ok: false, problem: 'malformed' }, String(h));
});
