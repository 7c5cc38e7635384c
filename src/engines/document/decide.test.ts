import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { decide } from './decide.js';
import { parseMrz } from './mrz-parse.js';
import type { DocumentFields } from './types.js';

const NOW = new Date('2011-01-01T00:00:00Z');
/** The decision on a clean capture of these MRZ lines read by two engines that agreed. */
function decideOn(lines: string[]) {
  const mrz = parseMrz(lines, { now: NOW });
  const f = mrz.fields;
  const fields = { ...f } as unknown as DocumentFields;
  return decide({
    fields,
    mrz,
    mrzConfidence: 90,
    mrzFailureAgreement: 0,
    mrzEngines: 2,
    mrzUncertainFields: [],
    barcodeRead: false,
    quality: { signals: [], blurry: false, lowResolution: false, glare: false, outOfFrame: false },
    tamper: { signals: [], editingSoftware: null, screenshot: false, mrzPrintInconsistent: false, screenMoire: false },
    viz: null,
    options: { acceptSpecimens: true },
    now: NOW,
  });
}

describe('fields no check digit covers (issue #19, real line crops)', () => {
  test('the German specimen ID card read right passes', () => {
    const d = decideOn(['IDD<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<', '1220001518D<<6408125<1110078<<<<<<<0']);
    assert.equal(d.verdict, 'passed', d.reasons.join(','));
  });

  test('a K read as the filler (ERI<A) leaves a one-letter name part: never passed, the field is named', () => {
    const d = decideOn(['IDD<<MUSTERMANN<<ERI<A<<<<<<<<<<<<<<', '1220001518D<<6408125<1110078<<<<<<<0']);
    assert.equal(d.verdict, 'needs_review');
    assert.ok(d.reasons.includes('mrz_field_ambiguous'));
    assert.equal(d.signals.find((s) => s.name === 'mrz_field_ambiguous')?.value, 'givenNames');
  });

  test('a nationality that is no state code (BSL for BEL) is not reported valid', () => {
    const d = decideOn(['I<BELLE<MEUNIER<<JENNIFER<ANNE<<<<<<', 'P9992033<0BSL6002017F0008017<<<<<<<0']);
    assert.notEqual(d.verdict, 'passed');
    assert.match(String(d.signals.find((s) => s.name === 'mrz_field_ambiguous')?.value), /nationality/);
  });
});
