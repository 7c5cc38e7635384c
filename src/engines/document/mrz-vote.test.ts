import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseOcrLines } from './mrz-correct.js';
import { parseMrz } from './mrz-parse.js';
import {
  alignEvidence,
  shiftedAgainst,
  stateFromColumns,
  fallbackConfidences,
  tesseractNamesConsensus,
  voteLines,
  type MrzEngine,
  type VoteInput,
} from './mrz-vote.js';
import { decodeCtc } from './mrz-ppocr.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const L1 = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';
const L2 = 'L898902C36UTO7408122F1204159ZE184226B<<<<<10';

function reading(engine: MrzEngine, lines: string[]): VoteInput {
  let parsed = null;
  try {
    parsed = parseMrz(lines, { now: NOW });
  } catch {
    parsed = null;
  }
  return { engine, lines, parsed, corrections: [], ambiguous: [] };
}

describe('whole-line vote (issue #19)', () => {
  test('accepts the lines both engines read; fields read by both are high confidence', () => {
    const v = voteLines([reading('tesseract', [L1, L2]), reading('ppocr', [L1, L2])], NOW);
    assert.equal(v?.parsed.fields.documentNumber, 'L898902C3');
    assert.deepEqual(v?.confirmedBy.sort(), ['ppocr', 'tesseract']);
    assert.equal(v?.fieldConfidence.find((f) => f.field === 'documentNumber')?.level, 'high');
    assert.deepEqual(v?.ambiguous, []);
  });
  test('a name three readings of four spell alike and the fourth otherwise is low: no check digit settles it', () => {
    // A real TD1 line crop (FIN): MATTI read HATTI by three readings, AATTI by the fourth, M by none.
    const t1 = 'I<FIN0000000000<<<<<<<<<<<<<<<';
    const t2 = '5001013M1605309FIN<<<<<<<<<<<2';
    const names = (given: string) => `MATKAILIJA<<${given}`.padEnd(30, '<');
    const v = voteLines(
      [
        reading('tesseract', [t1, t2, names('HATTI')]),
        reading('tesseract', [t1, t2, names('HATTI')]),
        reading('ppocr', [t1, t2, names('HATTI')]),
        reading('ppocr', [t1, t2, names('AATTI')]),
      ],
      NOW,
    );
    assert.equal(v?.parsed.valid, true);
    const given = v?.fieldConfidence.find((f) => f.field === 'givenNames');
    assert.equal(given?.level, 'low');
    assert.deepEqual(given?.rivals, ['AATTI']);
    assert.equal(v?.fieldConfidence.find((f) => f.field === 'surname')?.level, 'high');
  });
  test('takes each line whole from the reading where it passes: a broken line 2 of one engine is out-voted', () => {
    const broken = L2.replace('7408122', '7408I22');
    const v = voteLines([reading('tesseract', [L1, broken]), reading('ppocr', [L1.replace('ANNA', 'ANHA'), L2])], NOW);
    assert.equal(v?.parsed.lines[1], L2);
    assert.equal(v?.parsed.valid, true);
  });
  test('two different line-2 readings that both pass every check: the field is ambiguous, not chosen', () => {
    // A rival document number: change its last character and search the check and composite digits that
    // make the whole line valid again (what a look-alike misread does one time in a hundred).
    let rival: string | null = null;
    for (let a = 0; a <= 9 && !rival; a++)
      for (let d = 0; d <= 9 && !rival; d++)
        for (let c = 0; c <= 9 && !rival; c++) {
          const cand = `L898902C${a}${d}` + L2.slice(10, 43) + String(c);
          if (cand !== L2 && parseMrz([L1, cand], { now: NOW }).valid) rival = cand;
        }
    assert.ok(rival, 'a rival MRZ passing every check exists');
    const v = voteLines([reading('tesseract', [L1, L2]), reading('ppocr', [L1, rival])], NOW);
    assert.ok(v?.ambiguous.includes('documentNumber'));
    assert.equal(v?.fieldConfidence.find((f) => f.field === 'documentNumber')?.level, 'low');
  });
  test('no reading passes every check: the data line is merged column by column, confirmed by no engine', () => {
    // Each reading misread a different column: the merge (mrz-merge.ts) takes the column the other read, and
    // the merged line counts as read by no reading (medium at best, no engine confirms it).
    const a = L2.replace('7408122', '7408I22');
    const b = L2.replace('1204159', '12O4159');
    const v = voteLines([reading('tesseract', [L1, a]), reading('ppocr', [L1, b])], NOW);
    assert.equal(v?.parsed.lines[1], L2);
    assert.deepEqual(v?.confirmedBy, []);
    assert.deepEqual(v?.lineSupport, [2, 0]);
    assert.equal(v?.fieldConfidence.find((f) => f.field === 'birthDate')?.level, 'medium');
  });
  test('a misread nationality inside an accepted line is taken by majority, known state codes first', () => {
    const l2 = 'PA09404433AUS8406077F1903212<17332717P<<<<68';
    const l1 = 'P<AUSCITIZEN<<JANE<<<<<<<<<<<<<<<<<<<<<<<<<<';
    const misread = l2.replace('AUS84', 'AUB84');
    const v = voteLines([reading('tesseract', [l1, misread]), reading('tesseract', [l1, misread]), reading('ppocr', [l1, l2])], NOW);
    assert.equal(v?.parsed.fields.nationality, 'AUS');
  });
});

describe('a check-digit field read by a minority of the readings (issue #19)', () => {
  // Set C's Polish specimen: ZS0000177, whose Z→2 and S→5 cancel in both check digits (−300).
  const p1 = 'P<POLKOWALSKA<<ANNA'.padEnd(44, '<');
  const truth = 'ZS00001774POL7408122F1204159<<<<<<<<<<<<<<02';
  const misread = truth.replace('ZS0000177', '250000177');
  const failing = truth.replace('ZS0000177', 'ZSOOOO177');
  test('accepted from two readings of six while the failing ones spell a passing rival: ambiguous, low', () => {
    assert.equal(parseMrz([p1, misread], { now: NOW }).valid, true);
    const v = voteLines(
      [
        reading('tesseract', [p1, failing]),
        reading('tesseract', [p1, failing]),
        reading('tesseract', [p1, failing]),
        reading('tesseract', [p1, misread]),
        reading('ppocr', [p1, misread]),
        reading('ppocr', [p1, misread.replace('25', '29')]),
      ],
      NOW,
    );
    assert.equal(v?.parsed.fields.documentNumber, '250000177');
    assert.ok(v?.ambiguous.includes('documentNumber'));
    assert.equal(v?.fieldConfidence.find((f) => f.field === 'documentNumber')?.level, 'low');
    assert.ok(!v?.ambiguous.includes('birthDate'), 'a field every reading read alike is not in doubt');
  });
  test('read by most readings: the failing minority raises no doubt', () => {
    const v = voteLines(
      [
        reading('tesseract', [p1, failing]),
        reading('tesseract', [p1, failing]),
        reading('tesseract', [p1, misread]),
        reading('tesseract', [p1, misread]),
        reading('ppocr', [p1, misread]),
      ],
      NOW,
    );
    assert.deepEqual(v?.ambiguous, []);
    assert.equal(v?.fieldConfidence.find((f) => f.field === 'documentNumber')?.level, 'high');
  });
});

describe('a stray leading character on the names line (issue #19)', () => {
  test('the PP-OCR reading with a filler glued before the code joins the name both engines read; the rival keeps it low', () => {
    // A real TD2 line crop: one PP-OCR pass read a filler before the code (a shifted, malformed line), the
    // other forced a doubled letter into a blank under the line length; four tesseract passes read the name.
    const d2 = 'D231458907UTO7408122F1204159<<<<<<<6';
    const lines = (text: string) => normaliseOcrLines(text);
    const v = voteLines(
      [
        reading('tesseract', lines(`I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<\n${d2}`)),
        reading('tesseract', lines(`I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<\n${d2}`)),
        reading('ppocr', lines(`<I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<\n${d2}`)),
        reading('ppocr', lines(`I<UTOERIKSSSON<<ANNA<MARIA<<<<<<<<<<\n${d2}`)),
      ],
      NOW,
    );
    assert.equal(v?.parsed.fields.surname, 'ERIKSSON');
    const surname = v?.fieldConfidence.find((f) => f.field === 'surname');
    assert.equal(surname?.level, 'low');
    assert.deepEqual(surname?.rivals, ['ERIKSSSON']);
  });
});

describe('evidence alignment and CTC decoding', () => {
  test('evidence only where the OCR line holds the same character', () => {
    const ev = alignEvidence(
      ['AB<'],
      [
        {
          chars: [
            { ch: 'A', confidence: 90 },
            { ch: '8', confidence: 40, alt: 'B' },
            { ch: '<', confidence: 99 },
          ],
        },
      ],
    );
    assert.deepEqual(ev[0]?.[0], { confidence: 90 });
    assert.equal(ev[0]?.[1], null);
  });
  test('a line shifted left by a dropped stray character keeps its evidence (issue #19)', () => {
    const ev = alignEvidence(
      ['AB<'],
      [
        {
          chars: [
            { ch: '<', confidence: 60 },
            { ch: 'A', confidence: 90 },
            { ch: 'B', confidence: 40, alt: '8' },
            { ch: '<', confidence: 99 },
          ],
        },
      ],
    );
    assert.deepEqual(ev[0], [{ confidence: 90 }, { confidence: 40, alt: '8' }, { confidence: 99 }]);
  });
  test('greedy CTC over the MRZ alphabet with per-character probability and runner-up', () => {
    // 3 steps, classes: 0 blank, 1 "A", 2 "B" (dictionary order of the test), 3 a non-MRZ glyph.
    const probs = new Float32Array([0.1, 0.7, 0.2, 0.0, 0.9, 0.05, 0.05, 0.0, 0.1, 0.1, 0.2, 0.6]);
    const classes = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<'.split('').map((ch) => (ch === 'A' ? [1] : ch === 'B' ? [2] : []));
    const out = decodeCtc(probs, 3, 4, classes);
    assert.equal(out.text, 'AB');
    assert.equal(out.chars[0]?.alt, 'B');
    assert.ok((out.chars[0]?.p ?? 0) > 0.7);
  });
});

describe('PP-OCR chevrons read as K in the names line', () => {
  test('a K where tesseract reads a filler is a filler, so the names agree', () => {
    const pp = L1.replace('ANNA<MARIA', 'ANNAKMARIA');
    const v = voteLines([reading('tesseract', [L1, L2]), reading('ppocr', [pp, L2])], NOW);
    assert.equal(v?.parsed.fields.givenNames, 'ANNA MARIA');
    assert.equal(v?.fieldConfidence.find((f) => f.field === 'givenNames')?.level, 'high');
  });
});

describe('a state code spelt column by column (issue #19)', () => {
  // Nationality BEL: tesseract reads the E as S in every pass, PP-OCR reads the B as 3; no reading has BEL.
  const bel = L2.replace('UTO', 'BEL');
  test('the one existing code the columns offer is reported, low: read whole by no reading', () => {
    const v = voteLines(
      [
        reading('tesseract', [L1, bel.replace('BEL', 'BSL')]),
        reading('tesseract', [L1, bel.replace('BEL', 'BSL')]),
        reading('ppocr', [L1, bel.replace('BEL', '3EL')]),
      ],
      NOW,
    );
    assert.equal(v?.parsed.fields.nationality, 'BEL');
    const f = v?.fieldConfidence.find((x) => x.field === 'nationality');
    assert.equal(f?.level, 'low');
    assert.equal(f?.readings, 0);
  });
  test('two existing codes offered (FRA and ESP from F/E, R/S, A/P): nothing is spelt', () => {
    const rs = [{ lines: [L1, L2.replace('UTO', 'FSA')] }, { lines: [L1, L2.replace('UTO', 'ERP')] }];
    assert.equal(stateFromColumns(rs, 1, 10, 'FSA'), null);
    assert.equal(
      stateFromColumns([{ lines: [L1, L2.replace('UTO', 'O<<')] }, { lines: [L1, L2.replace('UTO', 'D<<')] }], 1, 10, 'O<<'),
      'D<<',
    );
    // A filler before a letter is no code (D<E), nor a leading filler.
    assert.equal(stateFromColumns([{ lines: [L1, L2.replace('UTO', '<<E')] }], 1, 10, 'XXX'), null);
  });
});

describe('a PP-OCR names line shifted by a dropped letter (issue #19)', () => {
  const d1 = (names: string) => `P<D<<${names}`.padEnd(44, '<');
  const d2 = 'C01X00T478D<<6408125F2702283<<<<<<<<<<<<<<<4';
  /** The vote on tesseract names lines (one reading each) and one PP-OCR names line over the same data line. */
  const vote = (tesseract: string[], ppocr: string) =>
    voteLines([reading('ppocr', [ppocr, d2]), ...tesseract.map((t) => reading('tesseract', [t, d2]))], NOW);
  const level = (v: ReturnType<typeof vote>, field: string) => v?.fieldConfidence.find((f) => f.field === field)?.level;
  test('loses to the names line tesseract passes read alike; the name stays low (a rival spells it)', () => {
    // A real German specimen: PP-OCR's CTC read MUSTERMANN without the R (the rest of the line shifted left,
    // the end padded with a filler), tesseract read it whole in three passes.
    const v = vote([d1('MUSTERMANN<<ERIKA'), d1('MUSTERMANN<<ERIKA'), d1('MUSTERMANN<<ERIKA')], d1('MUSTEMANN<<ERIKA'));
    assert.equal(v?.parsed.fields.surname, 'MUSTERMANN');
    assert.equal(level(v, 'surname'), 'low');
  });
  test('a letter-for-letter disagreement (M read as H by tesseract) keeps PP-OCR preferred', () => {
    const v = vote([d1('HUSTERHANN<<ERIKA'), d1('HUSTERHANN<<ERIKA'), d1('HUSTERHANN<<ERIKA')], d1('MUSTERMANN<<ERIKA'));
    assert.equal(v?.parsed.fields.surname, 'MUSTERMANN');
  });
  test('one tesseract pass is not enough to overrule a shifted PP-OCR line', () => {
    assert.equal(vote([d1('MUSTERMANN<<ERIKA')], d1('MUSTEMANN<<ERIKA'))?.parsed.fields.surname, 'MUSTEMANN');
  });
  test('a shifted PP-OCR line that is malformed (no rival) still leaves the name it disputes low', () => {
    // PP-OCR dropped the document code's P: the whole line is shifted, and its reading is no well-formed rival.
    const v = vote([d1('MUSTERMANN<<ERIKA'), d1('MUSTERMANN<<ERIKA')], d1('MUSTERMANN<<ERIKA').slice(1) + '<');
    assert.equal(v?.parsed.fields.surname, 'MUSTERMANN');
    assert.equal(level(v, 'surname'), 'low');
    assert.equal(level(v, 'givenNames'), 'low');
  });
  test('the consensus is the same for the vote as for the cell reader: a line PP-OCR also read counts', () => {
    // Two tesseract passes and one PP-OCR pass read the name whole; a second PP-OCR pass dropped the
    // document code's P: the tesseract consensus judges it shifted, so the given names its columns dispute
    // stay low too (as the cell reader, which uses the same consensus, would not trust that line either).
    const whole = d1('MUSTERMANN<<ERIKA');
    const v = voteLines(
      [
        reading('ppocr', [whole, d2]),
        reading('ppocr', [whole.slice(1) + '<', d2]),
        reading('tesseract', [whole, d2]),
        reading('tesseract', [whole, d2]),
      ],
      NOW,
    );
    assert.equal(v?.parsed.fields.surname, 'MUSTERMANN');
    assert.equal(level(v, 'surname'), 'low');
    assert.equal(level(v, 'givenNames'), 'low');
    assert.equal(
      tesseractNamesConsensus(
        [
          { engine: 'tesseract', lines: [whole] },
          { engine: 'tesseract', lines: [whole] },
        ],
        0,
      ),
      whole,
    );
  });
  test('shifted: edit distance under the count of differing columns', () => {
    assert.equal(shiftedAgainst(d1('MUSTEMANN<<ERIKA'), d1('MUSTERMANN<<ERIKA')), true);
    assert.equal(shiftedAgainst(d1('HUSTERHANN<<ERIKA'), d1('MUSTERMANN<<ERIKA')), false);
    assert.equal(shiftedAgainst('ABC', 'ABCD'), false);
    const t = (line: string) => ({ engine: 'tesseract' as const, lines: [line] });
    assert.equal(tesseractNamesConsensus([t('A'), t('A'), t('B'), t('A')], 0), 'A');
    assert.equal(tesseractNamesConsensus([t('A'), t('B'), { engine: 'ppocr', lines: ['A'] }], 0), null);
  });
});

describe('per-field confidence of an MRZ that no vote accepted (issue #19 item 1)', () => {
  // Birth date 740812 printed as 740815: its digit and the composite fail in every reading.
  const edited = L2.replace('7408122', '7408152');
  const level = (fc: ReturnType<typeof fallbackConfidences>, field: string): string | undefined => fc.find((f) => f.field === field)?.level;
  test('every field is reported: a field whose digit fails is low, fields both engines read alike and their digits pass are high', () => {
    const t = reading('tesseract', [L1, edited]);
    const fc = fallbackConfidences([t, reading('ppocr', [L1, edited])], t.parsed!, []);
    assert.equal(t.parsed?.valid, false);
    assert.equal(level(fc, 'birthDate'), 'low');
    assert.equal(level(fc, 'documentNumber'), 'high');
    assert.equal(level(fc, 'expiryDate'), 'high');
    assert.equal(level(fc, 'surname'), 'high');
    assert.equal(level(fc, 'givenNames'), 'high');
    assert.equal(level(fc, 'nationality'), 'high');
  });
  test('a document number that only a check-digit substitution produced is low there (medium in an accepted MRZ)', () => {
    // Tesseract read L89B902C3 and corrected the B to 8 under the digit; PP-OCR read the B too (its digit fails).
    const corrected = {
      ...reading('tesseract', [L1, edited]),
      corrections: [{ line: 1, column: 3, from: 'B', to: '8', reason: 'check_digit' as const }],
    };
    const other = reading('ppocr', [L1, edited.replace('L898902C3', 'L89B902C3')]);
    const fc = fallbackConfidences([corrected, other], corrected.parsed!, []);
    assert.equal(level(fc, 'documentNumber'), 'low');
    assert.deepEqual(fc.find((f) => f.field === 'documentNumber')?.rivals, [], 'a value failing its own digit is no rival');
    // The same two readings of an MRZ that passes: the vote's rule, medium.
    const ok = { ...reading('tesseract', [L1, L2]), corrections: corrected.corrections };
    const v = voteLines([ok, reading('ppocr', [L1, L2.replace('L898902C3', 'L89B902C3')])], NOW);
    assert.equal(v?.fieldConfidence.find((f) => f.field === 'documentNumber')?.level, 'medium');
  });
  test('a field several substitutions would make valid is low; readings of another format are not counted', () => {
    const t = reading('tesseract', [L1, edited]);
    const td1 = reading('ppocr', ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<']);
    const fc = fallbackConfidences([t, td1], t.parsed!, ['documentNumber']);
    assert.equal(level(fc, 'documentNumber'), 'low');
    assert.equal(fc[0]?.of, 1);
  });
});
