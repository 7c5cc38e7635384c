import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inlineParams } from './db.js';
import { createTestDb } from '../../test/helpers/test-db.js';

test('placeholders become quoted literals; quotes in values are escaped', () => {
  assert.equal(
    inlineParams('INSERT INTO t (a, b, c, d) VALUES ($1, $2, $3, $4)', ["it's", 15, null, true]),
    `INSERT INTO t (a, b, c, d) VALUES ('it''s', '15', NULL, 'true')`,
  );
  assert.equal(
    inlineParams(
      'SELECT $2, $1, $10',
      Array.from({ length: 10 }, (_, i) => `v${i + 1}`),
    ),
    "SELECT 'v2', 'v1', 'v10'",
  );
  // A backslash makes an E'' literal, so it means the same whatever standard_conforming_strings says.
  assert.equal(inlineParams('SELECT $1', ['a\\b']), "SELECT  E'a\\\\b'");
});

test('placeholders inside quotes, quoted names, dollar bodies and comments are left alone', () => {
  assert.equal(
    inlineParams(`SELECT '$1', "$1", $$ $1 $$, $f$ $1 $f$, $1 -- $1\n, 'it''s $1'`, ['x']),
    `SELECT '$1', "$1", $$ $1 $$, $f$ $1 $f$, 'x' -- $1\n, 'it''s $1'`,
  );
});

test('a date is written as its instant in UTC', () => {
  assert.equal(
    inlineParams('SELECT $1::timestamptz', [new Date(Date.UTC(2026, 10, 23, 20, 33, 1, 510))]),
    "SELECT '2026-11-23T20:33:01.510Z'::timestamptz",
  );
});

test('arrays and plain objects are written as node-postgres sends them: an array literal, JSON', () => {
  assert.equal(inlineParams('SELECT $1::text[]', [['a', 'b c']]), `SELECT '{"a","b c"}'::text[]`);
  assert.equal(inlineParams('SELECT $1::int[]', [[1, 2]]), `SELECT '{"1","2"}'::int[]`);
  assert.equal(inlineParams('SELECT $1', [[]]), "SELECT '{}'");
  assert.equal(inlineParams('SELECT $1', [[null, ['x']]]), `SELECT '{NULL,{"x"}}'`);
  assert.equal(inlineParams('SELECT $1::jsonb', [{ a: 1, b: ["x'y"] }]), `SELECT '{"a":1,"b":["x''y"]}'::jsonb`);
});

test('written-in arrays and objects read back as the values themselves on the database (quotes, backslashes, NULLs, nesting)', async () => {
  const { db, close } = await createTestDb();
  try {
    const tricky = ["it's", 'a"b', 'c\\d', '{x,y}', 'NULL', '', ' sp ', 'é€😀'];
    const [row] = await db.query<{ a: string[]; n: (number | null)[][]; j: unknown }>(
      inlineParams('SELECT $1::text[] AS a, $2::int[] AS n, $3::jsonb AS j', [
        tricky,
        [
          [1, null],
          [3, 4],
        ],
        { k: tricky, z: null },
      ])!,
    );
    assert.deepEqual(row!.a, tricky);
    assert.deepEqual(row!.n, [
      [1, null],
      [3, 4],
    ]);
    assert.deepEqual(row!.j, { k: tricky, z: null });
    // Untyped, as a parameter is: the server infers the array type from the context.
    const [any] = await db.query<{ n: number }>(
      inlineParams(`SELECT count(*)::int AS n FROM (VALUES ('a'), ('b"'), ('c')) v(x) WHERE x = ANY($1)`, [['b"', 'c', 'z']])!,
    );
    assert.equal(any!.n, 2);
  } finally {
    await close();
  }
});

test('buffers, typed arrays, a NUL byte, an invalid date or a missing value keep the extended protocol', () => {
  assert.equal(inlineParams('SELECT $1', [new Date(Number.NaN)]), null);
  assert.equal(inlineParams('SELECT $1', [Buffer.from('x')]), null);
  assert.equal(inlineParams('SELECT $1', [[Buffer.from('x')]]), null);
  assert.equal(inlineParams('SELECT $1', [new Uint8Array(2)]), null);
  assert.equal(inlineParams('SELECT $1', ['a\0b']), null);
  assert.equal(inlineParams('SELECT $1', [['a\0b']]), null);
  assert.equal(inlineParams('SELECT $1', [{ toPostgres: () => 'x' }]), null);
  assert.equal(inlineParams('SELECT $2', ['a']), null);
  assert.equal(inlineParams('SELECT $0', ['a']), null);
  // The text is cut at its placeholders once and cached: the same text with other values, or too few, is answered anew.
  assert.equal(inlineParams('SELECT $1, $2', ['a', 'b']), "SELECT 'a', 'b'");
  assert.equal(inlineParams('SELECT $1, $2', ['c', 'd']), "SELECT 'c', 'd'");
  assert.equal(inlineParams('SELECT $1, $2', ['c']), null);
});

test('block comments, nested as PostgreSQL nests them, hide quotes and placeholders', () => {
  assert.equal(
    inlineParams(`SELECT /* it's $1 */ $1, /* a /* b ' $2 */ still ' $1 */ $2`, ['x', 'y']),
    `SELECT /* it's $1 */ 'x', /* a /* b ' $2 */ still ' $1 */ 'y'`,
  );
  // A quote that a comment holds does not start a string: the placeholder after it is replaced.
  assert.equal(inlineParams(`SELECT /* ' */ $1 /* " */`, ['x']), `SELECT /* ' */ 'x' /* " */`);
  // Comment markers inside strings, names and line comments are plain text.
  assert.equal(inlineParams(`SELECT '/*', $1, "*/" -- /*\n, $1`, ['x']), `SELECT '/*', 'x', "*/" -- /*\n, 'x'`);
  // An unterminated comment goes to the server as it is, which reports it.
  assert.equal(inlineParams('SELECT $1 /* /* */', ['x']), null);
  assert.equal(inlineParams('SELECT $1 /*/', ['x']), null);
});
