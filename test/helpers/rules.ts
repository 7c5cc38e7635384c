import type { Rule } from '../../src/engines/rules/index.js';

/** A rule for engine tests: id `rul_<key>`, version 1, score 10, severity low, author `a`; `over` sets the rest. */
export function ruleOf(key: string, expression: string, status: Rule['status'] = 'active', over: Partial<Rule> = {}): Rule {
  return {
    id: `rul_${key}`,
    key,
    version: 1,
    name: key,
    description: '',
    expression,
    score: 10,
    severity: 'low',
    typologies: [],
    status,
    author: 'a',
    ...over,
  };
}
