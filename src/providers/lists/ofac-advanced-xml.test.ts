import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseOfacAdvancedXml } from './ofac-advanced-xml.js';

// No real SDN_ADVANCED.XML is available (only LFS pointers); this fixture follows the published XSD.
const fixture = readFileSync(new URL('./fixtures/ofac-advanced-fixture.xml', import.meta.url));

describe('OFAC SDN advanced XML (schema fixture)', () => {
  test('individual: names, weak alias, birth date, nationality, gender, passport, crypto, programme', () => {
    const [p] = parseOfacAdvancedXml(fixture);
    assert.equal(p!.id, 'ofac-sdn:99001');
    assert.equal(p!.schema, 'person');
    assert.deepEqual(p!.names, [
      { full: 'TESTOV Pavel Sergeyevich', quality: 'strong' },
      { full: 'PASHA', quality: 'weak' },
    ]);
    assert.deepEqual(p!.birthDates, [{ date: '1981-07-04' }]);
    assert.deepEqual(p!.nationalities, ['RU']);
    assert.equal(p!.gender, 'male');
    assert.deepEqual(p!.identifiers, [
      { type: 'passport', value: '7501234567', country: 'RU' },
      { type: 'crypto:XBT', value: '1TestAddressXBT9zzzzzzzzzzzzzzzzzz' },
      { type: 'crypto:ETH', value: '0x00000000000000000000000000000000DeaDBeef' },
    ]);
    assert.deepEqual(p!.programs, ['CYBER2']);
    assert.equal(p!.listedAt, '2024-05-01');
  });

  test('entity', () => {
    const [, o] = parseOfacAdvancedXml(fixture);
    assert.equal(o!.schema, 'organization');
    assert.deepEqual(o!.programs, ['RUSSIA-EO14024']);
  });
});
