import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseMrz } from './mrz-parse.js';
import { nameDoubts, NAME_LETTER_MIN_CONFIDENCE, outranks, type MrzReading } from './read-mrz.js';
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
