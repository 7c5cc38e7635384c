import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseUkCsv } from './uk-csv.js';
import { sharedData, SKIP_NO_DATA } from './fixtures/shared-data.js';

describe('UK sanctions list CSV', () => {
  test('real 8-column file: designations by type', (t) => {
    const file = sharedData('sanctions', 'uk_fcdo_sanctions_list', 'FCDO_SL_2025-08-11.csv');
    if (!file) return t.skip(SKIP_NO_DATA);
    const es = parseUkCsv(readFileSync(file));
    // MANIFEST: 5,302 designations (3,754 individuals, 1,087 entities, 461 ships); a few rows lack a name.
    assert.ok(es.length >= 5250 && es.length <= 5302, `${es.length}`);
    assert.ok(es.filter((e) => e.schema === 'person').length >= 3700);
    assert.ok(es.filter((e) => e.schema === 'vessel').length >= 400);
    const roshan = es.find((e) => e.id === 'uk:AFG0002')!;
    assert.equal(roshan.names[0]!.full, 'ROSHAN MONEY EXCHANGE');
    assert.equal(roshan.schema, 'organization');
    assert.equal(roshan.listedAt, '2012-06-29');
    assert.deepEqual(roshan.programs, ['Afghanistan']);
  });

  test('full-export columns: one row per name, aliases and strength grouped by Unique ID', () => {
    const csv = [
      'Unique ID,Name 6,Name 1,Name type,Alias strength,Regime Name,Designation Type,D.O.B,Nationality(/ies),Passport number',
      'RUS9999,TESTOV,Pavel,Primary name,,Russia,Individual,04/07/1981,Russia,7501234567',
      'RUS9999,TESTOFF,Pasha,Alias,Weak,Russia,Individual,,,',
    ].join('\n');
    const [e] = parseUkCsv(csv);
    assert.deepEqual(e!.names, [
      { full: 'Pavel TESTOV', quality: 'strong' },
      { full: 'Pasha TESTOFF', quality: 'weak' },
    ]);
    assert.deepEqual(e!.birthDates, [{ date: '1981-07-04' }]);
    assert.deepEqual(e!.nationalities, ['RU']);
    assert.deepEqual(e!.identifiers, [{ type: 'passport', value: '7501234567' }]);
  });
});
