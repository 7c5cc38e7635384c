import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { hanTranscription, hanUnit } from './han-transcription.js';
import { tamilUnits } from './tamil.js';
import { latinKeys, transcriptionCost, transcriptionKeys, transcriptionSimilarity, type TranscriptionUnit } from './transcription.js';
import { compareNames } from './name-score.js';
import { prepareName } from './normalize.js';
import { DEFAULT_THRESHOLD, ScreeningIndex } from './index.js';
import type { ListEntity } from './types.js';

const han = (word: string): TranscriptionUnit[] => [...word].map((c) => hanUnit(c)!);
const sim = (a: string, b: string): number => compareNames(prepareName(a, 'person'), prepareName(b, 'person')).score;

describe('syllable-aware comparison', () => {
  test('a unit spells any one of its options per part, at the option cost; extra or missing letters cost', () => {
    const units: TranscriptionUnit[] = [
      [
        [
          ['v', 0],
          ['f', 0],
        ],
        [
          ['', 0],
          ['u', 0.3],
        ],
      ],
      [[['la', 0]]],
    ];
    assert.equal(transcriptionCost(units, 'vla'), 0);
    assert.equal(transcriptionCost(units, 'fla'), 0);
    assert.ok(Math.abs(transcriptionCost(units, 'fula') - 0.3) < 1e-9);
    assert.ok(transcriptionCost(units, 'vlad') >= 1);
    assert.equal(transcriptionCost(units, 'vlad', 0.5), Infinity, 'stops once the limit is passed');
  });
  test('coarse keys: the Latin word and the transcription meet on consonant classes', () => {
    assert.deepEqual(latinKeys('vladimir'), ['PRTMR']);
    assert.ok(transcriptionKeys(han('弗拉基米尔'))!.includes('PRTMR'));
    assert.ok(transcriptionKeys(han('普京'))!.includes(latinKeys('putin')[0]!));
    // A final nasal Chinese leaves out ("Hlaing" 莱) is indexed without it as well.
    assert.deepEqual(latinKeys('hlaing'), ['RN', 'R']);
  });
});

describe('Chinese transcriptions of foreign names (Xinhua grid, from pinyin)', () => {
  test('names with the interpunct or made of transcription characters are read as transcriptions', () => {
    assert.deepEqual(
      hanTranscription('弗拉基米尔·普京')?.map((w) => w.text),
      ['fulajimier', 'pujing'],
    );
    assert.ok(hanTranscription('普京'));
    assert.ok(hanTranscription('德里帕斯卡'));
    assert.ok(hanTranscription('梅德韦杰夫'), 'four characters or more: not a Chinese name although 梅 is a surname');
  });
  test('Chinese names are not: a common surname first, or a character outside the stock', () => {
    assert.equal(hanTranscription('王伟'), undefined);
    assert.equal(hanTranscription('李娜'), undefined);
    assert.equal(hanTranscription('习近平'), undefined);
    assert.equal(hanTranscription('马杜罗'), undefined, '马 is a surname: without the interpunct the name is taken for a Chinese one');
    assert.equal(hanTranscription('Putin'), undefined);
  });
  test('the characters read as the grid writes foreign sounds', () => {
    assert.ok(transcriptionSimilarity(han('弗拉基米尔'), 'vladimir') >= 0.93);
    assert.ok(transcriptionSimilarity(han('拉夫罗夫'), 'lavrov') >= 0.93);
    assert.ok(transcriptionSimilarity(han('谢尔盖'), 'sergey') >= 0.93);
    assert.ok(transcriptionSimilarity(han('谢钦'), 'sechin') >= 0.93);
    assert.ok(transcriptionSimilarity(han('弗拉基米尔'), 'vladislav') < 0.78);
    assert.ok(transcriptionSimilarity(han('普京'), 'pushkin') < 0.85);
  });
  test('full names score like their Latin spelling, different people stay apart', () => {
    assert.ok(sim('弗拉基米尔·普京', 'PUTIN, Vladimir Vladimirovich') >= DEFAULT_THRESHOLD);
    assert.ok(sim('谢尔盖·拉夫罗夫', 'Sergey Lavrov') >= DEFAULT_THRESHOLD);
    assert.ok(sim('弗拉基米尔·纳博科夫', 'PUTIN, Vladimir Vladimirovich') < DEFAULT_THRESHOLD);
    assert.ok(sim('谢尔盖·拉夫罗夫', 'Sergey Lavrenov') < 0.95);
  });
});

describe('Tamil (no voiced stop letters, vowels that break clusters)', () => {
  const tamil = (w: string): TranscriptionUnit[] => tamilUnits(w)!;
  test('a stop letter stands for the voiced and the voiceless sound; a doubled one for one consonant', () => {
    assert.ok(transcriptionSimilarity(tamil('தாவூத்'), 'dawood') >= 0.9);
    assert.ok(transcriptionSimilarity(tamil('பூட்டின்'), 'putin') >= 0.93);
    assert.ok(transcriptionSimilarity(tamil('இப்ராஹிம்'), 'ibrahim') >= 0.93);
  });
  test('the vowel Tamil adds to a foreign cluster may be left out (விளா for vla)', () => {
    assert.ok(transcriptionSimilarity(tamil('விளாதிமிர்'), 'vladimir') >= 0.9);
  });
  test('different words stay apart', () => {
    assert.ok(transcriptionSimilarity(tamil('தாவூத்'), 'taylor') < 0.78);
    assert.ok(transcriptionSimilarity(tamil('பூட்டின்'), 'martin') < 0.78);
  });
});

test('the index retrieves a listed Latin name from its Chinese or Tamil transcription', () => {
  const person = (id: string, full: string): ListEntity => ({
    id,
    source: 'custom',
    datasets: ['sanctions'],
    schema: 'person',
    names: [{ full, quality: 'strong' }],
    birthDates: [],
    nationalities: [],
    countries: [],
    addresses: [],
    identifiers: [],
    programs: [],
  });
  const index = ScreeningIndex.build([
    person('t:putin', 'PUTIN, Vladimir Vladimirovich'),
    person('t:dawood', 'IBRAHIM, Dawood'),
    person('t:wang', 'WANG Wei'),
    person('t:other', 'Maria Gonzalez'),
  ]);
  const hits = (name: string): string[] => index.screen({ name, schema: 'person' }).hits.map((h) => h.entityId);
  assert.deepEqual(hits('弗拉基米尔·普京'), ['t:putin']);
  assert.deepEqual(hits('விளாதிமிர் பூட்டின்'), ['t:putin']);
  assert.deepEqual(hits('தாவூத் இப்ராஹிம்'), ['t:dawood']);
  assert.deepEqual(hits('弗拉基米尔·纳博科夫'), []);
  // A Chinese name is still read in pinyin only.
  assert.deepEqual(hits('王伟'), ['t:wang']);
});
