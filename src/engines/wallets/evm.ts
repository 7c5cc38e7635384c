import { keccak_256 } from '@noble/hashes/sha3.js';
import { hex, utf8 } from '@scure/base';
import { AddressError, type ChecksumState } from './types.js';

// EIP-55 mixed-case checksum. The OFAC list carries both checksummed and all-lower-case spellings
// of EVM addresses, so the checksum is reported, never used to reject an all-one-case address.

export function toChecksumAddress(lowerHex40: string): string {
  const h = hex.encode(keccak_256(utf8.decode(lowerHex40)));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const ch = lowerHex40[i]!;
    out += parseInt(h[i]!, 16) >= 8 ? ch.toUpperCase() : ch;
  }
  return out;
}

export function eip55State(addr: string): ChecksumState {
  const body = addr.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return 'absent';
  return toChecksumAddress(body.toLowerCase()) === addr.slice(0, 2).toLowerCase() + body ? 'valid' : 'invalid';
}

export interface EvmDecoded {
  normalized: string;
  checksum: ChecksumState;
}

export function decodeEvm(s: string): EvmDecoded {
  if (!/^0[xX]/.test(s)) throw new AddressError('unknown_prefix', 'EVM addresses start with 0x');
  const body = s.slice(2);
  if (!/^[0-9a-fA-F]*$/.test(body)) throw new AddressError('bad_character', 'EVM addresses are hexadecimal');
  if (body.length !== 40) throw new AddressError('wrong_length', `EVM addresses are 20 bytes (40 hex digits), got ${body.length} digits`);
  return { normalized: `0x${body.toLowerCase()}`, checksum: eip55State(`0x${body}`) };
}
