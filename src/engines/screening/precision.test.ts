// Screening precision and reach (issue #18, item 15): a phonetic key does not outweigh what the letters
// show; names with two neighbouring letters swapped are still retrieved; names written in further
// scripts are retrieved and scored against their Latin list forms. Names are from the OFAC, UN and UK
// lists unless said otherwise.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { compareNames } from './name-score.js';
import { prepareName } from './normalize.js';
import { ScreeningIndex, DEFAULT_THRESHOLD } from './index.js';
import type { EntitySchema, ListEntity } from './types.js';

const sim = (a: string, b: string, schema: EntitySchema = 'unknown'): number =>
  compareNames(prepareName(a, schema), prepareName(b, schema)).score;

function entity(id: string, schema: EntitySchema, ...names: string[]): ListEntity {
  return {
    id,
    source: 'custom',
    datasets: ['sanctions'],
    schema,
    names: names.map((full) => ({ full, quality: 'strong' as const })),
    birthDates: [],
    nationalities: [],
    countries: [],
    addresses: [],
    identifiers: [],
    programs: [],
  };
}

describe('a phonetic key does not outweigh the visible difference', () => {
  test('words with one key but different letters are not a match', () => {
    // Each pair shares a phonetic key (vowels dropped, six consonants kept); before, each scored 0.88–0.93.
    assert.ok(sim('Kryeziu', 'CARUZO') < 0.5, 'KRYEZIU (OFAC 7714) vs vessel CARUZO (UK RUS2581)');
    assert.ok(sim('Musliu', 'MITZEL') < 0.5, 'MUSLIU (OFAC 7749) vs vessel MITZEL (UK RUS2787)');
    assert.ok(sim('Abbas', 'ABYSS') < DEFAULT_THRESHOLD, 'ABBAS (OFAC 2674) vs vessel ABYSS (OFAC 48315)');
    assert.ok(sim('Yassin', 'AYSAN') < 0.5);
    assert.ok(sim('warehouse', 'virreyes') < 0.5);
    assert.ok(sim('Olga Barynova', 'Oleg BARANOV', 'person') < DEFAULT_THRESHOLD, 'nomenklatura negative');
  });

  test('spelling variants the key stands for still match', () => {
    assert.ok(sim('Mohsen', 'Muhsin') >= 0.9);
    assert.ok(sim('Aleksandr', 'Alexander') >= 0.9);
    assert.ok(sim('Kaddafi', 'Qaddafi') >= 0.9);
    assert.ok(sim('Youssef', 'Yusuf') >= DEFAULT_THRESHOLD);
    // Revised and McCune-Reischauer Korean (eo/o, eu/u).
    assert.ok(sim('김정은', 'Kim Jong Un', 'person') >= 0.85);
    assert.ok(sim('Kim Jeong Eun', 'KIM Jong Un', 'person') >= 0.85);
  });

  test('a one-word name does not alert on an unrelated one-word entry, and a surname ranks its person first', () => {
    const index = ScreeningIndex.build([
      entity('ofac-sdn:7749', 'person', 'MUSLIU, Isak'),
      entity('uk:RUS2787', 'vessel', 'MITZEL'),
      entity('ofac-sdn:7714', 'person', 'KRYEZIU, Izmet'),
      entity('uk:RUS2581', 'vessel', 'CARUZO'),
    ]);
    assert.deepEqual(
      index.screen({ name: 'Mitzel' }).hits.map((h) => h.entityId),
      ['uk:RUS2787'],
    );
    assert.equal(index.screen({ name: 'Musliu' }).hits.length, 0, 'no alert on the vessel MITZEL');
    const ranked = index.screen({ name: 'Kryeziu' }, { threshold: 0.5 }).hits;
    assert.equal(ranked[0]?.entityId, 'ofac-sdn:7714');
    assert.ok(!ranked.some((h) => h.entityId === 'uk:RUS2581'));
  });
});

describe('two neighbouring letters swapped', () => {
  const index = ScreeningIndex.build([
    entity('ofac-sdn:8197', 'person', 'SHAHBANDAR, Samira'),
    entity('ofac-sdn:7723', 'person', 'LLADROVICI, Ramiz'),
    entity('ofac-sdn:7749', 'person', 'MUSLIU, Isak'),
    entity('ofac-sdn:10388', 'organization', 'FAJR INDUSTRIES GROUP'),
    entity('ofac-sdn:7637', 'organization', 'AL-AQSA FOUNDATION'),
  ]);
  const top = (name: string, schema: EntitySchema = 'person'): string | undefined => index.screen({ name, schema }).hits[0]?.entityId;

  test('in a long word (ten letters or more) the name is still retrieved', () => {
    assert.equal(top('Samira Shahbnadar'), 'ofac-sdn:8197');
    assert.equal(top('Ramiz Lldarovici'), 'ofac-sdn:7723');
    assert.equal(top('Al-Aqsa Foundaiton', 'organization'), 'ofac-sdn:7637');
  });

  test('in a word of five to nine letters too', () => {
    assert.equal(top('Isak Mulsiu'), 'ofac-sdn:7749');
    assert.equal(top('Fajr Idnustries Group', 'organization'), 'ofac-sdn:10388');
  });

  test('a word with other letters is not taken for a swap', () => {
    assert.equal(index.screen({ name: 'Samira Shahbazian', schema: 'person' }).hits.length, 0);
  });
});

describe('names in further scripts are retrieved against their Latin list forms', () => {
  const index = ScreeningIndex.build([
    entity('ofac-sdn:27225', 'person', 'HLAING, Min Aung'),
    entity('ofac-sdn:35096', 'person', 'PUTIN, Vladimir Vladimirovich', 'PUTIN, Vladimir'),
    entity('ofac-sdn:35233', 'person', 'LAVROV, Sergei Viktorovich', 'LAVROV, Sergey'),
    entity('ofac-sdn:28036', 'person', 'KIM, Kun'),
    entity('ofac-sdn:9758', 'person', 'IBRAHIM, Dawood', 'EBRAHIM, Dawood'),
    entity('ofac-sdn:13103', 'person', 'SHAKEEL, Chhota', 'SHAKEEL, Chota'),
    entity('ofac-sdn:20157', 'person', 'KIM, Jong Un'),
  ]);
  const top = (name: string): string | undefined => index.screen({ name, schema: 'person' }).hits[0]?.entityId;

  test('Burmese', () => {
    assert.equal(top('မင်းအောင်လှိုင်'), 'ofac-sdn:27225');
  });
  test('Khmer', () => {
    assert.equal(top('គន់ គីម'), 'ofac-sdn:28036');
  });
  test('Bengali, Gujarati, Telugu, Kannada, Malayalam', () => {
    assert.equal(top('ছোটা শাকিল'), 'ofac-sdn:13103');
    assert.equal(top('ভ্লাদিমির পুতিন'), 'ofac-sdn:35096');
    assert.equal(top('છોટા શકીલ'), 'ofac-sdn:13103');
    for (const name of ['దావూద్ ఇబ్రహీం', 'ದಾವೂದ್ ಇಬ್ರಾಹಿಂ', 'ദാവൂദ് ഇബ്രാഹിം']) assert.equal(top(name), 'ofac-sdn:9758', name);
  });
  test('Greek with accents and the spellings Greek gives foreign names', () => {
    assert.equal(top('Βλαντιμίρ Πούτιν'), 'ofac-sdn:35096');
    assert.equal(top('Μιν Αουνγκ Χλαϊνγκ'), 'ofac-sdn:27225');
  });
  test('Korean transcriptions of foreign names (ㅡ breaks clusters), Korean names unchanged', () => {
    assert.equal(top('블라디미르 푸틴'), 'ofac-sdn:35096');
    assert.equal(top('민 아웅 흘라잉'), 'ofac-sdn:27225');
    assert.equal(top('김정은'), 'ofac-sdn:20157');
  });
  test('katakana transcriptions are retrieved and scored (Putin below the default threshold: r/l and added vowels)', () => {
    const hits = index.screen({ name: 'ウラジーミル・プーチン', schema: 'person' }, { threshold: 0.7 }).hits;
    assert.equal(hits[0]?.entityId, 'ofac-sdn:35096');
    assert.equal(top('キム・ジョンウン'), 'ofac-sdn:20157');
  });
  test('Arabic without vowels writes a foreign v with ف', () => {
    assert.equal(top('فلاديمير بوتين'), 'ofac-sdn:35096');
    assert.equal(top('سيرغي لافروف'), 'ofac-sdn:35233');
  });
});
