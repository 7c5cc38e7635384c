import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseUnXml } from './un-xml.js';
import { sharedData, SKIP_NO_DATA } from './fixtures/shared-data.js';

describe('UN consolidated XML', () => {
  test('real file: 730 individuals and 273 entities with aliases, dates and documents', (t) => {
    const file = sharedData('sanctions', 'un_consolidated', 'UN_consolidated.xml');
    if (!file) return t.skip(SKIP_NO_DATA);
    const es = parseUnXml(readFileSync(file));
    assert.equal(es.filter((e) => e.schema === 'person').length, 730);
    assert.equal(es.filter((e) => e.schema === 'organization').length, 273);
    const badege = es.find((e) => e.id === 'un:CDi.001')!;
    assert.equal(badege.names[0]!.full, 'ERIC BADEGE');
    assert.deepEqual(badege.birthDates, [{ year: 1971 }]);
    assert.deepEqual(badege.nationalities, ['CD']);
    assert.equal(badege.gender, 'male');
    assert.equal(badege.listedAt, '2012-12-31');
    const kakolele = es.find((e) => e.id === 'un:CDi.002')!;
    assert.ok(kakolele.names.some((n) => n.full === 'FRANK KAKORERE' && n.quality === 'strong'));
    assert.ok(
      es.some((e) => e.names.some((n) => n.quality === 'weak')),
      'quality "Low" aliases are weak',
    );
    assert.ok(es.some((e) => e.identifiers.some((i) => i.type === 'passport')));
    assert.ok(
      es.some((e) => e.birthDates.some((b) => b.from && b.to)),
      'BETWEEN dates become ranges',
    );
  });

  test('a truncated download is rejected', (t) => {
    const file = sharedData('sanctions', 'un_consolidated', 'UN_consolidated.xml');
    if (!file) return t.skip(SKIP_NO_DATA);
    const text = readFileSync(file, 'utf8');
    assert.throws(() => parseUnXml(text.slice(0, text.length / 2)), /XML/);
  });
});
