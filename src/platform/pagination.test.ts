import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCursor, encodeCursor, setCursorSecret } from './pagination.js';
import { AppError } from './errors.js';

setCursorSecret(Buffer.alloc(32, 7));

test('a cursor round-trips within its scope', () => {
  const c = encodeCursor('acct_a:sandbox:lists', 'lse_123');
  assert.equal(decodeCursor('acct_a:sandbox:lists', c), 'lse_123');
});

test('a cursor cannot be edited or replayed on another tenant', () => {
  const c = encodeCursor('acct_a:sandbox:lists', 'lse_123');
  const [payload, sig] = c.split('.');
  const forged = Buffer.from(JSON.stringify({ s: 'acct_b:sandbox:lists', l: 'lse_999' })).toString('base64url');
  assert.throws(
    () => decodeCursor('acct_b:sandbox:lists', `${forged}.${sig}`),
    (e: AppError) => e.field === 'cursor',
  );
  assert.throws(
    () => decodeCursor('acct_b:sandbox:lists', c),
    (e: AppError) => e.code === 'invalid_request',
  );
  assert.throws(
    () => decodeCursor('acct_a:sandbox:lists', `${payload}`),
    (e: AppError) => e.field === 'cursor',
  );
});
