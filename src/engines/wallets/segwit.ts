import { bech32, bech32m, hex } from '@scure/base';
import { AddressError } from './types.js';

// BIP-173 / BIP-350 segregated-witness addresses: version 0 must use bech32 and carry a 20- or
// 32-byte program; versions 1–16 must use bech32m with 2–40 bytes. Mixed case is forbidden by BIP-173.

export interface SegwitDecoded {
  hrp: string;
  version: number;
  program: Uint8Array;
  normalized: string;
}

export function decodeSegwit(s: string, hrps: readonly string[]): SegwitDecoded {
  if (s !== s.toLowerCase() && s !== s.toUpperCase())
    throw new AddressError('mixed_case', 'bech32 addresses must not mix upper and lower case');
  const lower = s.toLowerCase();
  const sep = lower.lastIndexOf('1');
  const hrp = sep > 0 ? lower.slice(0, sep) : '';
  if (!hrps.includes(hrp)) throw new AddressError('unknown_prefix', `human-readable part "${hrp}" is not one of ${hrps.join(', ')}`);
  if (lower.length > 90) throw new AddressError('wrong_length', 'bech32 strings are at most 90 characters');
  if (!/^[qpzry9x8gf2tvdw0s3jn54khce6mua7l]+$/.test(lower.slice(sep + 1)))
    throw new AddressError('bad_character', 'character outside the bech32 alphabet');
  const asV0 = bech32.decodeUnsafe(lower, 90);
  const asM = asV0 ? undefined : bech32m.decodeUnsafe(lower, 90);
  const dec = asV0 ?? asM;
  if (!dec) throw new AddressError('bad_checksum', 'neither a bech32 nor a bech32m checksum matches');
  const [version, ...data] = dec.words;
  if (version === undefined || version > 16)
    throw new AddressError('wrong_witness_version', `witness version ${version ?? 'missing'} is not 0–16`);
  if (version === 0 && !asV0) throw new AddressError('wrong_witness_version', 'witness version 0 must use bech32, not bech32m');
  if (version > 0 && asV0)
    throw new AddressError('wrong_witness_version', `witness version ${version} must use bech32m (BIP-350), not bech32`);
  const program = bech32.fromWordsUnsafe(data);
  if (!program) throw new AddressError('bad_character', 'witness program has non-zero padding');
  if (program.length < 2 || program.length > 40)
    throw new AddressError('wrong_length', `witness program is ${program.length} bytes, expected 2–40`);
  if (version === 0 && program.length !== 20 && program.length !== 32)
    throw new AddressError('wrong_length', `version 0 program is ${program.length} bytes, expected 20 or 32`);
  return { hrp, version, program, normalized: lower };
}

/** scriptPubKey hex of a segwit output (used by tests against the BIP vectors). */
export function segwitScriptHex(d: SegwitDecoded): string {
  const op = d.version === 0 ? 0 : 0x50 + d.version;
  return hex.encode(Uint8Array.from([op, d.program.length, ...d.program]));
}
