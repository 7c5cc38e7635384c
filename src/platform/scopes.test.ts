import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasScope, parseScopes, ALL_SCOPES } from './scopes.js';

test('write implies read of the same module, not of others', () => {
  assert.ok(hasScope(['lists:write'], 'lists:read'));
  assert.ok(!hasScope(['lists:read'], 'lists:write'));
  assert.ok(!hasScope(['lists:write'], 'webhooks:read'));
  assert.ok(hasScope(['*'], 'webhooks:write'));
});

test('parseScopes rejects unknown names and lists the known ones', () => {
  assert.deepEqual(parseScopes('lists:read, usage:read'), ['lists:read', 'usage:read']);
  assert.throws(() => parseScopes('lists:admin'), /unknown scope\(s\): lists:admin/);
  assert.equal(ALL_SCOPES.length % 2, 0);
});
