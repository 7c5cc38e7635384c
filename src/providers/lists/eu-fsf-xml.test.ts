import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseEuFsfXml } from './eu-fsf-xml.js';

// No real EU FSF file is available in ../shared/data; this fixture was written to the published schema.
const fixture = readFileSync(new URL('./fixtures/eu-fsf-fixture.xml', import.meta.url));

describe('EU FSF XML (schema fixture)', () => {
  test('person with names in two scripts, weak alias, DOB, passport, address', () => {
    const [p] = parseEuFsfXml(fixture);
    assert.equal(p!.id, 'eu-fsf:900001');
    assert.equal(p!.schema, 'person');
    assert.deepEqual(
      p!.names.map((n) => [n.full, n.quality]),
      [
        ['Ivan Petrovich Testovsky', 'strong'],
        ['Иван Петрович Тестовский', 'strong'],
        ['Vanya', 'weak'],
      ],
    );
    assert.deepEqual(p!.birthDates, [{ date: '1970-05-12' }]);
    assert.deepEqual(p!.nationalities, ['RU']);
    assert.equal(p!.gender, 'male');
    assert.deepEqual(p!.identifiers, [{ type: 'passport', value: '750123456', country: 'RU' }]);
    assert.deepEqual(p!.programs, ['RUS']);
    assert.ok(p!.sourceUrl?.startsWith('https://eur-lex.europa.eu/'));
  });

  test('enterprise with entity-encoded quotes and a registration number', () => {
    const [, o] = parseEuFsfXml(fixture);
    assert.equal(o!.schema, 'organization');
    assert.equal(o!.names[0]!.full, 'Fictional Tractor Works "Minsk" OJSC');
    assert.deepEqual(o!.identifiers, [{ type: 'registration', value: '100000001', country: 'BY' }]);
    assert.equal(o!.remarks, 'Fictitious test entry.');
  });

  test('wrong root element is rejected', () => {
    assert.throws(() => parseEuFsfXml('<CONSOLIDATED_LIST></CONSOLIDATED_LIST>'), /unexpected root/);
  });
});
