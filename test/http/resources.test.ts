import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DOCUMENT_READER, FACE_ENGINE, SENDERS, TEXT_CHECKS } from '../../src/modules/checks/index.js';

// The heavy engines start on first use only: building the app and serving requests that need no
// engine load no model (startup stays fast, and tests that never read a document start no OCR).
let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

test('building the app and answering requests that need no engine starts no engine', async () => {
  const o = await t.tenant();
  assert.equal((await t.call('GET', '/v1/verifications', { key: o.sandboxKey })).statusCode, 200);
  assert.equal((await t.call('GET', '/v1/journeys', { key: o.sandboxKey })).statusCode, 200);
  assert.equal(t.resources.started(DOCUMENT_READER), false);
  assert.equal(t.resources.started(FACE_ENGINE), false);
  assert.equal(t.resources.started(TEXT_CHECKS), false);
  assert.equal(t.resources.started(SENDERS), false);
});

test('the engines the routes use are the ones in the resources object, started by the first request that needs one', async () => {
  const o = await t.tenant();
  // An image the engine itself must look at (too small to hold a document): the reader starts to read it.
  const tiny = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
    .png()
    .toBuffer();
  const res = await t.call('POST', '/v1/checks/document', { key: o.sandboxKey, body: { front: tiny.toString('base64') } });
  assert.ok([200, 400].includes(res.statusCode), res.body);
  assert.equal(t.resources.started(DOCUMENT_READER), true);
  assert.equal(t.resources.started(FACE_ENGINE), false);
});
