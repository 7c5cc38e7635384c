import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { MISSING_DATA, sharedDataDir } from '../fixtures/documents/shared-data.js';
import { FACE_MATCH_THRESHOLD, FACE_REVIEW_THRESHOLD } from '../../src/engines/face/index.js';
import { multipartBody } from '../helpers/multipart.js';

// One app, hence one face engine (a single worker), for the whole file: model load is paid once.
let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

const dataDir = sharedDataDir();
const skip = dataDir ? false : MISSING_DATA;
const face = (name: string) => readFileSync(`${dataDir}/faces/deepface_subset/images/${name}`);
const spoofSample = (name: string) => readFileSync(`${dataDir}/faces/antispoof_minivision/${name}`);
const b64 = (b: Buffer) => b.toString('base64');

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A well-formed ~100-byte PNG declaring 100000 × 100000 RGB pixels (30 GB decoded): a decompression bomb. */
function bombPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(100_000, 0);
  ihdr.writeUInt32BE(100_000, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** multipart/form-data as curl -F sends it: JPEG files plus plain fields. */
function multipart(
  files: Record<string, Buffer>,
  fields: Record<string, string> = {},
): { payload: Buffer; headers: Record<string, string> } {
  const jpegs = Object.fromEntries(
    Object.entries(files).map(([name, data]) => [name, { filename: `${name}.jpg`, type: 'image/jpeg', data }]),
  );
  const { body, contentType } = multipartBody(fields, jpegs);
  return { payload: body, headers: { 'content-type': contentType } };
}

const tiny = b64(Buffer.from('not an image at all'));
routeSecurityTests('createLivenessCheck', () => t, {
  method: 'POST',
  url: () => '/v1/checks/liveness',
  scope: 'checks:write',
  body: { image: tiny },
  malformed: { body: { image: 42 }, field: 'image' },
});
routeSecurityTests('createFaceMatchCheck', () => t, {
  method: 'POST',
  url: () => '/v1/checks/face-match',
  scope: 'checks:write',
  body: { selfie: tiny, reference: tiny },
  malformed: { body: { selfie: tiny }, field: 'reference' },
});
routeSecurityTests('createAgeEstimationCheck', () => t, {
  method: 'POST',
  url: () => '/v1/checks/age-estimation',
  scope: 'checks:write',
  body: { image: tiny, minimum_age: 18 },
  malformed: { body: { image: tiny, minimum_age: 0 }, field: 'minimum_age' },
});

describe('face checks on real faces', { skip }, () => {
  test('face-match: same person passes, a different person fails, with similarity, signals, model and timings', async () => {
    const o = await t.tenant();
    const same = await t.call('POST', '/v1/checks/face-match', {
      key: o.sandboxKey,
      body: { selfie: b64(face('img5.jpg')), reference: b64(face('img6.jpg')), reference_type: 'selfie', subject_reference: 'cus_1' },
    });
    assert.equal(same.statusCode, 200, same.body);
    const s = same.json();
    assert.match(s.id, /^chk_/);
    assert.equal(s.type, 'face_match');
    assert.equal(s.status, 'passed', JSON.stringify(s.signals));
    assert.ok(s.score >= FACE_MATCH_THRESHOLD && s.score <= 1, String(s.score));
    assert.equal(s.result.match, true);
    assert.equal(s.signals.find((x: { name: string }) => x.name === 'face_similarity').passed, true);
    assert.ok(s.model.some((m: { name: string }) => m.name === '@vladmandic/human'));
    assert.ok(s.timings.engine > 0 && s.timings.total >= s.timings.engine);
    assert.deepEqual(
      s.media.map((m: { kind: string }) => m.kind),
      ['selfie', 'reference'],
    );
    assert.equal(s.subject_reference, 'cus_1');

    const diff = (
      await t.call('POST', '/v1/checks/face-match', {
        key: o.sandboxKey,
        body: { selfie: b64(face('img5.jpg')), reference: b64(face('img17.jpg')), reference_type: 'selfie' },
      })
    ).json();
    assert.equal(diff.status, 'failed');
    assert.ok(diff.score < FACE_REVIEW_THRESHOLD, String(diff.score));
    assert.deepEqual(diff.reasons, ['face_similarity']);

    const stored = (await t.call('GET', `/v1/checks/${s.id}`, { key: o.sandboxKey })).json();
    assert.equal(stored.score, s.score);
    assert.deepEqual(stored.result, s.result);
  });

  test('face-match through multipart/form-data gives the same result as base64 JSON', async () => {
    const o = await t.tenant();
    const form = multipart({ selfie: face('img5.jpg'), reference: face('img6.jpg') }, { reference_type: 'selfie' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/checks/face-match',
      headers: { authorization: `Bearer ${o.sandboxKey}`, ...form.headers },
      payload: form.payload,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'passed');
    assert.equal(res.json().media[0].bytes, face('img5.jpg').length);
  });

  test('EXIF orientation is honoured: a selfie stored sideways with orientation 6 still matches', async () => {
    const o = await t.tenant();
    const sharp = (await import('sharp')).default;
    // Pixels turned 90° counter-clockwise; orientation 6 tells viewers to turn them back clockwise.
    const sideways = await sharp(await sharp(face('img6.jpg')).rotate(-90).toBuffer())
      .withMetadata({ orientation: 6 })
      .webp()
      .toBuffer();
    const res = (
      await t.call('POST', '/v1/checks/face-match', {
        key: o.sandboxKey,
        body: { selfie: b64(sideways), reference: b64(face('img5.jpg')), reference_type: 'selfie' },
      })
    ).json();
    assert.equal(res.media[0].content_type, 'image/webp');
    assert.equal(res.status, 'passed', JSON.stringify(res.signals));
  });

  test('a photo without a face is a failed check with a reason, not an error', async () => {
    const o = await t.tenant();
    const blank = await (
      await import('sharp')
    )
      .default({ create: { width: 400, height: 400, channels: 3, background: '#8a9' } })
      .jpeg()
      .toBuffer();
    const res = await t.call('POST', '/v1/checks/face-match', {
      key: o.sandboxKey,
      body: { selfie: b64(blank), reference: b64(face('img6.jpg')), reference_type: 'selfie' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'failed');
    assert.ok(res.json().reasons.includes('selfie_no_face'), res.json().reasons.join());
    assert.equal(res.json().score, null);
  });

  test('liveness: a live sample gives a scored check; the same still replayed as a burst fails', async () => {
    const o = await t.tenant();
    const live = await t.call('POST', '/v1/checks/liveness', { key: o.sandboxKey, body: { image: b64(spoofSample('image_T1.jpg')) } });
    assert.equal(live.statusCode, 200, live.body);
    const l = live.json();
    assert.equal(l.type, 'liveness');
    assert.ok(l.score > 0 && l.score <= 1);
    // docs/face.md: the minivision live sample passes (BPCER 0 on it).
    assert.equal(l.status, 'passed', JSON.stringify(l.signals));
    assert.ok(l.score >= l.result.threshold);
    for (const name of ['antispoof', 'liveness'])
      assert.ok(
        l.signals.some((s: { name: string }) => s.name.includes(name)),
        name,
      );
    const frame = b64(spoofSample('image_T1.jpg'));
    const replay = (await t.call('POST', '/v1/checks/liveness', { key: o.sandboxKey, body: { frames: [frame, frame, frame] } })).json();
    assert.equal(replay.status, 'failed', JSON.stringify(replay.signals));
    assert.equal(replay.result.frames, 3);
    assert.equal(replay.media.length, 3);
  });

  test("age-estimation: an estimate with a band; decided against the caller's minimum age", async () => {
    const o = await t.tenant();
    const adult = (
      await t.call('POST', '/v1/checks/age-estimation', { key: o.sandboxKey, body: { image: b64(face('img6.jpg')), minimum_age: 18 } })
    ).json();
    const { estimated_age: age, age_low: low, age_high: high } = adult.result;
    assert.ok(low < age && age < high, JSON.stringify(adult.result));
    assert.ok(age > 15 && age < 70, String(age));
    assert.equal(adult.status, low >= 18 ? 'passed' : 'needs_review');
    const tooYoung = (
      await t.call('POST', '/v1/checks/age-estimation', { key: o.sandboxKey, body: { image: b64(face('img6.jpg')), minimum_age: 99 } })
    ).json();
    assert.equal(tooYoung.status, 'failed');
    assert.deepEqual(tooYoung.reasons, ['estimated_under_minimum_age']);
  });

  test('an idempotent replay returns the same check and bills once', async () => {
    const o = await t.tenant();
    const call = () =>
      t.call('POST', '/v1/checks/liveness', {
        key: o.sandboxKey,
        headers: { 'idempotency-key': 'live-1' },
        body: { image: b64(face('img5.jpg')) },
      });
    const first = await call();
    const again = await call();
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.json().id, first.json().id);
    const usage = (await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json();
    assert.deepEqual(usage.modules, [{ module: 'checks', count: 1, operations: [{ operation: 'liveness', count: 1 }] }]);
    const ev = (await t.call('GET', `/v1/events?resource_id=${first.json().id}`, { key: o.sandboxKey })).json();
    assert.equal(ev.data.length, 1);
    assert.equal(ev.data[0].type, 'check.completed');
  });
});

describe('refused input is a 400 naming the field, never a 5xx', () => {
  test('a non-image names its field', async () => {
    const o = await t.tenant();
    const res = await t.call('POST', '/v1/checks/face-match', { key: o.sandboxKey, body: { selfie: tiny, reference: tiny } });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.field, 'selfie');
    const frames = await t.call('POST', '/v1/checks/liveness', { key: o.sandboxKey, body: { frames: [b64(bombPng()), tiny] } });
    assert.equal(frames.json().error.field, 'frames[1]');
  });

  test('a decompression bomb is refused from its header', async () => {
    const o = await t.tenant();
    for (const [url, body, field] of [
      ['/v1/checks/liveness', { image: b64(bombPng()) }, 'image'],
      ['/v1/checks/liveness', { frames: [b64(bombPng())] }, 'frames[0]'],
      ['/v1/checks/age-estimation', { image: b64(bombPng()), minimum_age: 18 }, 'image'],
      ['/v1/checks/face-match', { selfie: b64(bombPng()), reference: b64(bombPng()), reference_type: 'selfie' }, 'selfie'],
    ] as const) {
      const res = await t.call('POST', url, { key: o.sandboxKey, body });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.equal(res.json().error.field, field, url);
      assert.match(res.json().error.message, /too_many_pixels/);
    }
    const usage = (await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json();
    assert.deepEqual(usage.modules, [], 'refused input is not billed');
  });

  test('liveness needs exactly one of image and frames', async () => {
    const o = await t.tenant();
    const none = await t.call('POST', '/v1/checks/liveness', { key: o.sandboxKey, body: {} });
    assert.equal(none.statusCode, 400);
    assert.equal(none.json().error.field, 'image');
    const nine = await t.call('POST', '/v1/checks/liveness', { key: o.sandboxKey, body: { frames: Array(9).fill(tiny) } });
    assert.equal(nine.json().error.field, 'frames');
  });
});
