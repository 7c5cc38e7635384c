import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ImportError, parseCsv, parseImport } from './import-format.js';
import { chunks } from './import-cli.js';
import { usesRollup } from './aggregates.js';
import { planAggregate } from '../../engines/rules/index.js';

test('CSV: quoted commas, escaped quotes, CRLF and embedded newlines, with the line each row starts on', () => {
  const rows = parseCsv('a,b\r\n"x, y","say ""hi"""\n"multi\nline",2\n');
  assert.deepEqual(rows, [
    { line: 1, cells: ['a', 'b'] },
    { line: 2, cells: ['x, y', 'say "hi"'] },
    { line: 3, cells: ['multi\nline', '2'] },
  ]);
  assert.throws(() => parseCsv('a\n"open'), ImportError);
});

test('AMLSim preset: each transfer becomes an out row for the originator and an in row for the beneficiary, is_sar as label', () => {
  const rows = parseImport(
    'csv',
    'amlsim',
    'tran_id,orig_acct,bene_acct,tx_type,base_amt,tran_timestamp,is_sar,alert_id\n1,50,62,WIRE,234.08,2011-01-01T00:00:00Z,True,0\n',
    'USD',
  );
  assert.deepEqual(
    rows.map((r) => [
      r.input.reference,
      r.input.direction,
      r.input.subject.reference,
      r.input.counterparty?.reference,
      r.input.type,
      r.label,
    ]),
    [
      ['1:out', 'out', '50', '62', 'wire', true],
      ['1:in', 'in', '62', '50', 'wire', true],
    ],
  );
  assert.throws(
    () => parseImport('csv', 'amlsim', 'tran_id,orig_acct\n1,2', 'USD'),
    (e: ImportError) => e.column === 'bene_acct',
  );
});

test('JSON lines: a bad line names its number and field', () => {
  const ok = JSON.stringify({
    reference: 'r',
    occurred_at: '2025-01-01T00:00:00Z',
    amount: '1.00',
    currency: 'EUR',
    direction: 'in',
    subject: { reference: 's' },
  });
  assert.equal(parseImport('jsonl', 'verity', `${ok}\n\n`, 'USD').length, 1);
  assert.throws(
    () => parseImport('jsonl', 'verity', `${ok}\n${ok.replace('"in"', '"up"')}`, 'USD'),
    (e: ImportError) => e.line === 2 && e.column === 'direction',
  );
  assert.throws(
    () => parseImport('jsonl', 'verity', '{nope', 'USD'),
    (e: ImportError) => e.line === 1,
  );
});

test('CLI chunks repeat the CSV header and keep quoted cells intact', () => {
  const csv = ['reference,counterparty_name', ...Array.from({ length: 5001 }, (_, i) => `r${i},"A, B"`)].join('\n');
  const parts = chunks('csv', csv);
  assert.equal(parts.length, 2);
  assert.ok(parts[1]!.startsWith('reference,counterparty_name\nr5000,"A, B"'));
});

test('only whole-day aggregates grouped by subject, without filters but a count currency, read the rollup', () => {
  const p = (o: object) => planAggregate({ key: 'k', fn: 'count', window: '30d', group_by: 'subject', ...o } as never);
  const sameCurrency = { field: 'currency', op: 'eq', value: { tx: 'currency' } };
  assert.equal(usesRollup(p({})), true);
  assert.equal(usesRollup(p({ fn: 'sum', field: 'amount', direction: 'out' })), true);
  for (const fn of ['avg', 'stddev', 'min', 'max']) assert.equal(usesRollup(p({ fn, field: 'amount', currency: 'EUR' })), true, fn);
  assert.equal(usesRollup(p({ filters: [sameCurrency] })), true);
  assert.equal(usesRollup(p({ filters: [{ field: 'currency', op: 'eq', value: 'EUR' }] })), true);
  assert.equal(usesRollup(p({ fn: 'avg', field: 'amount', filters: [sameCurrency] })), false);
  assert.equal(usesRollup(p({ filters: [{ field: 'currency', op: 'ne', value: { tx: 'currency' } }] })), false);
  assert.equal(usesRollup(p({ filters: [sameCurrency, { field: 'type', op: 'eq', value: 'cash' }] })), false);
  assert.equal(usesRollup(p({ window: '12h' })), false);
  assert.equal(usesRollup(p({ window: '36h' })), false);
  assert.equal(usesRollup(p({ group_by: 'counterparty' })), false);
  assert.equal(usesRollup(p({ fn: 'count_distinct', field: 'counterparty' })), false);
  assert.equal(usesRollup(p({ filters: [{ field: 'type', op: 'eq', value: 'cash' }] })), false);
});
