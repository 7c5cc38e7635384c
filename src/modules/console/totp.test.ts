import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBase32Secret, hotp, newTotpSecret, totp, verifyTotp } from './totp.js';

// RFC 4226 appendix D: HOTP values for the ASCII secret "12345678901234567890", counters 0..9.
test('HOTP matches RFC 4226 appendix D', () => {
  const secret = Buffer.from('12345678901234567890');
  const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
  assert.deepEqual(
    expected.map((_, i) => hotp(secret, BigInt(i))),
    expected,
  );
});

// RFC 6238 appendix B: 8-digit TOTP for SHA-1, SHA-256 and SHA-512 with their seeds.
test('TOTP matches RFC 6238 appendix B', () => {
  const seeds = {
    sha1: Buffer.from('12345678901234567890'),
    sha256: Buffer.from('12345678901234567890123456789012'),
    sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
  } as const;
  const vectors: [number, string, string, string][] = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  for (const [t, s1, s256, s512] of vectors) {
    const at = new Date(t * 1000);
    assert.equal(totp(seeds.sha1, at, 8, 'sha1'), s1, `sha1 T=${t}`);
    assert.equal(totp(seeds.sha256, at, 8, 'sha256'), s256, `sha256 T=${t}`);
    assert.equal(totp(seeds.sha512, at, 8, 'sha512'), s512, `sha512 T=${t}`);
  }
});

test('verifyTotp accepts the current step and one either side, nothing further', () => {
  const secret = Buffer.from('12345678901234567890');
  const at = new Date(1111111111 * 1000);
  const step = BigInt(Math.floor(1111111111 / 30));
  assert.equal(verifyTotp(secret, totp(secret, at), at), step);
  assert.equal(verifyTotp(secret, totp(secret, new Date(at.getTime() - 30_000)), at), step - 1n);
  assert.equal(verifyTotp(secret, totp(secret, new Date(at.getTime() + 30_000)), at), step + 1n);
  assert.equal(verifyTotp(secret, totp(secret, new Date(at.getTime() - 90_000)), at), null);
  assert.equal(verifyTotp(secret, 'abcdef', at), null);
  assert.equal(verifyTotp(secret, '1234567', at), null);
});

test('a new secret is 160 bits and round-trips through base32', () => {
  const { secret, base32 } = newTotpSecret();
  assert.equal(secret.length, 20);
  assert.deepEqual(decodeBase32Secret(base32.toLowerCase()), secret);
});
