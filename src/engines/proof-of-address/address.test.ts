import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseAddress } from './address.js';
import { findDates } from './dates.js';

describe('parseAddress', () => {
  const cases: Array<[string[] | string, string, string, string, string | undefined]> = [
    [['Flat 4', '117 Victoria Road', 'LEEDS', 'LS3 4AN', 'UNITED KINGDOM'], 'LS3 4AN', 'GB', 'Leeds', 'country_line'],
    ['193 Queens Drive, LONDON, SW13 3PJ', 'SW13 3PJ', 'GB', 'London', 'postcode_format'],
    [['742 Maple Street', 'Apt 4B', 'Austin, TX 73301-1234'], '73301-1234', 'US', 'Austin', 'postcode_format'],
    [['14 rue des Lilas', '75011 Paris'], '75011', 'FR', 'Paris', 'street_words'],
    [['Gartenweg 115', '20266 Hamburg', 'Germany'], '20266', 'DE', 'Hamburg', 'country_line'],
    [['Molenlaan 92', '5918 EP Utrecht'], '5918 EP', 'NL', 'Utrecht', 'postcode_format'],
    [['11 Harbour View', 'Dublin', 'D02 N93K'], 'D02 N93K', 'IE', 'Dublin', 'postcode_format'],
  ];
  for (const [input, postcode, country, city, source] of cases) {
    test(`${JSON.stringify(input)} -> ${country} ${postcode}`, () => {
      const a = parseAddress(input);
      assert.equal(a.postcode, postcode);
      assert.equal(a.country, country);
      assert.equal(a.city, city);
      assert.equal(a.countrySource, source);
      assert.equal(a.valid, true);
    });
  }
  test('five digits without street words stay ambiguous unless hinted', () => {
    assert.equal(parseAddress(['Residenz 4', '80331 München']).country, null);
    const hinted = parseAddress(['Residenz 4', '80331 München'], 'DE');
    assert.equal(hinted.country, 'DE');
    assert.equal(hinted.countrySource, 'hint');
  });
  test('a line without a postcode does not parse', () => {
    const a = parseAddress(['12 High Street', 'Somewhere']);
    assert.equal(a.postcode, null);
    assert.equal(a.valid, false);
  });
});

describe('findDates', () => {
  test('reads the usual printed forms', () => {
    const text = 'Bill date 3 March 2026; due March 17, 2026; ref 2026-02-01; 04.05.2026 and 5th Jan 2026';
    assert.deepEqual(
      findDates(text).map((d) => d.iso),
      ['2026-03-03', '2026-03-17', '2026-02-01', '2026-05-04', '2026-01-05'],
    );
  });
  test('slashed dates follow the country convention unless a part exceeds 12', () => {
    assert.equal(findDates('03/04/2026')[0]?.iso, '2026-04-03');
    assert.equal(findDates('03/04/2026', true)[0]?.iso, '2026-03-04');
    assert.equal(findDates('25/02/2026', true)[0]?.iso, '2026-02-25');
    assert.deepEqual(findDates('31/02/2026 99/99/2026'), []);
  });
});
