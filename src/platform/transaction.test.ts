import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineStatements } from './transaction.js';

test('deferred statements combine into one with renumbered parameters', () => {
  const c = combineStatements([
    { sql: 'INSERT INTO a (x, y) VALUES ($1, $2)', params: [1, 2] },
    { sql: 'UPDATE b SET z = $1 WHERE id = $2', params: ['z', 'id'] },
  ]);
  assert.equal(c.sql, 'WITH d0 AS (INSERT INTO a (x, y) VALUES ($1, $2)), d1 AS (UPDATE b SET z = $3 WHERE id = $4) SELECT 1');
  assert.deepEqual(c.params, [1, 2, 'z', 'id']);
  const one = { sql: 'INSERT INTO a VALUES ($1)', params: [1] };
  assert.equal(combineStatements([one]), one);
});
