import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { compareVisualZone, containsExact, containsFuzzy } from './viz.js';
import type { MrzOcr } from './mrz-ocr.js';
import type { DocumentFields } from './types.js';

// A TD3 page at 10 px/mm (125 × 88 mm) with its MRZ band along the bottom; the OCR of the printed zone is
// given, so the test is about the comparison, not the reading.
const gray = { data: new Uint8Array(1250 * 880).fill(255), width: 1250, height: 880 };
const band = { center: { x: 625, y: 820 }, angle: 0, length: 1120, height: 70, lineCount: 2, linePitch: 40, score: 1 };
const fields = { documentNumber: 'L898902C3', surname: 'MARIA', givenNames: 'ANNA SOFIA' } as DocumentFields;
const ocrReading = (text: string): MrzOcr => ({ recogniseText: async () => ({ text, confidence: 90 }) }) as unknown as MrzOcr;
const compare = (text: string, f: DocumentFields = fields) => compareVisualZone(gray, band, false, 'TD3', f, ocrReading(text));

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
});
