import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { jaro, jaroWinkler } from './jaro-winkler.js';
import { levenshtein } from './levenshtein.js';

describe('jaroWinkler', () => {
  test('textbook values', () => {
    assert.ok(Math.abs(jaroWinkler('martha', 'marhta') - 0.961) < 0.001);
    assert.ok(Math.abs(jaroWinkler('dwayne', 'duane') - 0.84) < 0.001);
    assert.ok(Math.abs(jaroWinkler('dixon', 'dicksonx') - 0.813) < 0.001);
    assert.ok(Math.abs(jaro('martha', 'marhta') - 0.944) < 0.001);
  });

  test('values shared with Watchman single-token cases', () => {
    // From name_matching/watchman/jaro_winkler_expected_scores.csv, rows where Watchman's
    // token-level score reduces to plain Jaro-Winkler (one token each side).
    assert.ok(Math.abs(jaroWinkler('elvin', 'elvis') - 0.92) < 0.01);
    assert.equal(jaroWinkler('nicolas', 'nicolas'), 1);
    assert.ok(Math.abs(jaroWinkler('nicolas', 'nicolasx') - 0.975) < 0.01);
  });

  test('edge cases', () => {
    assert.equal(jaroWinkler('', 'hello'), 0);
    assert.equal(jaroWinkler('a', 'b'), 0);
    assert.equal(jaroWinkler('abc', 'abc'), 1);
    const long = 'x'.repeat(40);
    assert.equal(jaroWinkler(long, long + 'y') > 0.98, true);
  });

  test('Jon and John are close, not a cliff', () => {
    assert.ok(jaroWinkler('jon', 'john') > 0.9);
  });

  test('levenshtein', () => {
    assert.equal(levenshtein('kitten', 'sitting'), 3);
    assert.equal(levenshtein('', 'abc'), 3);
  });
});
