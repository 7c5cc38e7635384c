// TRISA secure envelopes (JSON form of trisa.api.v1beta1.SecureEnvelope) with node:crypto.
// Payload: AES-256-GCM, laid out as ciphertext ‖ tag ‖ 12-byte nonce (checked on the shared unsealed fixture),
// HMAC-SHA256 over those payload bytes. Sealed envelopes carry encryption_key and hmac_secret encrypted with
// the recipient's RSA key (RSA-OAEP with SHA-512, as TRISA's rsaoaep package); the shared fixtures do not
// include the PEM keys, so sealed opening is tested with a key pair made by the test.
// The decrypted payload is a protobuf trisa.api.v1beta1.Payload; decoding protobuf is left to the caller.
import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createPublicKey,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  randomUUID,
  timingSafeEqual,
  KeyObject,
  type KeyLike,
} from 'node:crypto';
import { rejectCode } from '../../engines/travel-rule/index.js';

export interface TrisaEnvelopeJson {
  id: string;
  payload: string;
  encryption_key: string;
  encryption_algorithm: string;
  hmac: string;
  hmac_secret: string;
  hmac_algorithm: string;
  error: { code: string; message: string; retry: boolean; details?: unknown } | null;
  timestamp: string;
  sealed: boolean;
  public_key_signature: string;
}

export type OpenedEnvelope =
  | { kind: 'payload'; id: string; timestamp: string; payload: Buffer }
  /** A TRISA rejection: its code maps onto our reject codes (retryable from TRISA's own flag). */
  | { kind: 'error'; id: string; timestamp: string; code: string; message: string; retry: boolean; known: boolean };

export class TrisaEnvelopeError extends Error {
  override name = 'TrisaEnvelopeError';
}

const b64 = (s: string) => Buffer.from(s, 'base64');
const OAEP = { padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha512' } as const;

/** "SHA256:" + base64 of the SHA-256 of the public key's DER (SubjectPublicKeyInfo), TRISA's key signature. */
export function publicKeySignature(publicKey: KeyLike): string {
  const key = publicKey instanceof KeyObject && publicKey.type === 'public' ? publicKey : createPublicKey(publicKey);
  const der = key.export({ type: 'spki', format: 'der' });
  return `SHA256:${createHash('sha256').update(der).digest('base64').replace(/=+$/, '')}`;
}

/** Open an envelope: verify the HMAC, decrypt the payload. A sealed envelope needs our RSA private key. */
export function openEnvelope(env: TrisaEnvelopeJson, privateKey?: KeyLike): OpenedEnvelope {
  if (env.error) {
    const known = rejectCode(env.error.code) !== undefined;
    return {
      kind: 'error',
      id: env.id,
      timestamp: env.timestamp,
      code: env.error.code,
      message: env.error.message,
      retry: env.error.retry,
      known,
    };
  }
  if (env.encryption_algorithm !== 'AES256-GCM' || env.hmac_algorithm !== 'HMAC-SHA256') {
    throw new TrisaEnvelopeError(`unsupported algorithms ${env.encryption_algorithm} / ${env.hmac_algorithm}`);
  }
  let key = b64(env.encryption_key);
  let secret = b64(env.hmac_secret);
  if (env.sealed) {
    if (privateKey === undefined) throw new TrisaEnvelopeError('a sealed envelope needs the recipient private key');
    try {
      key = privateDecrypt({ key: privateKey, ...OAEP }, key);
      secret = privateDecrypt({ key: privateKey, ...OAEP }, secret);
    } catch {
      throw new TrisaEnvelopeError('cannot decrypt the envelope keys with this private key');
    }
  }
  const payload = b64(env.payload);
  const mac = createHmac('sha256', secret).update(payload).digest();
  const expected = b64(env.hmac);
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) throw new TrisaEnvelopeError('HMAC mismatch');
  if (key.length !== 32 || payload.length < 28) throw new TrisaEnvelopeError('malformed key or payload');
  const nonce = payload.subarray(payload.length - 12);
  const tag = payload.subarray(payload.length - 28, payload.length - 12);
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAuthTag(tag);
  try {
    const plain = Buffer.concat([decipher.update(payload.subarray(0, payload.length - 28)), decipher.final()]);
    return { kind: 'payload', id: env.id, timestamp: env.timestamp, payload: plain };
  } catch {
    throw new TrisaEnvelopeError('payload does not decrypt (wrong key or tampered)');
  }
}

/** Seal a payload for a recipient (sealed with their RSA public key), or leave the keys in clear when none is given. */
export function sealEnvelope(
  payload: Uint8Array,
  options: { recipientPublicKey?: KeyLike; id?: string; timestamp?: string } = {},
): TrisaEnvelopeJson {
  const key = randomBytes(32);
  const secret = randomBytes(32);
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const sealedPayload = Buffer.concat([cipher.update(payload), cipher.final(), cipher.getAuthTag(), nonce]);
  const mac = createHmac('sha256', secret).update(sealedPayload).digest();
  const pub = options.recipientPublicKey;
  const wrap = (b: Buffer) => (pub ? publicEncrypt({ key: pub, ...OAEP }, b) : b).toString('base64');
  return {
    id: options.id ?? randomUUID(),
    payload: sealedPayload.toString('base64'),
    encryption_key: wrap(key),
    encryption_algorithm: 'AES256-GCM',
    hmac: mac.toString('base64'),
    hmac_secret: wrap(secret),
    hmac_algorithm: 'HMAC-SHA256',
    error: null,
    timestamp: options.timestamp ?? new Date().toISOString(),
    sealed: pub !== undefined,
    public_key_signature: pub ? publicKeySignature(pub) : '',
  };
}
