import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { compareVisualZone, containsExact, containsFuzzy, withVisualZoneNames } from './viz.js';
import type { FieldConfidence } from './mrz-vote.js';
import type { MrzOcr } from './mrz-ocr.js';
import type { DocumentFields } from './types.js';

// A TD3 page at 10 px/mm (125 × 88 mm) with its MRZ band along the bottom; the OCR of the printed zone is
// given, so the test is about the comparison, not the reading.
const gray = { data: new Uint8Array(1250 * 880).fill(255), width: 1250, height: 880 };
const band = { center: { x: 625, y: 820 }, angle: 0, length: 1120, height: 70, lineCount: 2, linePitch: 40, score: 1 };
const fields = { documentNumber: 'L898902C3', surname: 'MARIA', givenNames: 'ANNA SOFIA' } as DocumentFields;
const ocrReading = (text: string, confidence = 90): MrzOcr => ({ recogniseText: async () => ({ text, confidence }) }) as unknown as MrzOcr;
const compare = (text: string, f: DocumentFields = fields, confidence = 90) =>
  compareVisualZone(gray, band, false, 'TD3', f, ocrReading(text, confidence));

describe('MRZ names against the printed zone', () => {
  test('exact and approximate containment', () => {
    assert.ok(containsExact('PASSPORT MARIA ANNA', 'Maria'));
    assert.ok(!containsExact('PASSPORT HARIA ANNA', 'MARIA'));
    assert.ok(containsFuzzy('PASSPORT HARIA ANNA', 'MARIA'));
  });

  test('names spelt the same in both zones agree', async () => {
    const v = await compare('PASSPORT UTOPIA SURNAME MARIA GIVEN NAMES ANNA SOFIA NUMBER L898902C3 NATIONALITY');
    assert.ok(v);
    assert.equal(v.readable, true);
    assert.equal(v.nameDisagreement, false);
    assert.equal(v.nameMismatch, false);
    assert.equal(v.signals.find((s) => s.name === 'viz_name_spelling_agrees')?.passed, true);
  });

  test('one letter apart (an M read as H in the MRZ) is a disagreement: neither spelling is trusted', async () => {
    const v = await compare('PASSPORT UTOPIA SURNAME MARIA GIVEN NAMES ANNA SOFIA NUMBER L898902C3 NATIONALITY', {
      ...fields,
      surname: 'HARIA',
    });
    assert.ok(v);
    assert.equal(v.surnameFound, true, 'approximately found: the same holder');
    assert.equal(v.nameDisagreement, true);
    assert.deepEqual(v.disagreeingNames, ['surname']);
    assert.equal(v.signals.find((s) => s.name === 'viz_name_spelling_agrees')?.passed, false);
  });

  test('a name absent from a zone that holds the number is a mismatch, not a disagreement; an unreadable zone judges nothing', async () => {
    const other = await compare('PASSPORT UTOPIA SURNAME JOHNSON GIVEN NAMES PETER NUMBER L898902C3 NATIONALITY');
    assert.equal(other?.nameMismatch, true);
    assert.equal(other?.nameDisagreement, false);
    const noise = await compare('~~ ## ::');
    assert.equal(noise?.readable, false);
    assert.equal(noise?.nameDisagreement, false);
    assert.equal(noise?.signals.find((s) => s.name === 'viz_name_spelling_agrees')?.passed, null);
  });

  test('names found word for word in a poorly read zone confirm the MRZ; a letter off, a part missing or a part inside a word do not', async () => {
    // Guilloches make the zone's mean confidence low (not "readable"), yet the names stand there as words.
    const zone = 'REPUBLIQUE ~ Nom MARIA ~~ Prenoms ANNA SOFIA ## 1.75 m';
    const v = await compare(zone, fields, 41);
    assert.equal(v?.readable, false);
    assert.deepEqual(v?.namesSpelt, ['surname', 'givenNames']);
    assert.equal(v?.signals.find((s) => s.name === 'viz_names_spelt_as_mrz')?.passed, true);
    assert.equal(v?.nameDisagreement, false, 'a poor read judges no disagreement');
    assert.deepEqual((await compare(zone, { ...fields, surname: 'HARIA' }, 41))?.namesSpelt, ['givenNames'], 'an M misread as H');
    assert.deepEqual((await compare('Nom MARIA Prenoms ANNA', fields, 41))?.namesSpelt, ['surname'], 'SOFIA missing');
    assert.deepEqual((await compare('Nom MARIAN Prenoms ANNASOFIA', fields, 41))?.namesSpelt, [], 'inside longer words');
    const initial = await compare('Nom MARIA Prenoms ANNA S', { ...fields, givenNames: 'ANNA S' }, 41);
    assert.deepEqual(initial?.namesSpelt, ['surname'], 'a one-letter part is never confirmed');
    const short = await compare('Nom LI Prenoms ANNA SOFIA', { ...fields, surname: 'LI' }, 41);
    assert.deepEqual(short?.namesSpelt, ['givenNames'], 'nor a two-letter one (too easily a token of a poor read)');
  });

  test('a disputed name the zone confirms is no longer low; other fields and undisputed names are left as they are', async () => {
    const level = (field: FieldConfidence['field'], l: FieldConfidence['level']): FieldConfidence => ({
      field,
      level: l,
      agreement: 0.5,
      readings: 2,
      of: 4,
      checked: field === 'documentNumber',
      rivals: [],
    });
    const before = [level('documentNumber', 'low'), level('surname', 'low'), level('givenNames', 'low')];
    const v = await compare('Nom MARIA Prenoms ANNA SOFIA L898902C3', fields, 41);
    const after = withVisualZoneNames(before, v);
    assert.deepEqual(
      after.map((f) => f.level),
      ['low', 'medium', 'medium'],
      'the number keeps its doubt: the zone confirms names only',
    );
    assert.deepEqual(withVisualZoneNames(before, null), before);
    const misread = await compare('Nom MARIA Prenoms ANNA SOFIA', { ...fields, surname: 'HARIA' }, 41);
    assert.equal(withVisualZoneNames(before, misread)[1]?.level, 'low', 'the zone does not spell the MRZ misreading');
  });
});
