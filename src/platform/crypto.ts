import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import { randomBytesPooled } from './random.js';

/**
 * Envelope for secrets and personal data at rest: AES-256-GCM with a key derived from MASTER_KEY
 * per purpose, a random 96-bit nonce, and the purpose bound as associated data so a ciphertext
 * cannot be moved from one use to another. Format: "v1." + base64url(nonce ‖ tag ‖ ciphertext).
 */
export class Sealer {
  private readonly keys = new Map<string, Buffer>();
  constructor(private readonly masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('master key must be 32 bytes');
  }

  private key(purpose: string): Buffer {
    let k = this.keys.get(purpose);
    if (!k) {
      k = createHmac('sha256', this.masterKey).update(`verity:${purpose}`).digest();
      this.keys.set(purpose, k);
    }
    return k;
  }

  sealBytes(purpose: string, plain: Buffer): Buffer {
    const nonce = randomBytesPooled(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(purpose), nonce);
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([Buffer.from([1]), nonce, cipher.getAuthTag(), body]);
  }

  openBytes(purpose: string, sealed: Buffer): Buffer {
    if (sealed[0] !== 1 || sealed.length < 29) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key(purpose), sealed.subarray(1, 13));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(sealed.subarray(13, 29));
    return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]);
  }

  /**
   * A keyed blind index (HMAC-SHA256 with the purpose's key, hex): equal inputs give equal indexes, so a
   * sealed value can be matched, but without MASTER_KEY the index cannot be computed for a guess.
   */
  blindIndex(purpose: string, text: string): string {
    return createHmac('sha256', this.key(purpose)).update(text).digest('hex');
  }

  seal(purpose: string, plain: string): string {
    return `v1.${this.sealBytes(purpose, Buffer.from(plain, 'utf8')).toString('base64url')}`;
  }

  open(purpose: string, sealed: string): string {
    if (!sealed.startsWith('v1.')) throw new Error('not a sealed value');
    return this.openBytes(purpose, Buffer.from(sealed.slice(3), 'base64url')).toString('utf8');
  }
}
