import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AddressIndex } from './address-index.js';
import { parseAttributionLines } from './attribution.js';
import { TransferGraph } from './exposure-graph.js';
import { DEFAULT_POLICY, levelFor, validatePolicy } from './policy.js';
import { screenWallet } from './screen.js';
import { parseTransferLines } from './transfers.js';
import { AddressError } from './types.js';
import { parseAddress } from './parse.js';

const A = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;
const OFAC = { name: 'ofac_sdn', version: '2024-05-03' };

function ofacIndex(): AddressIndex {
  const ix = new AddressIndex();
  ix.add([
    {
      chain: 'ETH',
      address: '0x19Aa5Fe80D33a56D56c78e82eA5E50E5d80b4Dff',
      category: 'sanctions',
      list: OFAC,
      entity: { id: '12345', name: 'EXAMPLE ENTITY' },
    },
    { chain: 'BCH', address: 'qpusmp64rajses77x95g9ah825mtyyv74smwwkxhx3', category: 'sanctions', list: OFAC },
    { chain: 'XMR', address: '5be5543ff73456ab9f2d207887e2af87322c651ea1a873c5b25b7ffae456c320', category: 'sanctions', list: OFAC },
  ]);
  return ix;
}

test('policy: defaults, thresholds and validation naming the field', () => {
  assert.equal(levelFor(DEFAULT_POLICY, 'sanctions', 'direct', 1), 'severe');
  assert.equal(levelFor(DEFAULT_POLICY, 'sanctions', 'indirect', 0.05), 'medium');
  assert.equal(levelFor(DEFAULT_POLICY, 'sanctions', 'indirect', 0.1), 'high');
  assert.equal(levelFor(DEFAULT_POLICY, 'mixer', 'indirect', 0.01), undefined);
  assert.equal(levelFor(DEFAULT_POLICY, 'exchange', 'direct', 1), 'low');
  assert.throws(
    () => validatePolicy([{ category: 'sanctions', exposure: 'direct', minShare: 1.5, level: 'high' }]),
    /policy\[0\]\.minShare/,
  );
  assert.throws(() => validatePolicy([{ category: 'weapons', exposure: 'direct', minShare: 0, level: 'high' }]), /policy\[0\]\.category/);
  assert.throws(() => validatePolicy([{ category: 'scam', exposure: 'both', minShare: 0, level: 'high' }]), /exposure/);
  assert.deepEqual(validatePolicy([...DEFAULT_POLICY]), DEFAULT_POLICY);
});

test('direct hit: EVM case-insensitive, names the list, version and entity; severe', () => {
  const r = screenWallet({ address: '0x19aa5fe80d33a56d56c78e82ea5e50e5d80b4dff' }, { indexes: ofacIndex() });
  assert.equal(r.normalizedAddress, '0x19aa5fe80d33a56d56c78e82ea5e50e5d80b4dff');
  assert.equal(r.checksum, 'absent');
  assert.ok(r.candidateChains.includes('bsc'));
  assert.equal(r.risk.level, 'severe');
  assert.deepEqual(r.risk.reasons, ['wallet_direct:sanctions']);
  const src = r.categories[0]!.sources[0]!;
  assert.deepEqual(
    [src.list, src.version, src.entityId, src.entityName, src.listedChain],
    ['ofac_sdn', '2024-05-03', '12345', 'EXAMPLE ENTITY', 'ethereum'],
  );
  assert.deepEqual(r.listVersions, { ofac_sdn: '2024-05-03' });
});

test('BCH listed as CashAddr is found from its legacy form; the XMR hex is rejected with a reason', () => {
  const ix = ofacIndex();
  const legacyForm = parseAddress('qpusmp64rajses77x95g9ah825mtyyv74smwwkxhx3', 'BCH').address.keys[1]!;
  assert.match(legacyForm, /^1/);
  const legacy = screenWallet({ address: legacyForm, chain: 'BCH' }, { indexes: ix });
  assert.equal(legacy.risk.level, 'severe');
  assert.equal(legacy.normalizedAddress, 'bitcoincash:qpusmp64rajses77x95g9ah825mtyyv74smwwkxhx3');
  const viaCash = screenWallet({ address: 'bitcoincash:qpusmp64rajses77x95g9ah825mtyyv74smwwkxhx3' }, { indexes: ix });
  assert.equal(viaCash.risk.level, 'severe');
  assert.equal(ix.rejected.length, 1);
  assert.equal(ix.rejected[0]!.reason, 'not_an_address');
});

test('invalid address is an AddressError with the reason; clean address is low / 0', () => {
  assert.throws(
    () => screenWallet({ address: '0x19aa5fe80d33a56d56c78e82ea5e50e5d80b4df', chain: 'ETH' }, { indexes: ofacIndex() }),
    (e: unknown) => e instanceof AddressError && e.reason === 'wrong_length',
  );
  const r = screenWallet({ address: A(7) }, { indexes: ofacIndex() });
  assert.deepEqual([r.risk.level, r.risk.score, r.categories.length], ['low', 0, 0]);
});

test('indirect: operator attribution + imported transfers; block list is a second index', () => {
  const attributions = parseAttributionLines(`chain,address,category,entity\nETH,${A(11)},mixer,Example Mixer\n`, {
    name: 'attribution:ops',
    version: 'v7',
  });
  const ix = ofacIndex();
  ix.add(attributions);
  const block = new AddressIndex();
  block.add([{ chain: 'ETH', address: A(12), category: 'custom', list: { name: 'blocklist:tenant', version: '3' } }]);
  const graph = new TransferGraph();
  const lines = [
    `{"chain":"ethereum","tx_hash":"0xaa","from":"${A(11)}","to":"${A(1)}","amount":"30"}`,
    `{"chain":"ethereum","tx_hash":"0xab","from":"${A(2)}","to":"${A(1)}","amount":"70"}`,
    `{"chain":"ethereum","tx_hash":"0xac","from":"0x19aa5fe80d33a56d56c78e82ea5e50e5d80b4dff","to":"${A(2)}","amount":"1"}`,
    `{"chain":"ethereum","tx_hash":"0xad","from":"${A(1)}","to":"${A(12)}","amount":"5"}`,
  ].join('\n');
  for (const t of parseTransferLines(lines)) graph.add(t);
  const r = screenWallet({ address: A(1), chain: 'ethereum' }, { indexes: [ix, block], graph });
  const mixer = r.categories.find((c) => c.category === 'mixer')!;
  assert.deepEqual(
    [mixer.exposure, mixer.direction, mixer.share, mixer.hops, mixer.value, mixer.level],
    ['indirect', 'received', 0.3, 1, '30', 'high'],
  );
  assert.equal(mixer.sources[0]!.entityName, 'Example Mixer');
  const sanc = r.categories.find((c) => c.category === 'sanctions')!;
  assert.deepEqual([sanc.share, sanc.hops, sanc.level], [0.7, 2, 'severe']);
  const custom = r.categories.find((c) => c.category === 'custom')!;
  assert.deepEqual([custom.direction, custom.share, custom.sources[0]!.list], ['sent', 1, 'blocklist:tenant']);
  assert.equal(r.risk.level, 'severe');
  assert.equal(r.risk.score, 75 + Math.round(25 * 0.7));
  assert.deepEqual(r.listVersions, { ofac_sdn: '2024-05-03', 'attribution:ops': 'v7', 'blocklist:tenant': '3' });
  assert.equal(screenWallet({ address: A(1) }, { indexes: ix, graph, hops: 0 }).categories.length, 0);
});

test('attribution import rejects an unknown category with its line number', () => {
  assert.throws(
    () => parseAttributionLines(`chain,address,category\nETH,${A(1)},weapons\n`, { name: 'x', version: '1' }),
    /line 2: unknown category "weapons"/,
  );
});
