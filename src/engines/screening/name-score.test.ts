import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compareNames, PAIR_MIN, tokenSimilarity } from './name-score.js';
import { prepareEntity, prepareQuery, scoreEntity } from './entity-score.js';
import { prepareName } from './normalize.js';
import type { EntitySchema, ListEntity } from './types.js';
import { sharedData, SKIP_NO_DATA } from '../../providers/lists/fixtures/shared-data.js';

const sim = (a: string, b: string, schema: EntitySchema = 'unknown'): number =>
  compareNames(prepareName(a, schema), prepareName(b, schema)).score;
const T = 0.8; // DEFAULT_THRESHOLD

describe('compareNames', () => {
  test('transliteration: Cyrillic and Latin spellings of one name are equal', () => {
    assert.equal(sim('Владимир Путин', 'Vladimir Putin'), 1);
    assert.ok(sim('Александр Петров', 'Alexander Petrov') >= 0.9);
  });

  test('name order does not matter', () => {
    assert.equal(sim('PUTIN, Vladimir', 'Vladimir Putin'), 1);
  });

  test('typos stay above the threshold, different names fall below', () => {
    assert.ok(sim('Olaf Scholze', 'Olaf Scholz') >= 0.95);
    assert.ok(sim('Jon Smith', 'John Smith') >= 0.9);
    assert.ok(sim('Octavian Scholz', 'Olaf Scholz') < 0.5);
    assert.ok(sim('Pedro Sancho', 'Pedro Sánchez') < sim('Pedro Sanchez', 'Pedro Sánchez'));
  });

  test('a missing middle name lowers the score a little, a different one a lot', () => {
    const missing = sim('Nicolas Maduro', 'Nicolas Maduro Moros');
    const different = sim('Nicolas Perez', 'Nicolas Maduro');
    assert.ok(missing >= T && missing < 1);
    assert.ok(different < 0.6);
  });

  test('legal forms: equivalent forms match, the name must still agree', () => {
    assert.ok(sim('Acme Trading Ltd', 'ACME TRADING LIMITED', 'organization') >= 0.99);
    assert.ok(sim('Acme Trading LLC', 'Acme Trading Inc', 'organization') >= T);
    assert.ok(sim('Acme Ltd', 'Apex Ltd', 'organization') < T);
  });

  test('joined and split spellings', () => {
    assert.ok(sim('Abdul Rahman', 'Abdulrahman') >= T);
  });

  test('Arabic script against vocalised Latin', () => {
    assert.ok(sim('محمد علي', 'Mohamed Ali') >= 0.9);
    assert.ok(sim('خالد محمود', 'Khaled Mahmoud') >= 0.9);
  });

  test('explains the alignment', () => {
    const c = compareNames(prepareName('Jon Smith'), prepareName('SMITH, John Paul'));
    assert.deepEqual(c.pairs.map((p) => p.query).sort(), ['jon', 'smith']);
    assert.deepEqual(c.extra, ['paul']);
  });

  test('Watchman cross-script pairs reach the upstream minimum', (t) => {
    const file = sharedData('name_matching', 'watchman', 'cross_script_pairs.csv');
    if (!file) return t.skip(SKIP_NO_DATA);
    const rows = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split(','));
    assert.ok(rows.length >= 21);
    // Including a Korean name in hanja and Japanese names in kanji, through their Korean and Japanese
    // readings (han-readings.ts).
    for (const [q, expected, min] of rows) {
      const s = sim(q!, expected!);
      assert.ok(s >= Number(min), `${q} vs ${expected}: ${s} < ${min}`);
    }
  });

  test('Han against Han compares characters, not readings', () => {
    assert.equal(sim('习近平', '习近平', 'person'), 1);
    // Homophone characters are different names (高市 vs 高石, both "gaoshi").
    assert.ok(sim('高石早苗', '高市早苗', 'person') < T);
    assert.ok(sim('习近朋', '习近平', 'person') < T);
    // Across scripts the reading is what counts.
    assert.equal(sim('習近平', 'Xi Jinping', 'person'), 1);
  });
});

describe('systematic variants (each rule stands for a category of the nomenklatura breakdown)', () => {
  test('numbers written as words are numbers in organisation names', () => {
    assert.ok(sim('Brigade Forty-Four', 'Brigade 44', 'organization') >= T);
    // Unhyphenated words are separate numbers ("eighty eight" is 80 and 8), so reordering keeps them.
    assert.equal(sim('Eleven Eighty Eight Limited', 'Limited Eight Eighty Eleven', 'organization'), 1);
    assert.ok(sim('Three Percenters', '3 Percenters', 'organization') >= T);
    // A different number is a sibling entity: written in words it scores as it does in digits.
    assert.equal(sim('Brigade Forty-Five', 'Brigade 44', 'organization'), sim('Brigade 45', 'Brigade 44', 'organization'));
    // Only known misspellings are read as numbers: "Steven" is not seven.
    assert.equal(prepareName('Steven Trading', 'organization').tokens[0]!.text, 'steven');
    // People's names are left alone.
    assert.equal(prepareName('Seven Smith', 'person').tokens[0]!.text, 'seven');
  });

  test('a legal form written into the name is the same name', () => {
    assert.ok(sim('SiemensAG', 'Siemens AG', 'organization') >= T);
    assert.ok(sim('SiemensAG', 'Siemens Energy AG', 'organization') < T);
  });

  test("a person's joined initials are initials", () => {
    assert.ok(sim('JC Juncker', 'Jean-Claude Juncker', 'person') >= T);
    assert.ok(sim('JC Juncker', 'Pierre Juncker', 'person') < T);
    // "Ng" is a surname, and abjad transliterations are vowelless words, not initials.
    assert.equal(prepareName('Ng Kam', 'person').tokens[0]!.kind, 'word');
    assert.equal(prepareName('AL-DJ, Mahmoud', 'person').tokens[1]!.text, 'dj');
    assert.equal(prepareName('Dr. Ghasemi', 'person').tokens[0]!.text, 'dr');
  });

  test('a name of initials only is never a match on its own', () => {
    assert.ok(sim('N.N.', 'Nursultan Nazarbayev', 'person') < T);
  });

  test('father and son swapped around bin/ibn are different people; a fully reversed name is not a swap', () => {
    assert.ok(sim('Salman bin Muhammad al-Rawi', 'Muhammad bin Salman al-Rawi', 'person') < T);
    assert.ok(sim('Ahmad bin Hasan', 'Hasan bin Ahmad', 'person') < T);
    assert.ok(sim('Muhammad bin Salman al-Rawi', 'al-Rawi Muhammad bin Salman', 'person') >= T);
    assert.equal(sim('Muhammad bin Salman al-Rawi', 'MUHAMMAD BIN SALMAN AL-RAWI', 'person'), 1);
    // A chain with one link left out is not a swap.
    assert.ok(sim('Tarek Habib ben al-Toumi al-Maaroufi', 'Tarek ben Habib ben al-Toumi al-Maaroufi', 'person') >= T);
  });

  test('common given-name variants: Ted/Theodore, Ben/Benjamin', () => {
    assert.ok(sim('Ted Doe', 'Theodore Doe', 'person') >= T);
    assert.ok(sim('Benny Gantz', 'Benjamin Gantz', 'person') >= T);
  });
});

describe('Wade-Giles names also read in pinyin', () => {
  test('converted only with a Wade-Giles mark, syllable by syllable', async () => {
    const { wadeGilesToPinyin } = await import('./wade-giles.js');
    assert.equal(wadeGilesToPinyin('Mao Tse-tung'), 'mao zedong');
    assert.equal(wadeGilesToPinyin("Teng Hsiao-p'ing"), 'deng xiaoping');
    assert.equal(wadeGilesToPinyin("Ts'ai Ing-wen"), 'cai yingwen');
    assert.equal(wadeGilesToPinyin('Hsu Chih-mo'), 'xu zhimo');
    // No Wade-Giles-only spelling, or not Chinese syllables: left alone.
    assert.equal(wadeGilesToPinyin('Li Peng'), undefined);
    assert.equal(wadeGilesToPinyin('Kim Yong-chol'), undefined);
    assert.equal(wadeGilesToPinyin('Hussein Ali'), undefined);
    assert.equal(wadeGilesToPinyin('Natsume Soseki'), undefined);
  });
  test('matches the pinyin and the Han spelling; the name as written still counts', () => {
    assert.equal(sim('Mao Tse-tung', 'Mao Zedong', 'person'), 1);
    assert.ok(sim('Hsi Chin-ping', 'Xi Jinping', 'person') >= T);
    assert.equal(sim("Ts'ai Ing-wen", '蔡英文', 'person'), 1);
    assert.ok(sim('Mao Tsetung', 'Mao Tse-tung', 'person') >= T);
    assert.ok(sim('Mao Tse-tung', 'Xi Jinping', 'person') < T);
  });
});

describe('no cliff at PAIR_MIN; an absolute edit budget', () => {
  const word = (w: string) => prepareName(w, 'person').tokens[0]!;

  test('the score falls continuously and monotonically as one surname grows more different', () => {
    const surnames = [
      'merkel',
      'merkell',
      'merkle',
      'merkal',
      'markel',
      'morkal',
      'merkelova',
      'merkur',
      'merkow',
      'mercer',
      'menkal',
      'marker',
      'merlin',
      'mark',
      'merton',
      'melkur',
      'perkins',
      'wolff',
    ];
    const rows = surnames.map((w) => ({
      w,
      s: tokenSimilarity(word(w), word('merkel'), false),
      score: sim(`Angela ${w}`, 'Angela Merkel', 'person'),
    }));
    rows.sort((a, b) => b.s - a.s);
    // The sequence straddles PAIR_MIN closely on both sides.
    assert.ok(rows.some((r) => r.s >= PAIR_MIN && r.s < PAIR_MIN + 0.01));
    assert.ok(rows.some((r) => r.s < PAIR_MIN && r.s > PAIR_MIN - 0.02));
    for (let k = 1; k < rows.length; k++) {
      const [prev, cur] = [rows[k - 1]!, rows[k]!];
      assert.ok(cur.score <= prev.score, `${cur.w} (${cur.score}) scores above ${prev.w} (${prev.score})`);
      // A step in word similarity moves the name score by a bounded multiple of it: no jump such as
      // 0.77 → 0.33 for 0.78 → 0.77 (0.001 allows for rounding to three decimals).
      assert.ok(prev.score - cur.score <= 6 * (prev.s - cur.s) + 0.001, `${prev.w} ${prev.score} → ${cur.w} ${cur.score}`);
    }
    // The ends are unchanged: an exact surname is 1, an unrelated one a full contradiction (1 / 3).
    assert.equal(rows[0]!.score, 1);
    assert.equal(rows[rows.length - 1]!.score, 0.333);
  });

  test('a single differing word with two edits is no longer scored as an unrelated word', () => {
    const weak = sim('Igor Sechev', 'Igor Sechin', 'person');
    assert.ok(weak > 0.6 && weak < T, String(weak));
    assert.ok(weak > sim('Igor Wolff', 'Igor Sechin', 'person'));
  });

  test('a weakly paired word is shown with its similarity and still reads as a difference', () => {
    const c = compareNames(prepareName('Igor Sechev', 'person'), prepareName('Igor Sechin', 'person'));
    const p = c.pairs.find((x) => x.query === 'sechev');
    assert.ok(p && p.candidate === 'sechin' && p.similarity < PAIR_MIN);
    assert.deepEqual([c.conflictingQuery, c.conflictingCandidate, c.extra], [['sechev'], ['sechin'], []]);
    const listed: ListEntity = {
      id: 'custom:1',
      source: 'custom',
      datasets: [],
      schema: 'person',
      names: [{ full: 'Igor Sechin', quality: 'strong' }],
      birthDates: [],
      nationalities: [],
      countries: [],
      addresses: [],
      identifiers: [],
      programs: [],
    };
    const e = scoreEntity(prepareQuery({ name: 'Igor Sechev', schema: 'person' }), prepareEntity(listed));
    assert.ok(e.explanation.contradicted.some((t) => t === 'name words differ: "sechev" vs "sechin"'));
    assert.ok(e.explanation.matched[0]!.includes('sechev~sechin (0.77)'));
  });

  test('three edits or more: spelling alone makes at most the weakest aligned pair', () => {
    assert.ok(tokenSimilarity(word('ronaldinho'), word('ronaldo'), false) <= PAIR_MIN);
    assert.ok(tokenSimilarity(word('abdurrahim'), word('abdurrahman'), false) <= PAIR_MIN);
    assert.ok(sim('Cristiano Ronaldinho', 'Cristiano Ronaldo', 'person') < T);
    assert.ok(sim('Luis Monteiro', 'Luis Montenegro', 'person') < T);
    // Known variants are other evidence: Alexander / Aleksandr are three edits apart.
    assert.ok(tokenSimilarity(word('alexander'), word('aleksandr'), false) >= 0.9);
    // One and two edits are untouched by the cap.
    assert.ok(sim('Olaf Scholze', 'Olaf Scholz') >= 0.95);
  });

  test('the joined-string comparison keeps to two edits: it is for words split or joined differently', () => {
    assert.ok(sim('OTHMAN AHMED OTHMAN AL-HARBI', 'OTHMAN AHMED OTHMAN AL-GHAMDI', 'person') < T);
    assert.ok(sim('NAZIRULLAH HANAFI HAMIDULLAH', 'NAZIRULLAH HANAFI WALIULLAH', 'person') < T);
    assert.ok(sim('Industrial and Commercial Bank of Chad Limited', 'Industrial and Commercial Bank of China Limited', 'organization') < T);
    assert.ok(sim('Abd Allah Hassan', 'Abdallah Hasan', 'person') >= T);
    assert.ok(sim('Abdul Rahman', 'Abdulrahman') >= T);
  });
});
