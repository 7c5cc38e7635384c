import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AddressIndex, TransferGraph, parseAddress, parseTransferLines, riskFingerprint, screenWallet } from './index.js';

const A = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;

test('transfer CSV import with header aliases; a missing field names the line', () => {
  const ts = parseTransferLines(`chain,tx_hash,from,to,amount,asset\nethereum,0x01,${A(1)},${A(2)},12.5,USDT\n`);
  assert.deepEqual(ts, [{ chain: 'ethereum', txHash: '0x01', from: A(1), to: A(2), amount: '12.5', asset: 'USDT' }]);
  assert.throws(() => parseTransferLines(`chain,from,to\nethereum,${A(1)},${A(2)}\n`), /line 2: amount is required/);
  const g = new TransferGraph();
  for (const t of ts) g.add(t);
  assert.equal(g.nodesOf(parseAddress(A(2)).address.keys[0]!)[0]!.unit, 'ethereum/USDT');
});

test('a new list version replaces the old one; the fingerprint changes only with level or categories', () => {
  const ix = new AddressIndex();
  ix.add([{ chain: 'ETH', address: A(1), category: 'sanctions', list: { name: 'ofac_sdn', version: 'v1' } }]);
  const before = screenWallet({ address: A(1) }, { indexes: ix });
  ix.removeList('ofac_sdn');
  assert.equal(ix.size, 0);
  ix.add([{ chain: 'ETH', address: A(2), category: 'sanctions', list: { name: 'ofac_sdn', version: 'v2' } }]);
  const after = screenWallet({ address: A(1) }, { indexes: ix });
  assert.notEqual(riskFingerprint(before), riskFingerprint(after));
  assert.equal(after.risk.level, 'low');
  assert.deepEqual(after.listVersions, { ofac_sdn: 'v2' });
  assert.equal(riskFingerprint(screenWallet({ address: A(2) }, { indexes: ix })), riskFingerprint(before));
});
