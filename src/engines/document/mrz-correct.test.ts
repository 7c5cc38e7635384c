import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { correctMrz, mergeReadings, normaliseOcrLines } from './mrz-correct.js';
import { parseMrz } from './mrz-parse.js';
import { checkDigit } from './mrz-check.js';
import { voteLines } from './mrz-vote.js';
import { sharedDataDir, MISSING_DATA } from '../../../test/fixtures/documents/shared-data.js';

const NOW = new Date('2026-01-01T00:00:00Z');

/** The MRZ is valid with `number`, made so by exactly this one check-digit substitution. */
function assertRepaired(
  r: ReturnType<typeof correctMrz>,
  number: string,
  fix: { line: number; column: number; from: string; to: string },
): void {
  assert.equal(r?.parsed.fields.documentNumber, number);
  assert.equal(r?.parsed.valid, true);
  assert.deepEqual(
    r?.corrections.filter((c) => c.reason === 'check_digit'),
    [{ ...fix, reason: 'check_digit' }],
  );
}
const dataDir = sharedDataDir();
interface Call {
  input: string[] | string;
  options: { autocorrect?: boolean } | null;
  result?: { valid: boolean; invalid_fields: { error: string }[]; fields: Record<string, string | null> };
}

describe('correctMrz on the cheminfo autocorrect vectors (OCR-style confusions)', { skip: dataDir === null ? MISSING_DATA : false }, () => {
  const cases =
    dataDir === null
      ? []
      : (
          JSON.parse(readFileSync(join(dataDir, 'mrz/cheminfo_mrz_test_vectors.json'), 'utf8')) as {
            cases: { suite: string; test: string; parse_calls: Call[] }[];
          }
        ).cases;
  for (const c of cases) {
    const clean = c.parse_calls.find((p) => !p.options?.autocorrect);
    const noisy = c.parse_calls.find((p) => p.options?.autocorrect);
    if (!clean || !noisy || !Array.isArray(noisy.input) || !Array.isArray(clean.input)) continue;
    if (!['td1', 'td2', 'td3'].includes(c.suite)) continue;
    test(`${c.suite}: ${c.test}`, () => {
      const r = correctMrz(noisy.input as string[], NOW);
      assert.ok(r);
      // Names have no check digit, so their digit/letter confusions are fixed by field type alone.
      assert.deepEqual(r.parsed.lines, clean.input);
      assert.equal(r.parsed.checkDigitsValid, true);
      assert.ok(r.corrections.length > 0);
    });
  }
});

describe('OCR line clean-up and check-digit-guided correction', () => {
  test('drops stray edge tokens and visual-zone lines, pads short lines', () => {
    const text = 'PASSPORT UTOPIA\n0 P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10 .\n';
    assert.deepEqual(normaliseOcrLines(text), [
      'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
      'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
    ]);
  });
  test('a stray character before the document code is dropped: the names line is not shifted (issue #19)', () => {
    const l2 = 'L898902C36UTO7408122F1204159ZE184226B<<<<<10';
    // A filler glued to the line's start (a card edge), and a letter no document code starts with (a speck).
    assert.equal(
      normaliseOcrLines(`<P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\n${l2}`)[0],
      'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
    );
    assert.equal(
      normaliseOcrLines(`LI<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<\nD231458907UTO7408122F1204159<<<<<<<6`)[0],
      'I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<',
    );
    // A misread first letter of a two-letter code (IP read as LP) keeps its state code in place: not touched.
    assert.equal(
      normaliseOcrLines(`LPUTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\n${l2}`)[0],
      'LPUTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
    );
    // Nor where no existing state code comes into place.
    assert.equal(
      normaliseOcrLines(`<P<QQQERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<\n${l2}`)[0],
      '<P<QQQERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<',
    );
  });
  test('a letter read as a digit in the document number is repaired only through its check digit', () => {
    const r = correctMrz(['I<UTO0231458907<<<<<<<<<<<<<<<', '8407122M3107128UTO<<<<<<<<<<<4', 'STEVENSON<<PETER<JOHN<<<<<<<<<'], NOW);
    assertRepaired(r, 'D23145890', { line: 0, column: 5, from: '0', to: 'D' });
  });
  test('a state code read as look-alike digits is repaired; one that keeps a digit after the repair is left as read', () => {
    const l1 = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';
    const repaired = correctMrz([l1, 'L898902C36UT07408122F1204159ZE184226B<<<<<10'], NOW);
    assert.equal(repaired?.parsed.fields.nationality, 'UTO');
    // A specimen that prints digits in the nationality (Romania's 132): I3Z would be neither the print nor a state.
    const asRead = correctMrz([l1, 'L898902C361327408122F1204159ZE184226B<<<<<10'], NOW);
    assert.equal(asRead?.parsed.fields.nationality, '132');
    assert.ok(!asRead?.corrections.some((c) => c.line === 1 && c.column >= 10 && c.column < 13));
  });
  test('a genuinely wrong digit is not "corrected" into validity', () => {
    const r = correctMrz(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408132F1204159ZE184226B<<<<<10'], NOW);
    assert.equal(r?.parsed.valid, false);
    assert.equal(r?.corrections.length, 0);
  });
});

describe('mergeReadings', () => {
  const L1 = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';
  test('takes each failing field from a pass where its check digit holds, confirmed by the composite', () => {
    const a = parseMrz([L1, 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'.replace('7408122', '7408722')], { now: NOW });
    const b = parseMrz([L1, 'L8989O2C36UTO7408122F1204159ZE184226B<<<<<10'], { now: NOW });
    const m = mergeReadings([a, b], NOW);
    assert.equal(m?.valid, true);
    assert.equal(m?.fields.birthDate, '1974-08-12');
    assert.equal(m?.fields.documentNumber, 'L898902C3');
  });
  test('does not assemble a valid MRZ from passes that agree on a wrong field', () => {
    const tampered = 'L898902C36UTO7408132F1204159ZE184226B<<<<<10';
    assert.equal(mergeReadings([parseMrz([L1, tampered], { now: NOW }), parseMrz([L1, tampered], { now: NOW })], NOW), null);
  });
});

describe('check-digit substitution is guarded by the OCR evidence (issue #19)', () => {
  const TD1 = ['I<UTO0231458907<<<<<<<<<<<<<<<', '8407122M3107128UTO<<<<<<<<<<<4', 'STEVENSON<<PETER<JOHN<<<<<<<<<'];
  const sure = (lines: string[]): { confidence: number }[][] => lines.map((l) => l.split('').map(() => ({ confidence: 96 })));
  test('a character the OCR was sure of is never replaced to satisfy a check digit', () => {
    const r = correctMrz(TD1, NOW, { evidence: sure(TD1) });
    assert.equal(r?.parsed.valid, false);
    assert.deepEqual(
      r?.corrections.filter((c) => c.reason === 'check_digit'),
      [],
    );
  });
  test('an unsure character (low confidence) is replaced when exactly one look-alike satisfies the digit', () => {
    const evidence = sure(TD1);
    (evidence[0] as { confidence: number }[])[5] = { confidence: 40 };
    const r = correctMrz(TD1, NOW, { evidence });
    assert.equal(r?.parsed.fields.documentNumber, 'D23145890');
    assert.equal(r?.parsed.valid, true);
  });
  test("the OCR's own runner-up counts as doubt even at high confidence", () => {
    const evidence: ({ confidence: number; alt?: string } | null)[][] = sure(TD1);
    (evidence[0] as { confidence: number; alt?: string }[])[5] = { confidence: 92, alt: 'D' };
    assert.equal(correctMrz(TD1, NOW, { evidence })?.parsed.fields.documentNumber, 'D23145890');
  });
  test('two substitutions that both satisfy the check digit: nothing changed, the field is named ambiguous', () => {
    // O read at columns 2 and 5 of the number: 0 at either place changes the weighted sum by the same amount
    // (both weight 1), so one check digit accepts both readings and cannot tell which is right.
    const digit = String(checkDigit('12045O789'));
    assert.equal(digit, String(checkDigit('12O450789')));
    const lines = [`I<UTO12O45O789${digit}<<<<<<<<<<<<<<<`, '8407122M3107128UTO<<<<<<<<<<<4', 'STEVENSON<<PETER<JOHN<<<<<<<<<'];
    const r = correctMrz(lines, NOW);
    assert.deepEqual(r?.ambiguous, ['documentNumber']);
    assert.equal(r?.corrections.filter((c) => c.reason === 'check_digit').length, 0);
    assert.equal(r?.parsed.fields.documentNumber, '12O45O789');
  });
});

describe('names filler', () => {
  test('letters standing alone in the filler run after the names are specks, not names', () => {
    const r = correctMrz(['P<CZESPECIMEN<<VZOR<<<<<<<A<<<<<<<S<<<<<<<<<', '99006000<8CZE1102299F16090641152291111<<<<24'], NOW);
    assert.equal(r?.parsed.lines[0], 'P<CZESPECIMEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<');
    assert.equal(r?.parsed.fields.givenNames, 'VZOR');
  });
  test('a name part after a double filler is kept', () => {
    const r = correctMrz(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'], NOW);
    assert.equal(r?.parsed.fields.givenNames, 'ANNA MARIA');
  });
});

/**
 * TD1 long document numbers (ICAO 9303-5): `<` at column 14, the remainder and its check digit in optional
 * data 1. Real-shaped lines from the cheminfo/mrz test vectors (`mrz/cheminfo_mrz_test_vectors.json`): the
 * Belgian specimen card (number 600001795015, check over the number without the filler) and the Portuguese
 * card (007666667ZZ0, letters in the remainder).
 */
describe('check-digit repair of TD1 long document numbers', () => {
  const BEL = ['IDBEL600001795<0152<<<<<<<<<<<', '1301014F2311207BEL130101987398', 'SPECIMEN<<SPECIMEN<<<<<<<<<<<<'];
  const PRT = ['I<PRT007666667<ZZ00<<<<<<<<<<<', '8303143M3405293PRT<<<<<<<<<<<4', 'CACADOR<DE<ARAUJO<<ANDRE<ESTEV'];
  const at = (line: string, col: number, ch: string): string => line.slice(0, col) + ch + line.slice(col + 1);
  /** Evidence: every character sure (95) except those at the given line-1 columns (confidence 40). */
  const evidence = (lines: string[], unsure: number[]): { confidence: number }[][] =>
    lines.map((l, i) => l.split('').map((_, c) => ({ confidence: i === 0 && unsure.includes(c) ? 40 : 95 })));

  test('a look-alike read in the remainder is repaired through the check digit in optional data 1', () => {
    assert.equal(parseMrz(BEL, { now: NOW }).valid, true);
    const misread = [at(BEL[0] as string, 17, 'S'), BEL[1] as string, BEL[2] as string];
    assert.equal(parseMrz(misread, { now: NOW }).valid, false);
    const r = correctMrz(misread, NOW, { evidence: evidence(misread, [17]) });
    assertRepaired(r, '600001795015', { line: 0, column: 17, from: 'S', to: '5' });
  });

  test('a look-alike in the first nine characters of a long number is repaired against the digit in optional data 1', () => {
    const misread = [at(BEL[0] as string, 11, 'T'), BEL[1] as string, BEL[2] as string];
    const r = correctMrz(misread, NOW, { evidence: evidence(misread, [11]) });
    assert.equal(r?.parsed.fields.documentNumber, '600001795015');
    assert.equal(r?.parsed.valid, true);
    // Where the OCR was sure of that character, nothing is substituted.
    const sure = correctMrz(misread, NOW, { evidence: evidence(misread, []) });
    assert.equal(sure?.parsed.valid, false);
    assert.deepEqual(sure?.corrections, []);
  });

  test('a check digit read as a letter in optional data 1 is read as a digit (field type)', () => {
    const misread = [at(PRT[0] as string, 18, 'O'), PRT[1] as string, PRT[2] as string];
    const r = correctMrz(misread, NOW, { evidence: evidence(misread, []) });
    assert.equal(r?.parsed.valid, true);
    assert.deepEqual(r?.corrections, [{ line: 0, column: 18, from: 'O', to: '0', reason: 'field_type' }]);
  });

  test('a wrong substitution that satisfies the mod-10 digit is not reported valid', () => {
    // The first digit of the Portuguese number misread 0 → 9 (no look-alike). Swapping the remainder's
    // second Z for 2 satisfies the check digit and the composite (a mod-10 digit agrees with a wrong
    // value often): 907666667Z20 would pass every check.
    const misread = [at(PRT[0] as string, 5, '9'), PRT[1] as string, PRT[2] as string];
    const wrong = [at(misread[0] as string, 16, '2'), PRT[1] as string, PRT[2] as string];
    assert.equal(parseMrz(wrong, { now: NOW }).valid, true, 'test setup: the wrong substitution passes every check');
    // The OCR was sure of the Z: no substitution, the number stays unaccepted.
    const sure = correctMrz(misread, NOW, { evidence: evidence(misread, [5]) });
    assert.equal(sure?.parsed.valid, false);
    assert.deepEqual(sure?.corrections, []);
    // The OCR was unsure of the Z: the swap is made (the one that passes), but a long number that only a
    // substitution produced is low in the vote, i.e. named in mrz_field_ambiguous and never reported valid.
    const ev = evidence(misread, [5, 16]);
    const unsure = correctMrz(misread, NOW, { evidence: ev });
    assert.equal(unsure?.parsed.fields.documentNumber, '907666667Z20');
    assert.ok(unsure);
    const v = voteLines(
      [
        {
          engine: 'ppocr',
          lines: unsure.parsed.lines,
          parsed: unsure.parsed,
          corrections: unsure.corrections,
          ambiguous: [],
          evidence: ev,
        },
      ],
      NOW,
    );
    assert.equal(v?.fieldConfidence.find((f) => f.field === 'documentNumber')?.level, 'low');
  });

  test('two substitutions that both pass the digit of a long number: ambiguous, left as read', () => {
    // Belgian card 000590240601 (check over the number with its filler), a remainder digit misread 0 → 8.
    const bel = ['IDBEL000590240<6813<<<<<<<<<<<', '8512017F1311048BEL851201002007', 'REINARTZ<<ULRIKE<KATIA<E<<<<<<'];
    assert.equal(parseMrz([at(bel[0] as string, 16, '0'), bel[1] as string, bel[2] as string], { now: NOW }).valid, true);
    const r = correctMrz(bel, NOW, { evidence: evidence(bel, [5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17]) });
    assert.equal(r?.parsed.valid, false);
    assert.deepEqual(r?.ambiguous, ['documentNumber']);
    assert.deepEqual(r?.corrections, []);
  });
});
