import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { readDocument } from './read-document.js';
import { MrzOcr } from './mrz-ocr.js';
import { ocrBAvailable, renderDocument } from '../../../test/fixtures/documents/render.js';
import { photograph, DISTORTIONS } from '../../../test/fixtures/documents/photograph.js';
import { ANNA, PETER, buildTd3Mrz, tamperMrz, type SpecimenPerson } from '../../../test/fixtures/documents/specimen-mrz.js';
import { AAMVA_SAMPLE, renderPdf417 } from '../../../test/fixtures/documents/pdf417.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const ocr = new MrzOcr();
after(() => ocr.terminate());
// The visual-zone comparison needs a second (LSTM) OCR worker; only the tests about it turn it on.
const opts = { ocr, now: NOW, acceptSpecimens: true, compareVisualZone: false } as const;
const withViz = { ...opts, compareVisualZone: true } as const;
const skip = ocrBAvailable() ? false : 'OCR-B font (Debian fonts-ocr-b) not installed; synthetic documents cannot be rendered';

function expectFields(actual: Awaited<ReturnType<typeof readDocument>>['fields'], p: SpecimenPerson): void {
  assert.ok(actual, 'fields were read');
  assert.equal(actual.surname, p.surname);
  assert.equal(actual.givenNames, p.givenNames);
  assert.equal(actual.documentNumber, p.documentNumber);
  assert.equal(actual.issuingState, p.issuingState);
  assert.equal(actual.nationality, p.nationality);
  assert.equal(actual.birthDate, p.birthDate);
  assert.equal(actual.expiryDate, p.expiryDate);
  assert.equal(actual.sex, p.sex);
}

describe('readDocument on synthetic specimen documents', { skip }, () => {
  test('clean TD3 passport: every field exact, passed, portrait cropped', async () => {
    const r = await readDocument(await renderDocument({ kind: 'td3', person: ANNA }), withViz);
    expectFields(r.fields, ANNA);
    assert.equal(r.signals.find((s) => s.name === 'viz_document_number_match')?.passed, true);
    assert.equal(r.fields?.documentType, 'passport');
    assert.equal(r.fields?.personalNumber, ANNA.personalNumber);
    assert.equal(r.mrz?.format, 'TD3');
    assert.equal(r.mrz?.valid, true);
    assert.deepEqual(r.mrz?.lines, buildTd3Mrz(ANNA));
    assert.equal(r.verdict, 'passed', r.reasons.join(','));
    assert.ok(r.portrait && (await sharp(r.portrait).metadata()).height === 520);
    assert.ok(r.timings.total !== undefined && r.timings.mrz !== undefined);
  });

  test('TD1 card photographed at -7 degrees: deskewed and read exactly', async () => {
    const r = await readDocument(
      await photograph(await renderDocument({ kind: 'td1', person: PETER }), DISTORTIONS.rotated_minus7deg ?? {}),
      opts,
    );
    expectFields(r.fields, PETER);
    assert.equal(r.mrz?.format, 'TD1');
    assert.equal(r.verdict, 'passed', r.reasons.join(','));
    assert.equal(r.portrait, null, 'TD1 keeps the portrait on the other side in ICAO 9303-5');
  });

  test('upside-down passport photo is still read', async () => {
    const flat = await renderDocument({ kind: 'td3', person: ANNA });
    const r = await readDocument(
      await sharp(await photograph(flat, { rotateDeg: 2 }))
        .rotate(180)
        .png()
        .toBuffer(),
      opts,
    );
    expectFields(r.fields, ANNA);
  });

  test('strongly blurred capture is not passed and carries the blur signal', async () => {
    const r = await readDocument(
      await photograph(await renderDocument({ kind: 'td3', person: ANNA }), DISTORTIONS.blur_strong ?? {}),
      opts,
    );
    assert.notEqual(r.verdict, 'passed');
    assert.ok(r.reasons.includes('image_blurry'), r.reasons.join(','));
    assert.equal(r.signals.find((s) => s.name === 'mrz_sharpness')?.passed, false);
  });

  test('expired document fails with document_expired', async () => {
    const person = { ...ANNA, expiryDate: '2024-04-15' };
    const r = await readDocument(await renderDocument({ kind: 'td3', person }), opts);
    assert.equal(r.fields?.expiryDate, '2024-04-15');
    assert.equal(r.verdict, 'failed');
    assert.deepEqual(r.reasons, ['document_expired']);
  });

  test('the OCR engines are started before the MRZ reading budget runs: the first check of a cold engine gets the whole budget', async () => {
    const order: string[] = [];
    class Cold extends MrzOcr {
      override async init(o: { text?: boolean } = {}): Promise<void> {
        await super.init(o);
        if (!order.includes('init')) order.push('init');
      }
      override async recognise(...a: Parameters<MrzOcr['recognise']>): ReturnType<MrzOcr['recognise']> {
        order.push('recognise');
        return super.recognise(...a);
      }
    }
    const cold = new Cold();
    try {
      const r = await readDocument(await renderDocument({ kind: 'td3', person: ANNA }), { ...opts, ocr: cold });
      expectFields(r.fields, ANNA);
      assert.equal(order[0], 'init', 'started before the first pass, outside its budget');
    } finally {
      await cold.terminate();
    }
  });

  test('holder under the minimum age fails', async () => {
    const person = { ...PETER, birthDate: '2010-03-01' };
    const r = await readDocument(await renderDocument({ kind: 'td1', person }), { ...opts, minimumAge: 18 });
    assert.equal(r.verdict, 'failed');
    assert.ok(r.reasons.includes('under_minimum_age'), r.reasons.join(','));
    assert.equal(r.signals.find((s) => s.name === 'holder_age')?.value, 15);
  });

  test('an edited birth date (check digit no longer matches) fails', async () => {
    const lines = tamperMrz(buildTd3Mrz(ANNA));
    const r = await readDocument(await renderDocument({ kind: 'td3', person: ANNA, mrzLines: lines }), opts);
    assert.deepEqual(r.mrz?.lines, lines);
    assert.equal(r.verdict, 'failed');
    assert.ok(r.reasons.includes('mrz_check_digit_invalid'), r.reasons.join(','));
    assert.deepEqual(
      r.mrz?.checks.filter((c) => !c.valid).map((c) => c.field),
      ['birthDate', 'composite'],
    );
    // Every field's support is reported although no reading passes: the edited one low, the others not.
    const level = (f: string): string | undefined => r.mrz?.fieldConfidence.find((x) => x.field === f)?.level;
    assert.equal(level('birthDate'), 'low');
    for (const f of ['documentNumber', 'expiryDate', 'surname', 'givenNames']) assert.notEqual(level(f) ?? 'missing', 'low', f);
  });

  test('MRZ glyphs pasted in another font are flagged even with valid check digits', async () => {
    const r = await readDocument(
      await renderDocument({
        kind: 'td3',
        person: ANNA,
        foreignGlyphs: [
          { line: 1, column: 15 },
          { line: 1, column: 16 },
        ],
      }),
      opts,
    );
    assert.equal(r.mrz?.valid, true);
    assert.equal(r.verdict, 'needs_review');
    assert.deepEqual(r.reasons, ['mrz_print_inconsistent']);
    const genuine = await readDocument(await renderDocument({ kind: 'td3', person: ANNA }), opts);
    assert.equal(genuine.signals.find((s) => s.name === 'mrz_glyph_height_deviation')?.passed, true);
  });

  test('visual zone that disagrees with the MRZ is sent to review', async () => {
    const r = await readDocument(await renderDocument({ kind: 'td3', person: ANNA, vizPerson: PETER }), withViz);
    assert.equal(r.mrz?.valid, true);
    assert.deepEqual([r.verdict, r.reasons], ['needs_review', ['viz_mrz_mismatch']]);
    assert.equal(r.signals.find((s) => s.name === 'viz_surname_match')?.value, false);
  });

  test('the visual zone is read once, beside the MRZ search, from the first valid reading', async () => {
    // Network passes held back 1.5 s each, so the search is still waiting on one when tesseract's first reading is
    // valid: the zone's reading must start then (an MRZ pass in flight), not after the search.
    let inFlight = 0;
    const zoneReads: number[] = [];
    const pass = <T>(p: Promise<T>): Promise<T> => {
      inFlight++;
      return p.finally(() => inFlight--);
    };
    const spy = new Proxy(ocr, {
      get(target, key, receiver) {
        if (key === 'recogniseText')
          return (image: Parameters<MrzOcr['recogniseText']>[0]) => {
            zoneReads.push(inFlight);
            return target.recogniseText(image);
          };
        if (key === 'recognise') return (...a: Parameters<MrzOcr['recognise']>) => pass(target.recognise(...a));
        if (key === 'recogniseWith')
          return (...a: Parameters<MrzOcr['recogniseWith']>) =>
            pass(new Promise((r) => setTimeout(r, 1500)).then(() => target.recogniseWith(...a)));
        const v = Reflect.get(target, key, receiver) as unknown;
        return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(target) : v;
      },
    });
    const r = await readDocument(await renderDocument({ kind: 'td3', person: ANNA }), { ...withViz, ocr: spy });
    assert.equal(r.mrz?.valid, true);
    assert.equal(r.signals.find((s) => s.name === 'viz_document_number_match')?.passed, true);
    assert.equal(r.signals.find((s) => s.name === 'viz_surname_match')?.passed, true);
    assert.equal(zoneReads.length, 1, 'the zone is read once: the early reading is the one compared');
    assert.ok((zoneReads[0] ?? 0) > 0, 'the zone reading started while an MRZ pass was still running');
    assert.equal(r.verdict, 'passed', r.reasons.join(','));
  });

  test('policy: specimen refused by default, country allow list, document type', async () => {
    const png = await renderDocument({ kind: 'td3', person: ANNA });
    const strict = await readDocument(png, { ocr, now: NOW, compareVisualZone: false });
    assert.deepEqual([strict.verdict, strict.reasons], ['failed', ['specimen_document']]);
    const countries = await readDocument(png, { ...opts, allowedCountries: ['NLD', 'BEL'] });
    assert.deepEqual(countries.reasons, ['issuing_country_not_allowed']);
    const types = await readDocument(png, { ...opts, expectedDocumentTypes: ['id_card'] });
    assert.deepEqual(types.reasons, ['document_type_not_accepted']);
  });

  test('editing software in EXIF sends the check to review', async () => {
    const png = await renderDocument({ kind: 'td3', person: ANNA });
    const edited = await sharp(png)
      .jpeg({ quality: 92 })
      .withExif({ IFD0: { Software: 'Adobe Photoshop 25.0 (Windows)' } })
      .toBuffer();
    const r = await readDocument(edited, opts);
    assert.equal(r.verdict, 'needs_review');
    assert.deepEqual(r.reasons, ['editing_software_detected']);
  });
});

describe('readDocument without an MRZ', () => {
  test('AAMVA licence barcode supplies the fields', async () => {
    const r = await readDocument(await renderPdf417(AAMVA_SAMPLE), { ocr, now: NOW });
    assert.equal(r.fieldSource, 'barcode');
    assert.equal(r.fields?.documentNumber, 'T64235789');
    assert.equal(r.fields?.birthDate, '1986-06-06');
    assert.equal(r.fields?.jurisdiction, 'VA');
    assert.equal(r.verdict, 'passed', r.reasons.join(','));
  });

  test('an image without any document is sent to review, not passed', async () => {
    const blank = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#8a6a50' } })
      .png()
      .toBuffer();
    const r = await readDocument(blank, { ocr, now: NOW });
    assert.equal(r.verdict, 'needs_review');
    assert.deepEqual(r.reasons, ['no_machine_readable_zone']);
    assert.equal(r.fields, null);
  });
});
