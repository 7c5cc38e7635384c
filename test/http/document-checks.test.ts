import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { MISSING_DATA, sharedDataDir } from '../fixtures/documents/shared-data.js';
import { ocrBAvailable, renderDocument } from '../fixtures/documents/render.js';
import { ANNA, PETER } from '../fixtures/documents/specimen-mrz.js';

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

const dataDir = sharedDataDir();
const noFont = ocrBAvailable() ? false : 'OCR-B font (Debian fonts-ocr-b) not installed; specimen documents cannot be rendered';
const b64 = (b: Buffer) => b.toString('base64');
const face = (name: string) => readFileSync(`${dataDir}/faces/deepface_subset/images/${name}`);
/** A real 64 × 64 PNG whose header is rewritten to declare width × height (10.8 GB decoded at 60000²). */
async function bombPng(width: number, height: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29); // IHDR CRC covers its type and 13 data bytes
  return png;
}

const tiny = b64(Buffer.from('plain text, not a picture'));

routeSecurityTests('createDocumentCheck', () => t, {
  method: 'POST',
  url: () => '/v1/checks/document',
  scope: 'checks:write',
  body: { front: tiny },
  malformed: { body: { front: tiny, allowed_countries: ['france'] }, field: 'allowed_countries[0]' },
});

let passport: Buffer;
describe('document check on a rendered specimen passport', { skip: noFont || (dataDir ? false : MISSING_DATA) }, () => {
  before(async () => {
    passport = await renderDocument({ kind: 'td3', person: ANNA, portrait: face('img5.jpg') });
  });

  test('sandbox: fields, MRZ and its check digits, signals, portrait kept; passed', async () => {
    const o = await t.tenant();
    const res = await t.call('POST', '/v1/checks/document', {
      key: o.sandboxKey,
      body: { front: b64(passport), minimum_age: 18, allowed_countries: ['UTO'], document_type: 'passport', subject_reference: 'cus_7' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const c = res.json();
    assert.equal(c.type, 'document');
    assert.equal(c.status, 'passed', c.reasons.join());
    assert.equal(c.result.fields.surname, 'ERIKSSON');
    assert.equal(c.result.fields.given_names, 'ANNA MARIA');
    assert.equal(c.result.fields.document_number, 'L898902C3');
    assert.equal(c.result.fields.birth_date, '1974-08-12');
    assert.equal(c.result.document_type, 'passport');
    assert.equal(c.result.mrz.format, 'TD3');
    assert.equal(c.result.mrz.valid, true);
    assert.ok(c.result.mrz.checks.every((x: { valid: boolean }) => x.valid));
    assert.ok(c.signals.some((s: { name: string; passed: boolean }) => s.name === 'holder_age' && s.passed));
    assert.ok(c.model.some((m: { name: string }) => m.name === 'verity-document-engine'));
    assert.ok(c.timings.front_mrz > 0 && c.timings.total > 0);
    assert.equal(c.result.portrait_found, true);
    assert.deepEqual(
      c.media.map((m: { kind: string }) => m.kind),
      ['document_front', 'document_portrait'],
    );
    const stored = (await t.call('GET', `/v1/checks/${c.id}`, { key: o.sandboxKey })).json();
    assert.deepEqual(stored.result.fields, c.result.fields);
  });

  test("production refuses the specimen; the caller's age and country rules apply", async () => {
    const o = await t.tenant();
    const live = (await t.call('POST', '/v1/checks/document', { key: o.productionKey, body: { front: b64(passport) } })).json();
    assert.equal(live.status, 'failed');
    assert.ok(live.reasons.includes('specimen_document'), live.reasons.join());
    const rules = (
      await t.call('POST', '/v1/checks/document', {
        key: o.sandboxKey,
        body: { front: b64(passport), minimum_age: 60, allowed_countries: ['FRA', 'DEU'] },
      })
    ).json();
    assert.equal(rules.status, 'failed');
    for (const r of ['under_minimum_age', 'issuing_country_not_allowed']) assert.ok(rules.reasons.includes(r), rules.reasons.join());
  });

  test('a card read from its back: the back decides, the front adds no "no MRZ" reason', async () => {
    const o = await t.tenant();
    const card = await renderDocument({ kind: 'td1', person: PETER });
    const front = await sharp({ create: { width: 1030, height: 650, channels: 3, background: '#dfe7ee' } })
      .png()
      .toBuffer();
    const c = (await t.call('POST', '/v1/checks/document', { key: o.sandboxKey, body: { front: b64(front), back: b64(card) } })).json();
    assert.equal(c.result.read_from, 'back');
    assert.equal(c.result.fields.document_number, 'D23145890');
    assert.equal(c.result.sides.front.mrz_found, false);
    assert.ok(!c.reasons.includes('no_machine_readable_zone'), c.reasons.join());
    assert.equal(c.status, 'passed', c.reasons.join());
  });

  test('face-match against the document: the portrait is cropped and compared', async () => {
    const o = await t.tenant();
    const c = (
      await t.call('POST', '/v1/checks/face-match', {
        key: o.sandboxKey,
        body: { selfie: b64(face('img6.jpg')), reference: b64(passport) },
      })
    ).json();
    assert.equal(c.signals.find((s: { name: string }) => s.name === 'reference_portrait_cropped')?.value, true);
    assert.equal(c.result.reference_type, 'document');
    assert.ok(c.timings.portrait_crop > 0);
    assert.equal(c.status, 'passed', JSON.stringify(c.signals));
    const other = (
      await t.call('POST', '/v1/checks/face-match', {
        key: o.sandboxKey,
        body: { selfie: b64(face('img17.jpg')), reference: b64(passport) },
      })
    ).json();
    assert.equal(other.status, 'failed');
  });
});

const utopia = dataDir ? `${dataDir}/mrz/passporteye_utopia_images/passport-td3.jpg` : '';
test('the ICAO Utopia specimen photo: fields read, expired', { skip: existsSync(utopia) ? false : MISSING_DATA }, async () => {
  const o = await t.tenant();
  const c = (await t.call('POST', '/v1/checks/document', { key: o.sandboxKey, body: { front: b64(readFileSync(utopia)) } })).json();
  assert.equal(c.result.fields.document_number, 'L898902C3');
  assert.equal(c.result.fields.surname, 'ERIKSSON');
  assert.equal(c.status, 'failed');
  assert.ok(c.reasons.includes('document_expired'), c.reasons.join());
});

describe('refused document input is a 400 naming the side', () => {
  test('a non-image and a decompression bomb', async () => {
    const o = await t.tenant();
    const text = await t.call('POST', '/v1/checks/document', { key: o.sandboxKey, body: { front: tiny } });
    assert.equal(text.statusCode, 400);
    assert.equal(text.json().error.field, 'front');
    const bomb = await bombPng(60_000, 60_000);
    const ok = await sharp({ create: { width: 800, height: 500, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    const res = await t.call('POST', '/v1/checks/document', { key: o.sandboxKey, body: { front: b64(ok), back: b64(bomb) } });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().error.field, 'back');
    assert.match(res.json().error.message, /too_many_pixels/);
  });
});
