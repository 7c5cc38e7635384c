import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { bandLineLength, decodeCtc, decodeCtcLength } from './mrz-ppocr.js';

// Network classes of the test: 0 blank, 1 "A", 2 "B", 3 "0"; every other MRZ character has no class.
const N_CLASS = 4;
const CLASSES = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<'
  .split('')
  .map((ch) => (ch === 'A' ? [1] : ch === 'B' ? [2] : ch === '0' ? [3] : []));

/** Rows of [blank, A, B, 0] per step. */
const probsOf = (rows: number[][]): Float32Array => new Float32Array(rows.flat());

describe('CTC decoding under a known line length', () => {
  test('a doubled character with no blank step between its copies is restored when the length says so', () => {
    // "B00B" where the two zeros run together: greedy reads "B0B".
    const rows = [
      [0.05, 0.0, 0.9, 0.05],
      [0.05, 0.0, 0.05, 0.9],
      [0.1, 0.0, 0.05, 0.85],
      [0.05, 0.0, 0.05, 0.9],
      [0.05, 0.0, 0.9, 0.05],
    ];
    assert.equal(decodeCtc(probsOf(rows), 5, N_CLASS, CLASSES).text, 'B0B');
    const fixed = decodeCtcLength(probsOf(rows), 5, N_CLASS, CLASSES, 4);
    assert.equal(fixed.text, 'B00B');
  });

  test('the length never changes a line that greedy decoding already reads at that length', () => {
    const rows = [
      [0.1, 0.8, 0.1, 0.0],
      [0.9, 0.05, 0.05, 0.0],
      [0.1, 0.1, 0.8, 0.0],
      [0.9, 0.05, 0.05, 0.0],
      [0.1, 0.7, 0.2, 0.0],
    ];
    const greedy = decodeCtc(probsOf(rows), 5, N_CLASS, CLASSES);
    const fixed = decodeCtcLength(probsOf(rows), 5, N_CLASS, CLASSES, 3);
    assert.equal(greedy.text, 'ABA');
    assert.equal(fixed.text, greedy.text);
    assert.deepEqual(
      fixed.chars.map((c) => c.p.toFixed(3)),
      greedy.chars.map((c) => c.p.toFixed(3)),
    );
  });

  test('a character forced into a gap the network called empty is reported as unsure', () => {
    // "A", a clear blank, "B": forced to three characters, the extra one sits where blank dominated.
    const rows = [
      [0.05, 0.9, 0.05, 0.0],
      [0.95, 0.03, 0.02, 0.0],
      [0.95, 0.02, 0.03, 0.0],
      [0.05, 0.05, 0.9, 0.0],
    ];
    const fixed = decodeCtcLength(probsOf(rows), 4, N_CLASS, CLASSES, 3);
    assert.equal(fixed.text.length, 3);
    const forced = fixed.chars.filter((c) => c.p < 0.5);
    assert.equal(forced.length, 1, 'exactly the inserted character is unsure');
    assert.ok(fixed.chars.filter((c) => c.p > 0.8).length === 2);
  });

  test('an extra character is dropped where the network was least sure', () => {
    const rows = [
      [0.05, 0.9, 0.05, 0.0],
      [0.55, 0.05, 0.4, 0.0],
      [0.9, 0.05, 0.05, 0.0],
      [0.05, 0.9, 0.05, 0.0],
    ];
    // Greedy emits A, then nothing (blank 0.55), A: "AA". Asked for 3, the weak B at step 1 is the third.
    assert.equal(decodeCtc(probsOf(rows), 4, N_CLASS, CLASSES).text, 'AA');
    assert.equal(decodeCtcLength(probsOf(rows), 4, N_CLASS, CLASSES, 3).text, 'ABA');
    assert.equal(decodeCtcLength(probsOf(rows), 4, N_CLASS, CLASSES, 1).text, 'A');
  });

  test('too few steps for the length falls back to greedy', () => {
    const rows = [[0.05, 0.9, 0.05, 0.0]];
    assert.equal(decodeCtcLength(probsOf(rows), 1, N_CLASS, CLASSES, 3).text, 'A');
  });

  test('the band length is the ICAO length nearest the lines, within three characters', () => {
    assert.equal(bandLineLength([43, 44]), 44);
    assert.equal(bandLineLength([29, 30, 31]), 30);
    assert.equal(bandLineLength([35, 12]), 36);
    assert.equal(bandLineLength([40, 40]), null);
    assert.equal(bandLineLength([12]), null);
  });
});
