import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ScreeningIndex } from './index.js';
import type { ListEntity } from './types.js';

// The screening index retrieves candidates by name tokens: transliterated names and alternative readings
// (a Wade-Giles name's pinyin) must be retrievable, not only scorable.
const person = (id: string, ...names: string[]): ListEntity => ({
  id,
  source: 'custom',
  datasets: ['sanctions'],
  schema: 'person',
  names: names.map((full) => ({ full, quality: 'strong' as const })),
  birthDates: [],
  nationalities: [],
  countries: [],
  addresses: [],
  identifiers: [],
  programs: [],
});
const index = ScreeningIndex.build([
  person('t:mao', 'Mao Zedong'),
  person('t:xi', 'Xi Jinping'),
  person('t:tsai', "Ts'ai Ing-wen"),
  person('t:somchai', 'Somchai Wongsawat'),
  person('t:modi', 'Narendra Modi'),
  person('t:obama', 'Barack Obama'),
  person('t:other', 'Maria Gonzalez'),
]);
const top = (name: string): string | undefined => index.screen({ name, schema: 'person' }).hits[0]?.entityId;

describe('screening index: names in other scripts and readings are retrieved', () => {
  test('Han, kana, Thai and Devanagari queries find the Latin entry', () => {
    assert.equal(top('习近平'), 't:xi');
    assert.equal(top('毛泽东'), 't:mao');
    assert.equal(top('バラク・オバマ'), 't:obama');
    assert.equal(top('สมชาย วงศ์สวัสดิ์'), 't:somchai');
    assert.equal(top('नरेन्द्र मोदी'), 't:modi');
  });
  test('a Wade-Giles query finds the pinyin entry, and a Wade-Giles entry is found by pinyin and Han', () => {
    assert.equal(top('Mao Tse-tung'), 't:mao');
    assert.equal(top('Cai Yingwen'), 't:tsai');
    assert.equal(top('蔡英文'), 't:tsai');
  });
  test('an unrelated name finds nothing', () => {
    assert.equal(top('王伟'), undefined);
  });
});
