import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { OCRB_NET } from './mrz-ocrb-net.js';
import { parseMrz } from './mrz-parse.js';
import { drawGlyph, SHAPES } from '../../../test/helpers/glyphs.js';
import { MrzOcr } from './mrz-ocr.js';
import { seededRandom } from '../seeded-random.js';
import {
  linesMissing,
  nameDoubts,
  NAME_LETTER_MIN_CONFIDENCE,
  outranks,
  readMrz,
  settleLookalikes,
  statesFromColumns,
  withoutCheckDigitGuesses,
  type MrzReading,
} from './read-mrz.js';
import type { MrzEngine } from './mrz-vote.js';

const NOW = new Date('2026-01-01T00:00:00Z');
// Both engines read SPECIMEN as SPECIHEN (names carry no check digit): only the network's own doubt shows it.
const L1 = 'P<CZESPECIHEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<';
const L2 = '99009054<4CZE6906229F16072996956220612<<<<74';

function reading(engine: MrzEngine, lines: string[], unsureAt: number | null): MrzReading {
  const parsed = parseMrz(lines, { now: NOW });
  const evidence = lines.map((l, i) =>
    l.split('').map((_, c) => ({ confidence: i === 0 && c === unsureAt ? NAME_LETTER_MIN_CONFIDENCE - 30 : 99, alt: 'M' })),
  );
  return { engine, parsed, lines, evidence } as unknown as MrzReading;
}

describe('names without a check digit (issue #19)', () => {
  const parsed = parseMrz([L1, L2], { now: NOW });
  const h = L1.indexOf('H');
  test('a name letter every PP-OCR reading was unsure of puts that name in doubt', () => {
    assert.equal(parsed.valid, true);
    assert.deepEqual(nameDoubts([reading('tesseract', [L1, L2], null), reading('ppocr', [L1, L2], h)], parsed), ['surname']);
    assert.deepEqual(nameDoubts([reading('ppocr', [L1, L2], L1.indexOf('Z', 5))], parsed), ['givenNames']);
  });
  test('a letter one PP-OCR reading read confidently, or a tesseract doubt alone, does not', () => {
    assert.deepEqual(nameDoubts([reading('ppocr', [L1, L2], h), reading('ppocr', [L1, L2], null)], parsed), []);
    assert.deepEqual(nameDoubts([reading('tesseract', [L1, L2], h)], parsed), []);
  });
  test('PP-OCR read the name otherwise and never as reported: the name rests on tesseract alone, in doubt', () => {
    const other = L1.replace('SPECIHEN', 'SPECIMEN');
    assert.deepEqual(nameDoubts([reading('tesseract', [L1, L2], null), reading('ppocr', [other, L2], null)], parsed), ['surname']);
    // A chevron PP-OCR read as K is the same line (the vote takes tesseract's filler there).
    const kChevron = L1.slice(0, -1) + 'K';
    assert.deepEqual(nameDoubts([reading('tesseract', [L1, L2], null), reading('ppocr', [kChevron, L2], null)], parsed), []);
  });
  test('tesseract read the name otherwise and never as reported: the name rests on the network alone, in doubt', () => {
    const other = L1.replace('SPECIHEN', 'SPECIMEN');
    assert.deepEqual(nameDoubts([reading('tesseract', [other, L2], null), reading('ppocr', [L1, L2], null)], parsed), ['surname']);
    assert.deepEqual(
      nameDoubts([reading('tesseract', [other, L2], null), reading('tesseract', [L1, L2], null), reading('ppocr', [L1, L2], null)], parsed),
      [],
    );
  });
  test('a look-alike runner-up (H for M) needs more confidence than another letter', () => {
    const lookalike = reading('ppocr', [L1, L2], null);
    const names = lookalike.evidence[0] ?? [];
    names[h] = { confidence: 94, alt: 'M' };
    assert.deepEqual(nameDoubts([lookalike], parsed), ['surname']);
    names[h] = { confidence: 94, alt: 'E' };
    assert.deepEqual(nameDoubts([lookalike], parsed), []);
    // O unsure against 0 (a rendered STEVENSON<<PETER<JOHN at -7 degrees): names hold no digits.
    names[h] = { confidence: 60, alt: '0' };
    assert.deepEqual(nameDoubts([lookalike], parsed), []);
  });
  test("each second engine's network has its own limits: OCR-B net letters need 95, look-alikes 99", () => {
    const net = reading('ppocr', [L1, L2], null);
    const names = net.evidence[0] ?? [];
    names[h] = { confidence: 93, alt: 'E' };
    assert.deepEqual(nameDoubts([net], parsed), []);
    assert.deepEqual(nameDoubts([net], parsed, undefined, OCRB_NET.nameMinConfidence), ['surname']);
    names[h] = { confidence: 98, alt: 'M' };
    assert.deepEqual(nameDoubts([net], parsed), []);
    assert.deepEqual(nameDoubts([net], parsed, undefined, OCRB_NET.nameMinConfidence), ['surname']);
    names[h] = { confidence: 99.5, alt: 'M' };
    assert.deepEqual(nameDoubts([net], parsed, undefined, OCRB_NET.nameMinConfidence), []);
  });
  test('a third reader (engine ocrb) is judged on its own readings: PP-OCR readings do not vouch for it', () => {
    const third = { ...reading('ppocr', [L1, L2], h), engine: 'ocrb' as const };
    const pp = reading('ppocr', [L1, L2], null);
    assert.deepEqual(nameDoubts([pp, third], parsed), []);
    assert.deepEqual(nameDoubts([pp, third], parsed, undefined, OCRB_NET.nameMinConfidence, 'ocrb'), ['surname']);
  });
});

describe('fallback reading when no MRZ passes every check', () => {
  const parsedOne = (lines: string[], score: number): MrzReading =>
    ({ parsed: parseMrz(lines, { now: NOW }), score }) as unknown as MrzReading;
  const unparsed = (score: number): MrzReading => ({ parsed: null, score }) as unknown as MrzReading;
  // Two check digits wrong (document number and composite), the dates' digits right.
  const nearly = parsedOne([L1, L2.replace('99009054<4', '99009054<5')], -8);
  test('a reading that parsed with two or more valid check digits beats an unparsed one of any score', () => {
    assert.ok((nearly.parsed?.checks.filter((c) => c.valid).length ?? 0) >= 2);
    assert.equal(outranks(nearly, unparsed(0.1)), true);
    assert.equal(outranks(unparsed(0.9), nearly), false);
  });
  test('otherwise the score decides', () => {
    const garbled = parsedOne(['P<CZE' + 'X'.repeat(39), 'Y'.repeat(44)], -20);
    assert.ok((garbled.parsed?.checks.filter((c) => c.valid).length ?? 0) < 2);
    assert.equal(outranks(unparsed(0.1), garbled), true);
    assert.equal(outranks(parsedOne([L1, L2], 140), nearly), true);
  });
});

describe('H, M, N and W in names settled by their glyph shape (issue #19)', () => {
  const PITCH = 26;
  const h = L1.indexOf('H');
  /** A tesseract reading of L1/L2 whose band crop holds `glyph` drawn at the names line's column h. */
  function tesseractReading(lines: string[], glyph: 'H' | 'M'): MrzReading {
    const crop = { data: new Uint8Array(L1.length * PITCH * 40).fill(235), width: L1.length * PITCH, height: 40 };
    drawGlyph(crop, SHAPES[glyph], { x: h * PITCH + 3, y: 4, w: 20, h: 32 }, 6);
    const symbols = (lines[0] ?? '')
      .split('')
      .map((text, c) => ({ text, confidence: 75, x0: c * PITCH + 2, y0: 3, x1: c * PITCH + 24, y1: 37 }));
    const evidence = lines.map((l) => l.split('').map(() => ({ confidence: 75 })));
    return {
      engine: 'tesseract',
      lines,
      parsed: parseMrz(lines, { now: NOW }),
      evidence,
      crop,
      ocrLines: [{ text: lines[0], confidence: 75, symbols }],
    } as unknown as MrzReading;
  }
  function ppReading(lines: string[], alt: string, confidence = 70): MrzReading {
    const evidence = lines.map((l, i) =>
      l.split('').map((_, c) => (i === 0 && c === h ? { confidence, alt } : { confidence: 99, alt: 'E' })),
    );
    return { engine: 'ppocr', lines, parsed: parseMrz(lines, { now: NOW }), evidence } as unknown as MrzReading;
  }
  const parsed = parseMrz([L1, L2], { now: NOW });
  test('an M read as H by both engines, PP-OCR offering M as runner-up, is read as M from its shape', () => {
    const set = [tesseractReading([L1, L2], 'M'), ppReading([L1, L2], 'M')];
    const settled = settleLookalikes(set, parsed, NOW);
    assert.equal(settled.resolved.get(h), 'M');
    for (const r of settled.set) assert.equal(r.parsed?.fields.surname, 'SPECIMEN');
    // The reading is corrected, but the surname stays in doubt (review): the shape test is not a check digit.
    assert.deepEqual(nameDoubts(settled.set, settled.set[1]?.parsed as typeof parsed, settled), ['surname']);
    assert.deepEqual(nameDoubts(set, parsed), ['surname']);
  });
  test('an H that looks like an H stays H; a runner-up of another shape (A) is not settled', () => {
    assert.equal(settleLookalikes([tesseractReading([L1, L2], 'H'), ppReading([L1, L2], 'M')], parsed, NOW).resolved.get(h), 'H');
    assert.equal(settleLookalikes([tesseractReading([L1, L2], 'M'), ppReading([L1, L2], 'A')], parsed, NOW).resolved.size, 0);
  });
  test('every reading says H but the glyph is an M: not corrected, the surname goes to review', () => {
    // PP-OCR sure of its H (its runner-up E is no offer).
    const set = [tesseractReading([L1, L2], 'M'), ppReading([L1, L2], 'E', 99)];
    const settled = settleLookalikes(set, parsed, NOW);
    assert.equal(settled.resolved.size, 0);
    assert.deepEqual(settled.contested, [h]);
    assert.deepEqual(nameDoubts(settled.set, parsed, settled), ['surname']);
  });
  test('readings that disagree (H and N) on a glyph shaped M: written M from the shape, the surname in review', () => {
    // PP-OCR sure of its N (runner-up E): no reading offered M, so the old rule left the column as read.
    const withN = L1.slice(0, h) + 'N' + L1.slice(h + 1);
    const set = [tesseractReading([L1, L2], 'M'), ppReading([withN, L2], 'E', 99)];
    const settled = settleLookalikes(set, parsed, NOW);
    for (const r of settled.set) assert.equal(r.parsed?.fields.surname, 'SPECIMEN');
    assert.deepEqual(settled.contested, [h]);
    assert.deepEqual(nameDoubts(settled.set, settled.set[0]?.parsed as typeof parsed, settled), ['surname']);
  });
  test('a letter outside the four that PP-OCR had no idea of (X at 8 %) does not stop the shape; a sure one (A) does', () => {
    const withX = L1.slice(0, h) + 'X' + L1.slice(h + 1);
    const noIdea = settleLookalikes([tesseractReading([L1, L2], 'M'), ppReading([withX, L2], 'H', 8)], parsed, NOW);
    assert.equal(noIdea.set[0]?.parsed?.fields.surname, 'SPECIMEN');
    assert.deepEqual(noIdea.contested, [h]);
    const withA = L1.slice(0, h) + 'A' + L1.slice(h + 1);
    const sure = settleLookalikes([tesseractReading([L1, L2], 'M'), ppReading([withA, L2], 'H', 80)], parsed, NOW);
    assert.equal(sure.set[0]?.parsed?.fields.surname, 'SPECIHEN');
    assert.deepEqual(sure.contested, []);
  });
  test('a reading whose names line is shifted against the reported one (a letter dropped) offers nothing at a column', () => {
    // PP-OCR sure of every letter of a line that lost the I before the H: at the H's column it reads E, a letter
    // outside the four, which stopped the shape test (NLD specimen: a tesseract pass shifted by dropped letters).
    const dropped = L1.slice(0, h - 1) + L1.slice(h) + '<';
    const settled = settleLookalikes(
      [tesseractReading([L1, L2], 'M'), ppReading([L1, L2], 'M'), ppReading([dropped, L2], 'E', 99)],
      parsed,
      NOW,
    );
    assert.equal(settled.resolved.get(h), 'M');
    assert.equal(settled.set[0]?.parsed?.fields.surname, 'SPECIMEN');
    // The shifted reading is not rewritten either.
    assert.equal(settled.set[2]?.lines[0], dropped);
  });
  test('readings that disagree on a glyph shaped like the letter they mostly read: left as read', () => {
    const withX = L1.slice(0, h) + 'X' + L1.slice(h + 1);
    const settled = settleLookalikes([tesseractReading([L1, L2], 'H'), ppReading([withX, L2], 'H', 8)], parsed, NOW);
    assert.equal(settled.set[0]?.parsed?.fields.surname, 'SPECIHEN');
    assert.deepEqual(settled.contested, []);
  });
});

describe('fallback reading: a state code spelt column by column (issue #19)', () => {
  // Germany's D<< read as O<< by the fallback reading, as D<< by another reading of the same format.
  const l2 = L2.replace('99009054<4', '99009054<5');
  const asRead = (nat: string): MrzReading => {
    const lines = [L1, l2.replace('CZE', nat)];
    return { engine: 'tesseract', lines, parsed: parseMrz(lines, { now: NOW }) } as unknown as MrzReading;
  };
  test('the nationality becomes the one existing code, the field low and read by no reading', () => {
    const best = asRead('O<<');
    const out = statesFromColumns(best, [best, asRead('D<<')], NOW);
    assert.equal(out?.reading.parsed?.fields.nationality, 'D');
    assert.deepEqual(
      out?.fieldConfidence.map((f) => [f.field, f.level, f.readings]),
      [['nationality', 'low', 0]],
    );
    // Its failing check digit stays failing: the document is no more valid than before.
    assert.equal(out?.reading.parsed?.valid, false);
  });
  test('an existing code is left alone; no other letters, no change', () => {
    const best = asRead('CZE');
    assert.equal(statesFromColumns(best, [best, asRead('D<<')], NOW), null);
    assert.equal(statesFromColumns(asRead('O<<'), [asRead('O<<')], NOW), null);
  });
  test('an unknown code most readings of two engines read whole is what is printed: not spelt into another', () => {
    // Set C's fictional Commonwealth card prints CMW; one network reading offered O, M and N in its columns.
    const as = (engine: MrzEngine, nat: string): MrzReading => ({ ...asRead(nat), engine });
    const best = as('tesseract', 'CMW');
    const readings = [best, as('ppocr', 'CMW'), as('tesseract', 'CMW'), as('ocrb', 'OMN')];
    assert.equal(statesFromColumns(best, readings, NOW), null);
    // Read so by one engine only, or by half of the readings, it is still spelt from the columns.
    const oneEngine = [best, as('tesseract', 'CMW'), as('tesseract', 'CMW'), as('ocrb', 'OMN')];
    assert.equal(statesFromColumns(best, oneEngine, NOW)?.reading.parsed?.fields.nationality, 'OMN');
    const half = [best, as('ppocr', 'CMW'), as('ocrb', 'OMN'), as('ocrb', 'OMN')];
    assert.equal(statesFromColumns(best, half, NOW)?.reading.parsed?.fields.nationality, 'OMN');
  });
});

describe('fallback reading: no check-digit substitution kept (issue #19 item 1)', () => {
  // Set C's Spanish ID specimen prints AAA100001 with check digit 4, which fails (as do its birth date's and the
  // composite's): the corrector's 1 -> T at an unsure character made the number's digit agree.
  const printed = ['IDESPAAA1000014<00000023T<<<<<', '7212018F1101236ESP<<<<<<<<<<<8', 'ESPANOLA<ESPANOLA<CARMEN<<<<<<'];
  const swapped = [printed[0]!.replace('AAA1', 'AAAT'), printed[1]!, printed[2]!];
  const corrections = [
    { line: 2, column: 5, from: '0', to: 'O', reason: 'field_type' as const },
    { line: 0, column: 8, from: '1', to: 'T', reason: 'check_digit' as const },
  ];
  const guessed = { engine: 'tesseract', lines: swapped, parsed: parseMrz(swapped, { now: NOW }), corrections } as unknown as MrzReading;
  test('the swap is put back: the number as read, its digit failing', () => {
    assert.equal(guessed.parsed?.fields.documentNumber, 'AAAT00001');
    assert.equal(guessed.parsed?.checks.find((c) => c.field === 'documentNumber')?.valid, true);
    const out = withoutCheckDigitGuesses(guessed, NOW);
    assert.equal(out.parsed?.fields.documentNumber, 'AAA100001');
    assert.equal(out.parsed?.checks.find((c) => c.field === 'documentNumber')?.valid, false);
    assert.deepEqual(out.lines, printed);
    assert.equal(out.parsed?.valid, false);
    // The field-type repair (not steered by a digit) stays.
    assert.deepEqual(out.corrections, [corrections[0]]);
  });
  test('a reading without such a swap is returned as it is', () => {
    const plain = { ...guessed, corrections: [corrections[0]] } as MrzReading;
    assert.equal(withoutCheckDigitGuesses(plain, NOW), plain);
  });
});

describe('a band holding part of an MRZ: read again with room for the other lines (issue #19)', () => {
  test('one MRZ-long line alone (its other line printed smaller, not joined by the locator)', () => {
    assert.equal(linesMissing(`${L1}\n`), true);
    assert.equal(linesMissing(`REPUBLIQUE FRANCAISE\n${L2.slice(0, 36)}\n`), true);
    // A dropped character or two still counts; a line far longer than any MRZ line does not.
    assert.equal(linesMissing(L1.slice(0, 42)), true);
    assert.equal(linesMissing(L1 + L2), false);
  });
  test('two TD1 lines still do; a whole two-line MRZ or short text does not', () => {
    assert.equal(linesMissing('I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\n'), true);
    assert.equal(linesMissing(`${L1}\n${L2}\n`), false);
    assert.equal(linesMissing('PASSPORT\nSURNAME SPECIMEN\n'), false);
  });
});

describe('hostile input: the search is bounded in time', () => {
  /** Random grey pixels; with `lines`, only in three MRZ-like rows of print on white (lines of noise). */
  function noise(width: number, height: number, seed: number, lines = false): { data: Uint8Array; width: number; height: number } {
    const rnd = seededRandom(seed);
    const data = Uint8Array.from({ length: width * height }, (_, i) => {
      const y = Math.floor(i / width);
      const x = i % width;
      const inLine = !lines || (x >= 20 && x < width - 20 && [50, 90, 130].some((top) => y >= top && y < top + 22));
      return inLine ? Math.floor(rnd() * 256) : 255;
    });
    return { data, width, height };
  }

  test('a photo of random pixels has no band of lines: nothing is read (it held a worker 10-70 s)', async () => {
    const gray = noise(480, 200, 9);
    const ocr = new MrzOcr();
    try {
      const search = await readMrz(gray, ocr, { now: NOW, timeBudgetMs: Number.POSITIVE_INFINITY });
      assert.equal(search.bands.length, 0, 'noise fuses into blobs, but their rows all average alike');
      assert.equal(search.attempts, 0);
      assert.equal(search.best, null);
    } finally {
      await ocr.terminate();
    }
  });

  test('past its deadline no further pass starts, whatever the budget allows', async () => {
    // Lines of noise are bands of lines to the locator; tesseract spends seconds a pass on them.
    const gray = noise(480, 200, 9, true);
    const ocr = new MrzOcr();
    try {
      const search = await readMrz(gray, ocr, { now: NOW, timeBudgetMs: Number.POSITIVE_INFINITY, deadline: performance.now() });
      assert.ok(search.bands.length > 0, 'lines of noise are found as a band');
      assert.equal(search.attempts, 1, 'the first pass only');
      assert.equal(search.best?.parsed?.valid ?? false, false);
    } finally {
      await ocr.terminate();
    }
  });
});
