import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { correctMrz, mergeReadings, normaliseOcrLines } from './mrz-correct.js';
import { parseMrz } from './mrz-parse.js';
import { checkDigit } from './mrz-check.js';
import { sharedDataDir, MISSING_DATA } from '../../../test/fixtures/documents/shared-data.js';

const NOW = new Date('2026-01-01T00:00:00Z');
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
  test('a letter read as a digit in the document number is repaired only through its check digit', () => {
    const r = correctMrz(['I<UTO0231458907<<<<<<<<<<<<<<<', '8407122M3107128UTO<<<<<<<<<<<4', 'STEVENSON<<PETER<JOHN<<<<<<<<<'], NOW);
    assert.equal(r?.parsed.fields.documentNumber, 'D23145890');
    assert.equal(r?.parsed.valid, true);
    assert.deepEqual(
      r?.corrections.filter((c) => c.reason === 'check_digit'),
      [{ line: 0, column: 5, from: '0', to: 'D', reason: 'check_digit' }],
    );
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
