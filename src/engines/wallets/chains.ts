import { hex } from '@scure/base';
import { decodeBase58check, decodeMonero, encodeBase58check } from './base58-codecs.js';
import { decodeCashAddr, encodeCashAddr } from './cashaddr.js';
import { decodeEvm } from './evm.js';
import { decodeSegwit } from './segwit.js';
import { AddressError, type ChainFamily, type ParsedAddress } from './types.js';

// The chain registry: one entry per chain, each with the names OFAC and callers use for it and
// a decoder that either returns the parsed address or throws an AddressError naming the reason.
// Adding a chain is adding one entry.

export interface ChainEntry {
  id: string;
  name: string;
  family: ChainFamily;
  /** Upper-case codes that name this chain (OFAC "Digital Currency Address - XBT" etc.). */
  aliases: string[];
  /** Cheap shape test used by inference before the full decode. */
  shape: RegExp;
  decode(input: string): ParsedAddress;
}

interface UtxoParams {
  id: string;
  name: string;
  aliases: string[];
  p2pkh: number[];
  p2sh: number[];
  versionBytes?: number;
  hrps?: string[];
  cashaddr?: boolean;
  shape: RegExp;
}

function utxo(p: UtxoParams): ChainEntry {
  const vb = p.versionBytes ?? 1;
  return {
    id: p.id,
    name: p.name,
    family: 'utxo',
    aliases: p.aliases,
    shape: p.shape,
    decode(input) {
      const s = input.trim();
      if (!s) throw new AddressError('empty', 'address is empty');
      const base = { chain: p.id, family: 'utxo' as const, input: s, checksum: 'valid' as const };
      const lower = s.toLowerCase();
      if (p.hrps && p.hrps.some((h) => lower.startsWith(`${h}1`))) {
        const d = decodeSegwit(s, p.hrps);
        return {
          ...base,
          kind: 'segwit',
          normalized: d.normalized,
          keys: [d.normalized],
          payloadHex: `${d.version}:${hex.encode(d.program)}`,
        };
      }
      if (p.cashaddr && (/^(bitcoincash:)?[qp][02-9ac-hj-np-z]{41}$/i.test(s) || lower.startsWith('bitcoincash:'))) {
        const d = decodeCashAddr(s);
        const legacy = encodeBase58check(d.type === 'p2pkh' ? p.p2pkh[0]! : p.p2sh[0]!, d.hash);
        return {
          ...base,
          kind: d.type === 'p2pkh' ? 'cashaddr-p2pkh' : 'cashaddr-p2sh',
          normalized: d.normalized,
          keys: [d.normalized, legacy],
          payloadHex: hex.encode(d.hash),
        };
      }
      const d = decodeBase58check(s, vb);
      const kind = p.p2pkh.includes(d.version) ? 'p2pkh' : p.p2sh.includes(d.version) ? 'p2sh' : undefined;
      if (!kind) throw new AddressError('unknown_prefix', `version ${d.version} is not a ${p.name} address version`);
      if (p.cashaddr) {
        const ca = encodeCashAddr(kind, d.payload);
        return { ...base, kind, normalized: ca, keys: [ca, s], payloadHex: hex.encode(d.payload) };
      }
      return { ...base, kind, normalized: s, keys: [s], payloadHex: hex.encode(d.payload) };
    },
  };
}

function evm(id: string, name: string, aliases: string[]): ChainEntry {
  return {
    id,
    name,
    family: 'evm',
    aliases,
    shape: /^0[xX][0-9a-fA-F]{40}$/,
    decode(input) {
      const s = input.trim();
      if (!s) throw new AddressError('empty', 'address is empty');
      const d = decodeEvm(s);
      return {
        chain: id,
        family: 'evm',
        kind: 'account',
        input: s,
        normalized: d.normalized,
        keys: [d.normalized],
        checksum: d.checksum,
        payloadHex: d.normalized.slice(2),
      };
    },
  };
}

const B58_SHAPE = (first: string): RegExp => new RegExp(`^[${first}][1-9A-HJ-NP-Za-km-z]{25,34}$`);

export const CHAINS: readonly ChainEntry[] = [
  utxo({
    id: 'bitcoin',
    name: 'Bitcoin',
    aliases: ['XBT', 'BTC'],
    p2pkh: [0x00],
    p2sh: [0x05],
    hrps: ['bc'],
    shape: /^([13][1-9A-HJ-NP-Za-km-z]{25,34}|(bc|BC)1[0-9A-Za-z]{8,87})$/,
  }),
  utxo({
    id: 'litecoin',
    name: 'Litecoin',
    aliases: ['LTC'],
    p2pkh: [0x30],
    p2sh: [0x32, 0x05],
    hrps: ['ltc'],
    shape: /^([LM3][1-9A-HJ-NP-Za-km-z]{25,34}|(ltc|LTC)1[0-9A-Za-z]{8,87})$/,
  }),
  utxo({
    id: 'bitcoin-cash',
    name: 'Bitcoin Cash',
    aliases: ['BCH'],
    p2pkh: [0x00],
    p2sh: [0x05],
    cashaddr: true,
    shape: /^([13][1-9A-HJ-NP-Za-km-z]{25,34}|(bitcoincash:)?[qpQP][0-9A-Za-z]{41})$/i,
  }),
  utxo({ id: 'bitcoin-sv', name: 'Bitcoin SV', aliases: ['BSV'], p2pkh: [0x00], p2sh: [0x05], shape: B58_SHAPE('13') }),
  utxo({
    id: 'bitcoin-gold',
    name: 'Bitcoin Gold',
    aliases: ['BTG'],
    p2pkh: [0x26],
    p2sh: [0x17],
    hrps: ['btg'],
    shape: /^([GA][1-9A-HJ-NP-Za-km-z]{25,34}|btg1[0-9a-z]{8,87})$/i,
  }),
  utxo({ id: 'dash', name: 'Dash', aliases: ['DASH'], p2pkh: [0x4c], p2sh: [0x10], shape: B58_SHAPE('X7') }),
  utxo({
    id: 'zcash',
    name: 'Zcash (transparent)',
    aliases: ['ZEC'],
    p2pkh: [0x1cb8],
    p2sh: [0x1cbd],
    versionBytes: 2,
    shape: /^t[13][1-9A-HJ-NP-Za-km-z]{33}$/,
  }),
  utxo({ id: 'verge', name: 'Verge', aliases: ['XVG'], p2pkh: [0x1e], p2sh: [0x21], shape: B58_SHAPE('DE') }),
  utxo({ id: 'dogecoin', name: 'Dogecoin', aliases: ['DOGE'], p2pkh: [0x1e], p2sh: [0x16], shape: B58_SHAPE('D9A') }),
  evm('ethereum', 'Ethereum', ['ETH']),
  evm('ethereum-classic', 'Ethereum Classic', ['ETC']),
  evm('bsc', 'BNB Smart Chain', ['BSC', 'BNB', 'BEP20']),
  evm('arbitrum', 'Arbitrum One', ['ARB']),
  evm('polygon', 'Polygon PoS', ['MATIC', 'POL']),
  evm('optimism', 'OP Mainnet', ['OP']),
  evm('base', 'Base', ['BASE']),
  evm('avalanche-c', 'Avalanche C-Chain', ['AVAX']),
  {
    id: 'tron',
    name: 'TRON',
    family: 'tron',
    aliases: ['TRX', 'TRC20'],
    shape: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
    decode(input) {
      const s = input.trim();
      if (!s) throw new AddressError('empty', 'address is empty');
      const d = decodeBase58check(s, 1);
      if (d.version !== 0x41)
        throw new AddressError('unknown_prefix', `TRON addresses carry version 0x41, got 0x${d.version.toString(16)}`);
      return {
        chain: 'tron',
        family: 'tron',
        kind: 'account',
        input: s,
        normalized: s,
        keys: [s],
        checksum: 'valid',
        payloadHex: hex.encode(d.payload),
      };
    },
  },
  {
    id: 'xrp',
    name: 'XRP Ledger',
    family: 'xrp',
    aliases: ['XRP'],
    shape: /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/,
    decode(input) {
      const s = input.trim();
      if (!s) throw new AddressError('empty', 'address is empty');
      const d = decodeBase58check(s, 1, 'xrp');
      if (d.version !== 0) throw new AddressError('unknown_prefix', `XRP account ids carry version 0, got ${d.version}`);
      return {
        chain: 'xrp',
        family: 'xrp',
        kind: 'account',
        input: s,
        normalized: s,
        keys: [s],
        checksum: 'valid',
        payloadHex: hex.encode(d.payload),
      };
    },
  },
  {
    id: 'monero',
    name: 'Monero',
    family: 'monero',
    aliases: ['XMR'],
    shape: /^[48][1-9A-HJ-NP-Za-km-z]{94}([1-9A-HJ-NP-Za-km-z]{11})?$/,
    decode(input) {
      const s = input.trim();
      if (!s) throw new AddressError('empty', 'address is empty');
      const d = decodeMonero(s);
      return {
        chain: 'monero',
        family: 'monero',
        kind: d.kind,
        input: s,
        normalized: s,
        keys: [s],
        checksum: 'valid',
        payloadHex: d.payloadHex,
      };
    },
  },
];

/** Tokens are not chains: a USDT address lives on one of its host chains (Omni on Bitcoin included). */
export const TOKEN_HOSTS: Readonly<Record<string, readonly string[]>> = {
  USDT: ['ethereum', 'tron', 'bsc', 'arbitrum', 'polygon', 'optimism', 'avalanche-c', 'bitcoin'],
  USDC: ['ethereum', 'tron', 'bsc', 'arbitrum', 'polygon', 'optimism', 'base', 'avalanche-c'],
};
