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
  assert.ok(ALL_SCOPES.includes('rules:publish'));
});

test('rules:publish is its own scope: write does not grant it; it grants rules:read only', () => {
  assert.ok(!hasScope(['rules:write'], 'rules:publish'));
  assert.ok(hasScope(['rules:publish'], 'rules:publish'));
  assert.ok(hasScope(['rules:publish'], 'rules:read'));
  assert.ok(!hasScope(['rules:publish'], 'rules:write'));
  assert.ok(!hasScope(['rules:publish'], 'transactions:read'));
  assert.ok(hasScope(['*'], 'rules:publish'));
});
