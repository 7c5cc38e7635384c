import { test } from 'node:test';
import assert from 'node:assert/strict';
import { starterRuleSet } from '../../engines/rules/index.js';
import { diffDocuments } from './diff-rules.js';

test('diff: rules by stable id field by field (author and version ignored), thresholds and aggregates by key', () => {
  const a = starterRuleSet(1);
  const b = structuredClone(a);
  b.thresholds.review = 20;
  b.rules[0] = { ...b.rules[0]!, score: 99, author: 'someone', version: 2 };
  b.rules.pop();
  b.rules.push({ ...a.rules[1]!, id: 'rul_new', key: 'new_rule' });
  b.aggregates = b.aggregates.slice(1);
  const d = diffDocuments(a, b, 1, 'draft');
  assert.deepEqual(d.thresholds, { review: { before: 30, after: 20 } });
  assert.deepEqual(d.rules.changed, [{ id: a.rules[0]!.id, key: a.rules[0]!.key, fields: { score: { before: 40, after: 99 } } }]);
  assert.deepEqual(d.rules.added, [{ id: 'rul_new', key: 'new_rule' }]);
  assert.deepEqual(d.rules.removed, [{ id: a.rules.at(-1)!.id, key: a.rules.at(-1)!.key }]);
  assert.deepEqual(d.aggregates.removed, [a.aggregates[0]!.key]);
  assert.deepEqual(diffDocuments(a, a, 1, 1).rules, { added: [], removed: [], changed: [] });
});
