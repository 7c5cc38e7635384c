import { AddressError } from './types.js';

// Bitcoin Cash CashAddr (spec: bitcoincashorg/bitcoincash.org spec/cashaddr.md). A 40-bit BCH
// checksum over prefix ‖ 0 ‖ payload; BigInt keeps the polymod readable (addresses are short).

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GEN = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n];

function polymod(values: number[]): bigint {
  let c = 1n;
  for (const d of values) {
    const c0 = c >> 35n;
    c = ((c & 0x07ffffffffn) << 5n) ^ BigInt(d);
    for (let i = 0; i < 5; i++) if ((c0 >> BigInt(i)) & 1n) c ^= GEN[i]!;
  }
  return c ^ 1n;
}

function prefixWords(prefix: string): number[] {
  return [...prefix].map((ch) => ch.charCodeAt(0) & 31).concat(0);
}

function convert(data: number[], from: number, to: number, pad: boolean): number[] | undefined {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const max = (1 << to) - 1;
  for (const v of data) {
    acc = (acc << from) | v;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & max);
    }
  }
  if (pad && bits > 0) out.push((acc << (to - bits)) & max);
  else if (!pad && (bits >= from || (acc << (to - bits)) & max)) return undefined;
  return out;
}

export interface CashAddrDecoded {
  type: 'p2pkh' | 'p2sh';
  hash: Uint8Array;
  normalized: string;
}

/** Accepts `bitcoincash:q…` or the bare `q…`/`p…` form (the OFAC list omits the prefix). */
export function decodeCashAddr(s: string, prefix = 'bitcoincash'): CashAddrDecoded {
  if (s !== s.toLowerCase() && s !== s.toUpperCase()) throw new AddressError('mixed_case', 'CashAddr must not mix upper and lower case');
  const lower = s.toLowerCase();
  const colon = lower.indexOf(':');
  if (colon >= 0 && lower.slice(0, colon) !== prefix)
    throw new AddressError('unknown_prefix', `CashAddr prefix "${lower.slice(0, colon)}" is not ${prefix}`);
  const body = colon >= 0 ? lower.slice(colon + 1) : lower;
  const words: number[] = [];
  for (const ch of body) {
    const w = CHARSET.indexOf(ch);
    if (w < 0) throw new AddressError('bad_character', `"${ch}" is outside the CashAddr alphabet`);
    words.push(w);
  }
  if (words.length < 9) throw new AddressError('wrong_length', 'CashAddr too short');
  if (polymod([...prefixWords(prefix), ...words]) !== 0n) throw new AddressError('bad_checksum', 'CashAddr checksum does not match');
  const bytes = convert(words.slice(0, -8), 5, 8, false);
  if (!bytes || bytes.length < 1) throw new AddressError('bad_character', 'CashAddr payload has invalid padding');
  const version = bytes[0]!;
  const sizes = [20, 24, 28, 32, 40, 48, 56, 64];
  const size = sizes[version & 7]!;
  const typeBits = (version >> 3) & 15;
  if (version & 0x80 || typeBits > 1) throw new AddressError('unknown_prefix', `CashAddr version byte ${version} is not P2PKH or P2SH`);
  if (bytes.length - 1 !== size) throw new AddressError('wrong_length', `CashAddr hash is ${bytes.length - 1} bytes, version says ${size}`);
  return { type: typeBits === 0 ? 'p2pkh' : 'p2sh', hash: Uint8Array.from(bytes.slice(1)), normalized: `${prefix}:${body}` };
}

export function encodeCashAddr(type: 'p2pkh' | 'p2sh', hash: Uint8Array, prefix = 'bitcoincash'): string {
  const sizes = [20, 24, 28, 32, 40, 48, 56, 64];
  const version = (type === 'p2sh' ? 8 : 0) | sizes.indexOf(hash.length);
  const payload = convert([version, ...hash], 8, 5, true)!;
  const mod = polymod([...prefixWords(prefix), ...payload, 0, 0, 0, 0, 0, 0, 0, 0]);
  const check: number[] = [];
  for (let i = 0; i < 8; i++) check.push(Number((mod >> BigInt(5 * (7 - i))) & 31n));
  return `${prefix}:${[...payload, ...check].map((w) => CHARSET[w]).join('')}`;
}
