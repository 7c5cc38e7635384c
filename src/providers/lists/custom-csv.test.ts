import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseCustomCsv } from './custom-csv.js';
import { parseCsv } from './csv.js';

describe('custom CSV list', () => {
  test('all columns', () => {
    const csv =
      'id,name,schema,aliases,birth_dates,nationalities,identifiers,datasets,programs\n' +
      '42,"Doe, Jane",person,"Jane D.;weak:JD",1980-02-03;1979..1981,France;DE,passport:X123;crypto:XBT:1abc,pep;adverse_media,INTERNAL\n';
    const [e] = parseCustomCsv(csv, { listName: 'watch' });
    assert.equal(e!.id, 'custom:watch:42');
    assert.deepEqual(
      e!.names.map((n) => [n.full, n.quality]),
      [
        ['Doe, Jane', 'strong'],
        ['Jane D.', 'strong'],
        ['JD', 'weak'],
      ],
    );
    assert.deepEqual(e!.birthDates, [{ date: '1980-02-03' }, { from: '1979-01-01', to: '1981-12-31' }]);
    assert.deepEqual(e!.nationalities, ['FR', 'DE']);
    assert.deepEqual(e!.identifiers, [
      { type: 'passport', value: 'X123' },
      { type: 'crypto:xbt', value: '1abc' },
    ]);
    assert.deepEqual(e!.datasets, ['pep', 'adverse_media']);
  });

  test('missing columns or names are errors', () => {
    assert.throws(() => parseCustomCsv('name\nX\n'), /id/);
    assert.throws(() => parseCustomCsv('id,name\n1,\n'), /row 2/);
  });

  test('csv reader handles quotes, doubled quotes and line breaks inside fields', () => {
    assert.deepEqual(parseCsv('a,"b,c","d ""e""\nf"\r\n1,2,3'), [
      ['a', 'b,c', 'd "e"\nf'],
      ['1', '2', '3'],
    ]);
  });
});
