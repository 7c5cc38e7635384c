import { base58, base58xmr, base58xrp, createBase58check, hex } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { AddressError, type AddressKind } from './types.js';

// Base58 families. We decode the raw alphabet first and verify the checksum ourselves so a caller
// learns *why* an address failed (bad character vs bad checksum vs wrong length vs unknown version),
// which @scure/base's base58check collapses into one exception.

const B58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const XRP58 = /^[rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz]+$/;

function dsha(b: Uint8Array): Uint8Array {
  return sha256(sha256(b));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function checked(raw: Uint8Array): Uint8Array {
  if (raw.length < 5) throw new AddressError('wrong_length', 'too short for a base58check address');
  const body = raw.subarray(0, raw.length - 4);
  if (!sameBytes(dsha(body).subarray(0, 4), raw.subarray(raw.length - 4)))
    throw new AddressError('bad_checksum', 'base58check checksum does not match');
  return body;
}

export interface VersionedPayload {
  version: number;
  payload: Uint8Array;
}

/**
 * Decodes base58check with a `versionBytes`-long version prefix (2 for Zcash t-addresses) and
 * a 20-byte hash (TRON: 1-byte 0x41 + 20).
 */
export function decodeBase58check(s: string, versionBytes = 1, alphabet: 'btc' | 'xrp' = 'btc'): VersionedPayload {
  if (!(alphabet === 'btc' ? B58 : XRP58).test(s)) throw new AddressError('bad_character', 'character outside the base58 alphabet');
  const body = checked((alphabet === 'btc' ? base58 : base58xrp).decode(s));
  if (body.length !== versionBytes + 20)
    throw new AddressError('wrong_length', `payload is ${body.length - versionBytes} bytes, expected 20`);
  let version = 0;
  for (let i = 0; i < versionBytes; i++) version = version * 256 + body[i]!;
  return { version, payload: body.subarray(versionBytes) };
}

export function encodeBase58check(version: number, payload: Uint8Array, versionBytes = 1): string {
  const v = versionBytes === 2 ? [version >> 8, version & 255] : [version];
  return createBase58check(sha256).encode(Uint8Array.from([...v, ...payload]));
}

export interface MoneroDecoded {
  kind: AddressKind;
  payloadHex: string;
}

const XMR_NET: Record<number, AddressKind> = { 18: 'monero-standard', 42: 'monero-subaddress', 19: 'monero-integrated' };

/** Monero mainnet addresses: netbyte ‖ spend key ‖ view key [‖ payment id] ‖ keccak checksum (4). */
export function decodeMonero(s: string): MoneroDecoded {
  if (/^[0-9a-fA-F]{64}$/.test(s))
    throw new AddressError('not_an_address', '64 hex characters: a transaction id or key, not a Monero address');
  if (!B58.test(s)) throw new AddressError('bad_character', 'character outside the base58 alphabet');
  if (s.length !== 95 && s.length !== 106)
    throw new AddressError('wrong_length', `Monero addresses are 95 or 106 characters, got ${s.length}`);
  let raw: Uint8Array;
  try {
    raw = base58xmr.decode(s);
  } catch {
    throw new AddressError('bad_character', 'not valid Monero base58 block encoding');
  }
  const body = raw.subarray(0, raw.length - 4);
  if (!sameBytes(keccak_256(body).subarray(0, 4), raw.subarray(raw.length - 4)))
    throw new AddressError('bad_checksum', 'Monero keccak checksum does not match');
  const kind = XMR_NET[body[0]!];
  if (!kind) throw new AddressError('unknown_prefix', `Monero network byte ${body[0]} is not a mainnet address type`);
  const expected = kind === 'monero-integrated' ? 73 : 65;
  if (body.length !== expected) throw new AddressError('wrong_length', `Monero ${kind} body is ${body.length} bytes, expected ${expected}`);
  return { kind, payloadHex: hex.encode(body.subarray(1)) };
}
