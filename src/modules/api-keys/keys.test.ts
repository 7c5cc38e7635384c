import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdsAll } from './keys.js';

test('a principal grants only scopes it holds: write implies read, * only from *', () => {
  assert.ok(holdsAll(['*'], ['*', 'lists:write']));
  assert.ok(holdsAll(['lists:write'], ['lists:read', 'lists:write']));
  assert.ok(!holdsAll(['lists:read'], ['lists:write']));
  assert.ok(!holdsAll(['lists:write', 'usage:read'], ['*']));
  assert.ok(!holdsAll(['rules:write'], ['rules:publish']));
  assert.ok(!holdsAll(['*'], ['nope:read']), 'an unknown name is never held');
  assert.ok(holdsAll([], []));
});
