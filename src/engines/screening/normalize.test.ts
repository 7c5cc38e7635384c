import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeText, prepareName } from './normalize.js';
import { transliterate } from './transliterate.js';
import { phoneticKey, consonantSkeleton } from './phonetic.js';
import type { ListEntity } from './types.js';
import { countryCode } from './countries.js';

describe('normalisation', () => {
  test('diacritics, case, punctuation and apostrophes', () => {
    assert.equal(normalizeText('José  MARÍA Ñúñez-Ødegård').text, 'jose maria nunez odegard');
    assert.equal(normalizeText("O'Brien, Seán").text, 'obrien sean');
    assert.equal(normalizeText('Straße').text, 'strasse');
  });

  test('transliterates Cyrillic, Greek, Arabic, Hebrew, Georgian, Armenian and Hangul', () => {
    assert.equal(normalizeText('Владимир Путин').text, 'vladimir putin');
    // Without a Ukrainian-only letter the Russian convention is used; with one, the Ukrainian.
    assert.equal(normalizeText('Володимир Зеленський').text, 'volodimir zelenskiy');
    assert.equal(normalizeText('Віталій Кличко').text, 'vitaliy klychko');
    assert.equal(normalizeText('Νικόλαος').text, 'nikolaos');
    assert.equal(normalizeText('محمد').text, 'mhmd');
    assert.equal(transliterate('محمد').abjad, true);
    assert.equal(normalizeText('דוד').text, 'dvd');
    assert.equal(normalizeText('მიხეილ').text, 'mikheil');
    assert.equal(normalizeText('Արամ').text, 'aram');
    assert.equal(normalizeText('김정은').text, 'kim jeong eun');
  });

  test('Han characters are read in pinyin, a personal name as surname + joined given name', () => {
    assert.equal(normalizeText('习近平').text, 'xi jinping');
    assert.equal(normalizeText('習近平').text, 'xi jinping');
    // Han characters are read in Mandarin; Korean and Japanese readings are alternatives (han-readings.ts).
    assert.equal(normalizeText('金正恩').text, 'jin zhengen');
  });

  test('a name written in Han characters only keeps its characters for same-script comparison', () => {
    assert.equal(prepareName('习近平', 'person').han, '习近平');
    assert.equal(prepareName('Xi 近平', 'person').han, undefined);
  });

  test('legal forms are canonicalised and weigh little', () => {
    const a = prepareName('Acme Trading Limited Liability Company', 'organization');
    assert.deepEqual(
      a.tokens.map((t) => t.text),
      ['acme', 'trading', 'llc'],
    );
    assert.equal(a.tokens[2]!.kind, 'legal');
    const ru = prepareName('ООО "Байкал"', 'organization');
    assert.deepEqual(
      ru.tokens.map((t) => [t.text, t.kind]),
      [
        ['llc', 'legal'],
        ['baykal', 'word'],
      ],
    );
    assert.equal(prepareName('A.B.C. Company', 'organization').tokens[0]!.text, 'abc');
  });

  test('honorifics are dropped for people only when a name remains', () => {
    assert.deepEqual(
      prepareName('Dr. Ayman al-Zawahiri', 'person').tokens.map((t) => t.text),
      ['ayman', 'al', 'zawahiri'],
    );
    assert.deepEqual(
      prepareName('General', 'person').tokens.map((t) => t.text),
      ['general'],
    );
  });

  test('phonetic key folds transliteration variants', () => {
    assert.equal(phoneticKey('mikhail'), phoneticKey('mihail'));
    assert.equal(phoneticKey('philip'), phoneticKey('filip'));
    assert.equal(phoneticKey('alexander'), phoneticKey('aleksander'));
    assert.notEqual(phoneticKey('smith'), phoneticKey('jones'));
    assert.equal(consonantSkeleton('mohammed'), consonantSkeleton('mhmd'));
  });

  test('country names as lists write them', () => {
    assert.equal(countryCode('Korea, North'), 'KP');
    assert.equal(countryCode("Democratic People's Republic of Korea"), 'KP');
    assert.equal(countryCode('Iran (Islamic Republic of)'), 'IR');
    assert.equal(countryCode('Türkiye'), 'TR');
    assert.equal(countryCode('ru'), 'RU');
    assert.equal(countryCode('Atlantis'), undefined);
  });
});

test('words that name Object.prototype members are ordinary name tokens', async () => {
  const { ScreeningIndex } = await import('./index.js');
  const entity: ListEntity = {
    id: 'x:1',
    source: 'custom',
    datasets: ['sanctions'],
    schema: 'organization',
    names: [{ full: 'Constructor Toolmakers Ltd', quality: 'strong' }],
    birthDates: [],
    nationalities: [],
    countries: [],
    addresses: [],
    identifiers: [],
    programs: [],
  };
  const index = ScreeningIndex.build([entity]);
  const r = index.screen({ name: 'Constructor Toolmakers Limited', schema: 'organization' });
  assert.equal(r.hits[0]?.entityId, 'x:1');
  assert.doesNotThrow(() => index.screen({ name: '__proto__ constructor hasOwnProperty' }));
});
