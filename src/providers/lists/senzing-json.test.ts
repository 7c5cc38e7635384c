import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseSenzingJson } from './senzing-json.js';
import { sharedData, SKIP_NO_DATA } from './fixtures/shared-data.js';

describe('Senzing JSON', () => {
  test('real OpenSanctions PEP sample: flat attributes', (t) => {
    const file = sharedData('sanctions', 'opensanctions_senzing', 'peps_senzing.json');
    if (!file) return t.skip(SKIP_NO_DATA);
    const es = parseSenzingJson(readFileSync(file));
    assert.deepEqual(
      es.map((e) => e.names[0]!.full),
      ['John Smith', 'Maria Garcia Lopez', 'Ministry of Finance'],
    );
    assert.deepEqual(es[0]!.datasets, ['pep']);
    assert.deepEqual(es[0]!.birthDates, [{ date: '1965-03-15' }]);
    assert.deepEqual(es[0]!.nationalities, ['US']);
    assert.equal(es[2]!.schema, 'organization');
    assert.deepEqual(es[2]!.countries, ['DE']);
  });

  test('grouped attributes (NAMES, IDENTIFIERS arrays) as JSON lines', () => {
    const line = JSON.stringify({
      DATA_SOURCE: 'OS_SANCTIONS',
      RECORD_ID: 'x1',
      RECORD_TYPE: 'PERSON',
      NAMES: [
        { NAME_TYPE: 'PRIMARY', NAME_FULL: 'Ivan Testov' },
        { NAME_TYPE: 'ALIAS', NAME_FIRST: 'Vanya', NAME_LAST: 'Testov' },
      ],
      IDENTIFIERS: [{ PASSPORT_NUMBER: 'P123' }],
    });
    const [e] = parseSenzingJson(line);
    assert.deepEqual(
      e!.names.map((n) => n.full),
      ['Ivan Testov', 'Vanya Testov'],
    );
    assert.deepEqual(e!.identifiers, [{ type: 'passport', value: 'P123' }]);
    assert.deepEqual(e!.datasets, ['sanctions']);
  });
});
