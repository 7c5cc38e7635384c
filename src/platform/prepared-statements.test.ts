import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PreparedStatements } from './prepared-statements.js';

// The messages composed for one connection, without a database (db-prepared.test.ts runs them on PostgreSQL).
const INSERT = 'INSERT INTO t (a, b) VALUES ($1, $2)';
const READ = 'SELECT a FROM t WHERE a = $1';
const name = PreparedStatements.nameOf;

/** A connection whose PREPAREs succeed, or fail as a parameter type the server cannot infer. */
function fakeClient(fail: (sql: string) => boolean = () => false) {
  const sent: string[] = [];
  return {
    sent,
    query: async (sql: string) => {
      sent.push(sql);
      if (fail(sql)) throw Object.assign(new Error('could not determine data type of parameter $1'), { code: '42P18' });
      return {};
    },
  };
}

test('text first, PREPARE alone afterwards, then EXECUTE with the same literals in the message', async () => {
  const ps = new PreparedStatements(10);
  const client = fakeClient();
  const first = ps.compose(client, [{ sql: INSERT, params: ["it's", 1] }]);
  assert.deepEqual(first, { texts: [`INSERT INTO t (a, b) VALUES ('it''s', '1')`], at: [0], probe: [INSERT], prepared: false });
  await ps.probe(client, first!.probe);
  assert.deepEqual(client.sent, [`PREPARE ${name(INSERT)} AS ${INSERT}`]);
  const second = ps.compose(client, [{ sql: INSERT, params: ['x', null] }, { sql: 'SELECT now()' }, { sql: INSERT, params: ['y', 2] }]);
  assert.deepEqual(second, {
    texts: [`EXECUTE ${name(INSERT)}('x', NULL)`, 'SELECT now()', `EXECUTE ${name(INSERT)}('y', '2')`],
    at: [0, 1, 2],
    probe: [],
    prepared: true,
  });
  // Another connection PREPAREs it inside its message, the first time.
  const other = ps.compose(fakeClient(), [{ sql: INSERT, params: ['z', 3] }]);
  assert.deepEqual(other!.texts, [`PREPARE ${name(INSERT)} AS ${INSERT}`, `EXECUTE ${name(INSERT)}('z', '3')`]);
  assert.deepEqual(other!.at, [1]);
  assert.equal(other!.prepared, true);
});

test('not prepared: no parameters, arrays and objects, values that cannot be written in, unused values, other statements, texts that fail to prepare', async () => {
  const ps = new PreparedStatements(10);
  const client = fakeClient((sql) => sql.includes('IS NULL'));
  assert.deepEqual(ps.compose(client, [{ sql: 'SELECT 1' }])!.probe, []);
  // A list is written in (its plan depends on it) but never prepared; a buffer cannot be written in at all.
  assert.deepEqual(ps.compose(client, [{ sql: READ, params: [['a', 'b']] }]), {
    texts: [`SELECT a FROM t WHERE a = '{"a","b"}'`],
    at: [0],
    probe: [],
    prepared: false,
  });
  assert.equal(ps.compose(client, [{ sql: READ, params: [Buffer.from('a')] }]), null);
  assert.deepEqual(ps.compose(client, [{ sql: READ, params: ['a', 'unused'] }])!.probe, []);
  // A value the text skips (`$2` here) cannot be typed by PREPARE (42P18): not even tried.
  const gap = 'SELECT a FROM t WHERE a = $1 AND b = $3';
  assert.deepEqual(ps.compose(client, [{ sql: gap, params: ['a', 'skipped', 'b'] }]), {
    texts: [`SELECT a FROM t WHERE a = 'a' AND b = 'b'`],
    at: [0],
    probe: [],
    prepared: false,
  });
  assert.deepEqual(ps.compose(client, [{ sql: "SET LOCAL statement_timeout = '1s'" }])!.probe, []);
  assert.deepEqual(ps.compose(client, [{ sql: `SELECT a FROM t WHERE b = $1 ${' '.repeat(8_000)}`, params: [1] }])!.probe, []);
  const untyped = 'SELECT 1 WHERE $1 IS NULL';
  await ps.probe(client, ps.compose(client, [{ sql: untyped, params: [null] }])!.probe);
  assert.deepEqual(ps.compose(client, [{ sql: untyped, params: [null] }]), {
    texts: ['SELECT 1 WHERE NULL IS NULL'],
    at: [0],
    probe: [],
    prepared: false,
  });
});

test('after an error the next message starts with DEALLOCATE ALL and prepares again; the cap deallocates the least recently used', async () => {
  const ps = new PreparedStatements(1);
  const client = fakeClient();
  await ps.probe(client, ps.compose(client, [{ sql: INSERT, params: ['a', 1] }])!.probe);
  await ps.probe(client, ps.compose(client, [{ sql: READ, params: ['a'] }])!.probe); // INSERT dropped to make room
  assert.deepEqual(ps.compose(client, [{ sql: INSERT, params: ['b', 2] }])!.texts, [
    `DEALLOCATE ${name(INSERT)}`,
    `DEALLOCATE ${name(READ)}`,
    `PREPARE ${name(INSERT)} AS ${INSERT}`,
    `EXECUTE ${name(INSERT)}('b', '2')`,
  ]);
  ps.failed(client);
  const after = ps.compose(client, [{ sql: INSERT, params: ['c', 3] }])!;
  assert.deepEqual(after.texts, ['DEALLOCATE ALL', `PREPARE ${name(INSERT)} AS ${INSERT}`, `EXECUTE ${name(INSERT)}('c', '3')`]);
  assert.deepEqual(after.at, [2]);
});

test('untried: the texts that may be prepared and were not tried yet; none once tried, whatever the outcome', async () => {
  const ps = new PreparedStatements(10);
  const untyped = 'SELECT 1 WHERE $1 IS NULL';
  const client = fakeClient((sql) => sql.includes('IS NULL'));
  const stmts = [
    { sql: INSERT, params: ['a', 1] },
    { sql: 'SELECT 1' },
    { sql: READ, params: [['a', 'b']] },
    { sql: untyped, params: [null] },
  ];
  assert.deepEqual(ps.untried(stmts), [INSERT, untyped]);
  await ps.probe(client, ps.untried(stmts));
  assert.deepEqual(ps.untried(stmts), []);
  // Tried before its message: the message EXECUTEs it at once; the text that failed to prepare is written in.
  assert.deepEqual(ps.compose(client, [stmts[0]!, stmts[3]!])!.texts, [`EXECUTE ${name(INSERT)}('a', '1')`, 'SELECT 1 WHERE NULL IS NULL']);
});

test('a PREPARE sent alone while a DEALLOCATE ALL was composed (a shared session, PGlite) is not trusted: the next message deallocates all again', async () => {
  const ps = new PreparedStatements(10);
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const sent: string[] = [];
  const client = {
    query: async (sql: string) => {
      sent.push(sql);
      if (sql.startsWith('PREPARE')) await gate;
      return {};
    },
  };
  const probing = ps.probe(client, ps.untried([{ sql: INSERT, params: ['a', 1] }]));
  // Meanwhile another request's message fails, and the next one composed starts with DEALLOCATE ALL.
  ps.failed(client);
  assert.equal(ps.compose(client, [{ sql: READ, params: ['a'] }])!.texts[0], 'DEALLOCATE ALL');
  release();
  await probing;
  // The PREPARE may have run before the DEALLOCATE ALL: the statement is not taken as prepared, the set is forgotten.
  const next = ps.compose(client, [{ sql: INSERT, params: ['b', 2] }])!;
  assert.deepEqual(next.texts, ['DEALLOCATE ALL', `PREPARE ${name(INSERT)} AS ${INSERT}`, `EXECUTE ${name(INSERT)}('b', '2')`]);
  // Undisturbed, a probe is recorded as before.
  await ps.probe(client, ps.untried([{ sql: READ, params: ['a'] }]));
  assert.deepEqual(ps.compose(client, [{ sql: READ, params: ['c'] }])!.texts, [`EXECUTE ${name(READ)}('c')`]);
});

test('a statement that should run prepared and cannot is told once per text, without its values', async () => {
  const warned: string[] = [];
  const ps = new PreparedStatements(10, (m) => warned.push(m));
  const client = fakeClient((sql) => sql.includes('IS NULL'));
  // Given more values than it names (the 0051 slowdown: a sixth value the INSERT no longer named).
  const gap = 'INSERT INTO t (a, b) VALUES ($1, $2)';
  for (let i = 0; i < 3; i++) ps.compose(client, [{ sql: gap, params: ['secret-value', 1, 'unused'] }]);
  // The same text given the values it names is still prepared.
  assert.deepEqual(ps.compose(client, [{ sql: gap, params: ['a', 1] }])!.probe, [gap]);
  // A skipped number.
  ps.compose(client, [{ sql: 'SELECT a FROM t WHERE a = $1 AND b = $3', params: ['a', 'b', 'c'] }]);
  // Refused by the server (a parameter type it cannot infer).
  const untyped = 'SELECT 1 WHERE $1 IS NULL';
  for (let i = 0; i < 2; i++) await ps.probe(client, ps.compose(client, [{ sql: untyped, params: [null] }])!.probe);
  assert.equal(warned.length, 3, warned.join('\n'));
  assert.match(warned[0]!, /given 3 values but names up to \$2; .*INSERT INTO t \(a, b\) VALUES \(\$1, \$2\)$/);
  assert.match(warned[1]!, /given 3 values but names not every one.*AND b = \$3$/);
  assert.match(warned[2]!, /cannot be prepared \(42P18: could not determine data type of parameter \$1\).*WHERE \$1 IS NULL$/);
  assert.ok(warned.every((m) => !m.includes('secret-value')));
  // A table the transaction creates (a temporary table) does not exist where the PREPARE is tried: not told.
  const temp = 'UPDATE t SET a = $1 WHERE NOT EXISTS (SELECT 1 FROM tmp_rows)';
  const missing = {
    query: async () => {
      throw Object.assign(new Error('relation "tmp_rows" does not exist'), { code: '42P01' });
    },
  };
  await ps.probe(missing, ps.compose(missing, [{ sql: temp, params: [1] }])!.probe);
  assert.equal(ps.compose(missing, [{ sql: temp, params: [1] }])!.prepared, false);
  // Not told: statements that are not meant to be prepared (no values, lists, other verbs).
  ps.compose(client, [{ sql: 'SELECT 1' }, { sql: READ, params: [['a']] }, { sql: "SET LOCAL statement_timeout = '1s'" }]);
  assert.equal(warned.length, 3);
});
