import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAddress, inferChains } from './parse.js';
import { decodeSegwit, segwitScriptHex } from './segwit.js';
import { decodeCashAddr } from './cashaddr.js';
import { eip55State, toChecksumAddress } from './evm.js';
import { AddressError } from './types.js';
import { encodeBase58check } from './base58-codecs.js';

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof AddressError) return e.reason;
    throw e;
  }
  return 'ok';
}

test('BIP-173/BIP-350 valid vectors decode to the expected scriptPubKey', () => {
  const cases: Array<[string, string]> = [
    ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', '0014751e76e8199196d454941c45d1b3a323f1433bd6'],
    [
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
      '5128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6',
    ],
    ['BC1SW50QGDZ25J', '6002751e'],
    ['bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', '5210751e76e8199196d454941c45d1b3a323'],
    [
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
      '512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798',
    ],
  ];
  for (const [addr, script] of cases) assert.equal(segwitScriptHex(decodeSegwit(addr, ['bc'])), script, addr);
});

test('BIP-350 invalid vectors are rejected with the right reason', () => {
  assert.equal(
    reason(() => decodeSegwit('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', ['bc'])),
    'wrong_witness_version',
  );
  assert.equal(
    reason(() => decodeSegwit('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', ['bc'])),
    'wrong_witness_version',
  );
  assert.equal(
    reason(() => decodeSegwit('BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL', ['bc'])),
    'wrong_witness_version',
  );
  assert.equal(
    reason(() => decodeSegwit('bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', ['bc'])),
    'mixed_case',
  );
  assert.equal(
    reason(() => decodeSegwit('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', ['bc'])),
    'bad_checksum',
  );
  assert.equal(
    reason(() => decodeSegwit('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', ['bc'])),
    'unknown_prefix',
  );
  assert.equal(
    reason(() => decodeSegwit('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3tb', ['bc'])),
    'bad_character',
  );
});

test('Bitcoin base58check: valid, bad checksum, unknown version', () => {
  const p = parseAddress('1Df883c96LVauVsx9FEgnsourD8DELwCUQ', 'XBT').address;
  assert.equal(p.chain, 'bitcoin');
  assert.equal(p.kind, 'p2pkh');
  assert.equal(parseAddress('3E6ZCKRrsdPc35chA9Eftp1h3DLW18NFNV', 'bitcoin').address.kind, 'p2sh');
  assert.equal(
    reason(() => parseAddress('1Df883c96LVauVsx9FEgnsourD8DELwCUR', 'bitcoin')),
    'bad_checksum',
  );
  assert.equal(
    reason(() => parseAddress('LNf2JDiuunBz7GMDKFYHN4rq5meXWxiwfb', 'bitcoin')),
    'unknown_prefix',
  );
  assert.equal(
    reason(() => parseAddress('1Df883c96LVauVsx9FEgnsourD8DEL0CUQ', 'bitcoin')),
    'bad_character',
  );
  assert.equal(
    reason(() => parseAddress(encodeBase58check(0, new Uint8Array(19)), 'bitcoin')),
    'wrong_length',
  );
});

test('CashAddr spec vectors convert to and from legacy', () => {
  const pairs: Array<[string, string]> = [
    ['1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a'],
    ['1KXrWXciRDZUpQwQmuM1DbwsKDLYAYsVLR', 'bitcoincash:qr95sy3j9xwd2ap32xkykttr4cvcu7as4y0qverfuy'],
    ['16w1D5WRVKJuZUsSRzdLp9w3YGcgoxDXb', 'bitcoincash:qqq3728yw0y47sqn6l2na30mcw6zm78dzqre909m2r'],
    ['3CWFddi6m4ndiGyKqzYvsFYagqDLPVMTzC', 'bitcoincash:ppm2qsznhks23z7629mms6s4cwef74vcwvn0h829pq'],
  ];
  for (const [legacy, ca] of pairs) {
    const fromLegacy = parseAddress(legacy, 'BCH').address;
    assert.equal(fromLegacy.normalized, ca);
    const fromCash = parseAddress(ca.toUpperCase(), 'BCH').address;
    assert.equal(fromCash.normalized, ca);
    assert.deepEqual(fromCash.keys, [ca, legacy]);
  }
  assert.equal(
    reason(() => decodeCashAddr('bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6c')),
    'bad_checksum',
  );
  assert.equal(
    reason(() => decodeCashAddr('bchtest:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a')),
    'unknown_prefix',
  );
});

test('EIP-55: valid, absent and invalid checksums; lower-cased key', () => {
  for (const a of [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ]) {
    assert.equal(eip55State(a), 'valid', a);
    assert.equal(toChecksumAddress(a.slice(2).toLowerCase()), a);
  }
  assert.equal(eip55State('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'), 'absent');
  assert.equal(eip55State('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'), 'invalid');
  const p = parseAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', 'ETH').address;
  assert.equal(p.checksum, 'invalid');
  assert.equal(p.normalized, '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed');
  assert.equal(
    reason(() => parseAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA', 'ETH')),
    'wrong_length',
  );
  assert.equal(
    reason(() => parseAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeG', 'ETH')),
    'bad_character',
  );
});

test('TRON, XRP, Monero, Zcash, Dash, Litecoin', () => {
  assert.equal(parseAddress('TBHTJqAy4DhHhmT3dNceJYNRz4SdLofLre', 'TRX').address.family, 'tron');
  assert.equal(
    reason(() => parseAddress('TBHTJqAy4DhHhmT3dNceJYNRz4SdLofLrf', 'TRX')),
    'bad_checksum',
  );
  assert.equal(parseAddress('rnXyVQzgxZe7TR1EPzTkGj2jxH4LMJYh66', 'XRP').address.chain, 'xrp');
  assert.equal(
    reason(() => parseAddress('rnXyVQzgxZe7TR1EPzTkGj2jxH4LMJYh67', 'XRP')),
    'bad_checksum',
  );
  const xmr = '49HqitRzdnhYjgTEAhgGpCfsjdTeMbUTU6cyR4JV1R7k2Eej9rGT8JpFiYDa4tZM6RZiFrHmMzgSrhHEqpDYKBe5B2ufNsL';
  assert.equal(parseAddress(xmr, 'XMR').address.kind, 'monero-standard');
  assert.equal(
    reason(() => parseAddress(xmr.slice(0, -1) + 'M', 'XMR')),
    'bad_checksum',
  );
  assert.equal(
    reason(() => parseAddress('5be5543ff73456ab9f2d207887e2af87322c651ea1a873c5b25b7ffae456c320', 'XMR')),
    'not_an_address',
  );
  assert.equal(parseAddress('t1MMXtBrSp1XG38Lx9cePcNUCJj5vdWfUWL', 'ZEC').address.kind, 'p2pkh');
  assert.equal(parseAddress('XnPFsRWTaSgiVauosEwQ6dEitGYXgwznz2', 'DASH').address.chain, 'dash');
  assert.equal(parseAddress('M8yFL6SFC6TreATegTyuSYkDfDRbisdpT3', 'LTC').address.kind, 'p2sh');
});

test('inference: 0x → every EVM chain, T… → TRON, legacy 1… → the base58 forks, bc1 → Bitcoin', () => {
  const evm = inferChains('0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c');
  assert.ok(evm.includes('ethereum') && evm.includes('bsc') && evm.includes('arbitrum') && evm.includes('ethereum-classic'));
  assert.ok(!evm.includes('tron'));
  assert.deepEqual(inferChains('TBHTJqAy4DhHhmT3dNceJYNRz4SdLofLre'), ['tron']);
  assert.deepEqual(inferChains('12sjrrhoFEsedNRhtgwvvRqjFTh8fZTDX9'), ['bitcoin', 'bitcoin-cash', 'bitcoin-sv']);
  assert.deepEqual(inferChains('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'), ['bitcoin']);
  assert.deepEqual(inferChains('DFFJhnQNZf8rf67tYnesPu7MuGUpYtzv7Z'), ['verge', 'dogecoin']);
  assert.deepEqual(inferChains('not an address'), []);
  // A token names its hosts: USDT on TRON and on Omni (Bitcoin) both parse.
  assert.equal(parseAddress('TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR', 'USDT').address.chain, 'tron');
  assert.equal(parseAddress('16iWn2J1McqjToYLHSsAyS6En3QA8YQ91H', 'USDT').address.chain, 'bitcoin');
  assert.equal(
    reason(() => parseAddress('abc', 'NOPE')),
    'unknown_chain',
  );
});
