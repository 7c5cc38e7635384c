import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openEnvelope, publicKeySignature, sealEnvelope, TrisaEnvelopeError, type TrisaEnvelopeJson } from './index.js';

const dir = fileURLToPath(new URL('../../../../shared/data/travel_rule/trisa_envelope/', import.meta.url));
const skip = existsSync(dir) ? false : 'needs ../shared/data/travel_rule (not in a bare clone)';
const read = (f: string) => JSON.parse(readFileSync(dir + f, 'utf8')) as TrisaEnvelopeJson;

test('the shared unsealed envelope: HMAC verifies and AES-256-GCM opens (its payload is empty)', { skip }, () => {
  const opened = openEnvelope(read('unsealed_envelope.json'));
  assert.equal(opened.kind, 'payload');
  if (opened.kind === 'payload') {
    assert.equal(opened.id, 'ca4344e6-fb1e-4ba2-9ac7-f78fab5f00c0');
    assert.equal(opened.payload.length, 0);
  }
});

test('a tampered payload or HMAC is refused', { skip }, () => {
  const env = read('unsealed_envelope.json');
  const bytes = Buffer.from(env.payload, 'base64');
  bytes[0] = bytes[0]! ^ 1;
  assert.throws(() => openEnvelope({ ...env, payload: bytes.toString('base64') }), /HMAC mismatch/);
  assert.throws(() => openEnvelope({ ...env, hmac: Buffer.alloc(32).toString('base64') }), TrisaEnvelopeError);
});

test('the shared sealed envelope needs the recipient key, which the fixtures do not include', { skip }, () => {
  assert.throws(() => openEnvelope(read('sealed_envelope.json')), /needs the recipient private key/);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  assert.throws(() => openEnvelope(read('sealed_envelope.json'), privateKey), /cannot decrypt the envelope keys/);
});

test('the shared error envelope maps onto our reject codes', { skip }, () => {
  const opened = openEnvelope(read('error_envelope.json'));
  assert.deepEqual(opened, {
    kind: 'error',
    id: '2b3b4c95-0a78-4f2a-a9fa-041970f97144',
    timestamp: '2022-01-27T08:21:43Z',
    code: 'COMPLIANCE_CHECK_FAIL',
    message: 'specified account has been frozen temporarily',
    retry: false,
    known: true,
  });
});

test('seal then open round trip, unsealed and sealed with an RSA key pair', () => {
  const payload = Buffer.from('{"identity":{},"transaction":{"txid":"abc"}}');
  const clear = sealEnvelope(payload);
  const o1 = openEnvelope(clear);
  assert.ok(o1.kind === 'payload' && o1.payload.equals(payload));

  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const sealed = sealEnvelope(payload, { recipientPublicKey: publicKey, id: 'env-1' });
  assert.equal(sealed.sealed, true);
  assert.equal(sealed.public_key_signature, publicKeySignature(publicKey));
  assert.match(sealed.public_key_signature, /^SHA256:[A-Za-z0-9+/]{43}$/);
  const o2 = openEnvelope(sealed, privateKey);
  assert.ok(o2.kind === 'payload' && o2.payload.equals(payload) && o2.id === 'env-1');
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  assert.throws(() => openEnvelope(sealed, other), TrisaEnvelopeError);
});
