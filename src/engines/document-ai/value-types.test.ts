import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { checkIban, makeIban, ibanMod97 } from './iban.js';
import { findTypedValues, parseAmount } from './value-types.js';
import { validateFieldSpecs, DocumentAiInputError } from './field-spec.js';
import { parsePdfDate } from './tamper-pdf.js';
import { estimateQuality } from './jpeg-tables.js';
import { dictEntry, splitRevisions } from './pdf-structure.js';

describe('IBAN', () => {
  test('validates published examples and rejects a flipped digit', () => {
    assert.equal(checkIban('GB82 WEST 1234 5698 7654 32').valid, true);
    assert.equal(checkIban('DE89370400440532013000').valid, true);
    assert.equal(checkIban('GB82 WEST 1234 5698 7654 33').reason, 'bad_check_digits');
    assert.equal(checkIban('GB82 WEST 1234 5698 7654').reason, 'wrong_length');
    assert.equal(checkIban('ZZ82 1234').reason, 'unknown_country');
  });
  test('makeIban computes check digits that mod-97 accepts', () => {
    const iban = makeIban('NL', 'ABNA0417164300');
    assert.equal(iban, 'NL91ABNA0417164300');
    assert.equal(ibanMod97(iban), 1);
  });
});

describe('typed values', () => {
  test('amounts in both decimal conventions', () => {
    assert.equal(parseAmount('EUR 1.234,56'), 1234.56);
    assert.equal(parseAmount('$1,234.56'), 1234.56);
    assert.equal(parseAmount('£ 12'), 12);
    assert.deepEqual(
      findTypedValues('amount', 'Invoice 2026 total £1,250.00 due').map((v) => v.normalized),
      [1250],
    );
  });
  test('dates, emails and phones normalise', () => {
    assert.equal(findTypedValues('date', 'Issued 03/04/2026', { monthFirst: true })[0]?.normalized, '2026-03-04');
    assert.equal(findTypedValues('email', 'Write to Billing@Example.COM today')[0]?.normalized, 'billing@example.com');
    const phone = findTypedValues('phone', 'Call 020 7946 0958 now', { defaultCountry: 'GB' })[0];
    assert.equal(phone?.normalized, '+442079460958');
    assert.equal(phone?.valid, true);
  });
});

describe('field specs', () => {
  const code = (f: () => void) => {
    try {
      f();
      return 'ok';
    } catch (e) {
      return e instanceof DocumentAiInputError ? e.field : String(e);
    }
  };
  test('rejects bad specs with the offending path', () => {
    assert.equal(
      code(() => validateFieldSpecs([])),
      'fields',
    );
    assert.equal(
      code(() => validateFieldSpecs([{ name: 'x' }])),
      'fields[0]',
    );
    assert.equal(
      code(() =>
        validateFieldSpecs([
          { name: 'a', anchor: 'A' },
          { name: 'a', anchor: 'B' },
        ]),
      ),
      'fields[1].name',
    );
    assert.equal(
      code(() => validateFieldSpecs([{ name: 'p', pattern: '([a-z]+)+$' }])),
      'fields[0].pattern',
    );
    assert.equal(
      code(() => validateFieldSpecs([{ name: 'p', pattern: '(' }])),
      'fields[0].pattern',
    );
    assert.equal(
      code(() => validateFieldSpecs([{ name: 'r', region: { page: 1, x: 0.8, y: 0, w: 0.5, h: 0.1 } }])),
      'fields[0].region',
    );
    assert.equal(
      code(() => validateFieldSpecs([{ name: 'iban', type: 'iban' }])),
      'ok',
    );
  });
});

describe('helpers', () => {
  test('PDF dates with offsets', () => {
    assert.equal(parsePdfDate("D:20260301120000+01'00'")?.toISOString(), '2026-03-01T11:00:00.000Z');
    assert.equal(parsePdfDate('D:20260301')?.toISOString(), '2026-03-01T00:00:00.000Z');
    assert.equal(parsePdfDate(null), null);
  });
  test('dictionary entries: references, arrays and nested dictionaries', () => {
    const body =
      '<< /Type /Page /Contents [4 0 R 9 0 R] /Resources << /Font << /F1 5 0 R >> /ProcSet [/PDF] >> /Parent 2 0 R /Annots 12 0 R >>';
    assert.equal(dictEntry(body, 'Contents'), '[4 0 R 9 0 R]');
    assert.equal(dictEntry(body, 'Resources'), '<< /Font << /F1 5 0 R >> /ProcSet [/PDF] >>');
    assert.equal(dictEntry(body, 'Parent'), '2 0 R');
    assert.equal(dictEntry(body, 'MediaBox'), null);
  });
  test('revisions are split at each %%EOF with the objects each one defines', () => {
    const pdf = Buffer.from(
      '%PDF-1.7\n1 0 obj\n<< /A 1 >>\nendobj\n2 0 obj\n<< /B 2 >>\nendobj\n%%EOF\n2 0 obj\n<< /B 3 >>\nendobj\n%%EOF\n',
      'latin1',
    );
    const revs = splitRevisions(pdf);
    assert.deepEqual(
      revs.map((r) => r.objects.sort()),
      [[1, 2], [2]],
    );
    assert.equal(revs[1]?.bodies.get(2)?.trim(), '<< /B 3 >>');
  });
  test('IJG quality estimate inverts the standard table scaling', () => {
    const base = [
      16, 11, 12, 14, 12, 10, 16, 14, 13, 14, 18, 17, 16, 19, 24, 40, 26, 24, 22, 22, 24, 49, 35, 37, 29, 40, 58, 51, 61, 60, 57, 51, 56,
      55, 64, 72, 92, 78, 64, 68, 87, 69, 55, 56, 80, 109, 81, 87, 95, 98, 103, 104, 103, 62, 77, 113, 121, 112, 100, 120, 92, 101, 103, 99,
    ];
    const q80 = base.map((v) => Math.max(1, Math.floor((v * 40 + 50) / 100)));
    assert.equal(estimateQuality(q80).quality, 80);
    assert.ok(estimateQuality(q80).ijgFit > 0.99);
  });
});
