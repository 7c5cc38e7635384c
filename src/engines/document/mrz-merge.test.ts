import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseMrz } from './mrz-parse.js';
import { align, mergeDataLines } from './mrz-merge.js';
import { voteLines, type MrzEngine, type VoteInput } from './mrz-vote.js';
import type { CharEvidence } from './mrz-correct.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const L1 = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';
const L2 = 'L898902C36UTO7408122F1204159ZE184226B<<<<<10';
/** Birth date 740818 under its printed check digit 2 (740818 → 8): the line fails. */
const BIRTH_MISREAD = L2.replace('7408122', '7408182');
/** Column of the misread birth-date digit. */
const BIRTH_COL = 18;

function reading(engine: MrzEngine, lines: string[], evidence?: (CharEvidence | null)[][]): VoteInput {
  let parsed = null;
  try {
    parsed = parseMrz(lines, { now: NOW });
  } catch {
    parsed = null;
  }
  return { engine, lines, parsed, corrections: [], ambiguous: [], ...(evidence ? { evidence } : {}) };
}

/** Evidence for `line` with one unsure character at `col` (runner-up `alt`), every other character sure. */
function evidenceAt(col: number, confidence: number, alt: string): (CharEvidence | null)[][] {
  return [L1.split('').map(() => ({ confidence: 95 })), L2.split('').map((_, c) => (c === col ? { confidence, alt } : { confidence: 95 }))];
}

describe('character-level merge of the data lines (issue #19)', () => {
  test('aligns a line that dropped a character back onto the anchor columns', () => {
    assert.deepEqual(align('ABCDEF', 'ABDEF<'), [0, 1, -1, 2, 3, 4]);
    assert.deepEqual(align('ABCDEF', 'ABCDEF'), [0, 1, 2, 3, 4, 5]);
  });

  test('a dropped character in one reading and a misread digit in the other merge into the printed line', () => {
    // Reading 2 dropped the 4th character of the document number (the rest of its line shifted left and
    // padded); reading 1 misread a birth-date digit. Neither line passes; the columns each got right do.
    const dropped = `${L2.slice(0, 3)}${L2.slice(4)}<`;
    const inputs = [reading('tesseract', [L1, BIRTH_MISREAD]), reading('ppocr', [L1, dropped])];
    assert.equal(voteLines(inputs.slice(0, 1), NOW), null);
    const v = voteLines(inputs, NOW);
    assert.equal(v?.parsed.lines[1], L2);
    assert.equal(v?.parsed.valid, true);
    assert.deepEqual(v?.ambiguous, []);
    // Read whole by no reading: low (the document goes to review with the value shown), no engine confirms the line.
    assert.equal(v?.fieldConfidence.find((f) => f.field === 'birthDate')?.level, 'low');
    // A field some reading read whole keeps its own level.
    assert.notEqual(v?.fieldConfidence.find((f) => f.field === 'expiryDate')?.level, 'low');
    assert.deepEqual(v?.confirmedBy, []);
  });

  test('two merged values that both pass the check digit: the field is ambiguous, low, never valid as read', () => {
    // A rival document number with its own valid check digit, and that line's composite digit; the rival line
    // also misreads an expiry digit, so neither reading's line passes on its own.
    let rival = '';
    for (let d = 0; d <= 9 && !rival; d++) {
      const line = `L898902C47${L2.slice(10, 43)}${d}`;
      if (parseMrz([L1, line], { now: NOW }).valid) rival = line;
    }
    assert.ok(rival, 'test setup: a rival line that passes every check');
    const rivalBroken = rival.replace('1204159', '1204169');
    const v = voteLines([reading('tesseract', [L1, BIRTH_MISREAD]), reading('ppocr', [L1, rivalBroken])], NOW);
    assert.ok(v);
    assert.ok(v.ambiguous.includes('documentNumber'));
    assert.equal(v.fieldConfidence.find((f) => f.field === 'documentNumber')?.level, 'low');
    const merged = mergeDataLines([{ lines: [L1, BIRTH_MISREAD] }, { lines: [L1, rivalBroken] }], 'TD3');
    assert.deepEqual(merged?.ambiguous, ['documentNumber']);
  });

  test('a character that no reading offered is not used, even where it would satisfy the check digit', () => {
    // Both readings read the same wrong birth-date digit; the printed one (2) is offered by nobody.
    const same = [reading('tesseract', [L1, BIRTH_MISREAD]), reading('ppocr', [L1, BIRTH_MISREAD])];
    assert.equal(mergeDataLines(same, 'TD3'), null);
    assert.equal(voteLines(same, NOW), null);
    // A runner-up that is not the printed digit changes nothing.
    const otherAlt = [reading('tesseract', [L1, BIRTH_MISREAD], evidenceAt(BIRTH_COL, 40, '3')), same[1] as VoteInput];
    assert.equal(voteLines(otherAlt, NOW), null);
  });

  test('a runner-up is offered only where the OCR was unsure of its own character', () => {
    const sure = [reading('ppocr', [L1, BIRTH_MISREAD], evidenceAt(BIRTH_COL, 97, '2')), reading('tesseract', [L1, BIRTH_MISREAD])];
    assert.equal(voteLines(sure, NOW), null);
    const unsure = [reading('ppocr', [L1, BIRTH_MISREAD], evidenceAt(BIRTH_COL, 40, '2')), reading('tesseract', [L1, BIRTH_MISREAD])];
    const v = voteLines(unsure, NOW);
    assert.equal(v?.parsed.fields.birthDate, '1974-08-12');
    assert.deepEqual(v?.ambiguous, []);
    assert.notEqual(v?.fieldConfidence.find((f) => f.field === 'birthDate')?.level, 'high');
  });
});

/**
 * A real-shaped TD1 with a long document number (ICAO 9303-5; the Belgian specimen card of the cheminfo/mrz
 * test vectors, `../shared/data/mrz/cheminfo_mrz_test_vectors.json`): `<` at column 14, the number's last
 * three characters and its check digit in optional data 1 (`015` + `2`), number 600001795015.
 */
const T0 = 'IDBEL600001795<0152<<<<<<<<<<<';
const T1 = '1301014F2311207BEL130101987398';
const T2 = 'SPECIMEN<<SPECIMEN<<<<<<<<<<<<';
const at = (line: string, col: number, ch: string): string => line.slice(0, col) + ch + line.slice(col + 1);

describe('character-level merge of a TD1 long document number (issue #19)', () => {
  test('a misread in the number and one in its remainder in optional data 1 merge into the printed line', () => {
    assert.equal(parseMrz([T0, T1, T2], { now: NOW }).fields.documentNumber, '600001795015');
    // One reading misread a digit of the first nine, the other one of the remainder; neither line passes.
    const inputs = [reading('tesseract', [at(T0, 8, '1'), T1, T2]), reading('ppocr', [at(T0, 15, '3'), T1, T2])];
    assert.equal(voteLines(inputs.slice(0, 1), NOW), null);
    assert.equal(voteLines(inputs.slice(1), NOW), null);
    const merged = mergeDataLines(inputs, 'TD1');
    assert.deepEqual(merged?.ambiguous, []);
    const v = voteLines(inputs, NOW);
    assert.equal(v?.parsed.lines[0], T0);
    assert.equal(v?.parsed.valid, true);
    assert.equal(v?.parsed.fields.documentNumber, '600001795015');
    // Read whole by no reading: low, so the document goes to review with the value shown.
    assert.equal(v?.fieldConfidence.find((f) => f.field === 'documentNumber')?.level, 'low');
  });

  test('two long numbers that both pass the check digit: ambiguous, low, never valid as read', () => {
    // A rival remainder (columns 15-16) that satisfies the same check digit 2.
    let rival = '';
    for (const a of '0123456789')
      for (const b of '0123456789') {
        const line = at(at(T0, 15, a), 16, b);
        if (!rival && line !== T0 && parseMrz([line, T1, T2], { now: NOW }).checks[0]?.valid) rival = line;
      }
    assert.ok(rival, 'test setup: a rival long number with a valid check digit');
    // Each reading also misreads a date digit, so no whole line set passes.
    const birthMisread = at(T1, 3, '2');
    const expiryMisread = at(T1, 12, '3');
    assert.equal(parseMrz([T0, birthMisread, T2], { now: NOW }).checkDigitsValid, false);
    assert.equal(parseMrz([rival, expiryMisread, T2], { now: NOW }).checkDigitsValid, false);
    const inputs = [reading('tesseract', [T0, birthMisread, T2]), reading('ppocr', [rival, expiryMisread, T2])];
    const merged = mergeDataLines(inputs, 'TD1');
    assert.ok(merged?.ambiguous.includes('documentNumber'));
    const v = voteLines(inputs, NOW);
    assert.ok(v);
    assert.ok(v.ambiguous.includes('documentNumber'));
    assert.equal(v.fieldConfidence.find((f) => f.field === 'documentNumber')?.level, 'low');
  });

  test('a remainder character that no reading offered is not used', () => {
    // Both readings misread the same remainder digit: the printed one is offered by nobody.
    const same = [reading('tesseract', [at(T0, 16, '7'), T1, T2]), reading('ppocr', [at(T0, 16, '7'), T1, T2])];
    assert.equal(parseMrz(same[0]?.lines ?? [], { now: NOW }).valid, false);
    assert.equal(mergeDataLines(same, 'TD1'), null);
    assert.equal(voteLines(same, NOW), null);
  });
});
