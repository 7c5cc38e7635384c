import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { AddressIndex, resolveChainName, screenWallet } from '../../engines/wallets/index.js';
import { ofacCryptoFromAddressFiles, ofacCryptoFromAdvancedXml, ofacCryptoFromCsv, openSanctionsCryptoWallets } from './ofac-crypto.js';

const DIR = new URL('../../../../shared/data/crypto/ofac_sanctioned_addresses/', import.meta.url);
const CSV = new URL('../../../../shared/data/sanctions/ofac_sdn_csv_2024_snapshots/sdn_2024-05-03.csv', import.meta.url);

// Known oddities of the OFAC data, each with the reason it cannot be flagged on its listed chain.
const EXPECTED_REJECTED = new Map([['XMR 5be5543ff73456ab9f2d207887e2af87322c651ea1a873c5b25b7ffae456c320', 'not_an_address']]);
const EXPECTED_CHAIN_MISMATCH = new Map([['XBT TUCsTq7TofTCJRRoHk6RvhMoS2mJLm5Yzq', 'tron']]);

test(
  'every address of the OFAC per-chain files is flagged on its chain; misses are the known ones, with reasons',
  { skip: existsSync(DIR) ? false : 'needs ../shared/data/crypto (not in a bare clone)' },
  () => {
    const files = Object.fromEntries(
      readdirSync(DIR)
        .filter((f) => f.endsWith('.txt'))
        .map((f) => [f, readFileSync(new URL(f, DIR), 'utf8')]),
    );
    const entries = ofacCryptoFromAddressFiles(files, '2024-09-27');
    assert.ok(entries.length > 600, `only ${entries.length} entries read`);
    const index = new AddressIndex();
    index.add(entries);
    assert.deepEqual(new Map(index.rejected.map((r) => [`${r.entry.chain} ${r.entry.address}`, r.reason])), EXPECTED_REJECTED);
    assert.deepEqual(new Map(index.chainMismatches.map((m) => [`${m.chain} ${m.address}`, m.listedChain])), EXPECTED_CHAIN_MISMATCH);
    const misses: string[] = [];
    let flagged = 0;
    for (const e of entries) {
      const key = `${e.chain} ${e.address}`;
      if (EXPECTED_REJECTED.has(key)) continue;
      const chain = EXPECTED_CHAIN_MISMATCH.get(key) ?? e.chain;
      const r = screenWallet({ address: e.address, chain }, { indexes: index });
      const hosts = resolveChainName(chain).map((c) => c.id);
      const hit = r.categories.find((c) => c.exposure === 'direct' && c.category === 'sanctions');
      if (r.risk.level !== 'severe' || !hit || !hosts.includes(r.chain)) misses.push(`${key}: ${r.risk.level} on ${r.chain}`);
      else flagged++;
    }
    assert.deepEqual(misses, []);
    assert.equal(flagged, entries.length - EXPECTED_REJECTED.size);
    // EVM spellings: every ETH entry is also found all-lower and all-upper-hex.
    for (const e of entries.filter((x) => x.chain === 'ETH')) {
      assert.equal(
        screenWallet({ address: `0x${e.address.slice(2).toUpperCase()}`, chain: 'ETH' }, { indexes: index }).risk.level,
        'severe',
      );
    }
  },
);

test(
  'OFAC sdn.csv remarks: addresses with entity; truncated remarks are reported, not dropped',
  { skip: existsSync(CSV) ? false : 'needs ../shared/data/sanctions (not in a bare clone)' },
  () => {
    const entries = ofacCryptoFromCsv(readFileSync(CSV), '2024-05-03');
    const index = new AddressIndex();
    const { added, rejected } = index.add(entries);
    assert.ok(added > 280, `added ${added}`);
    const yan = entries.find((e) => e.address === '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h')!;
    assert.deepEqual([yan.chain, yan.entity?.id, yan.entity?.name, yan.program], ['XBT', '25308', 'YAN, Xiaobing', 'SDNTK']);
    // sdn.csv cuts long remarks (the rest is in sdn_comments.csv, absent from this snapshot), so the
    // last address of some entries is a stub; each is rejected with a reason.
    for (const r of rejected)
      assert.ok(['wrong_length', 'bad_checksum', 'not_an_address'].includes(r.reason), `${r.entry.address}: ${r.reason}`);
    assert.ok(rejected.some((r) => r.reason === 'not_an_address'));
    const hit = screenWallet({ address: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h' }, { indexes: index });
    assert.equal(hit.categories[0]!.sources[0]!.entityName, 'YAN, Xiaobing');
  },
);

const XML = `<?xml version="1.0" encoding="utf-8"?>
<Sanctions xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ADVANCED_XML">
  <ReferenceValueSets>
    <FeatureTypeValues><FeatureType ID="344">Digital Currency Address - XBT</FeatureType><FeatureType ID="887">Digital Currency Address - USDT</FeatureType></FeatureTypeValues>
    <PartySubTypeValues><PartySubType ID="3" PartyTypeID="2">Entity</PartySubType></PartySubTypeValues>
  </ReferenceValueSets>
  <DistinctParties>
    <DistinctParty FixedRef="91001"><Profile ID="91001" PartySubTypeID="3">
      <Identity ID="1" FixedRef="91001" Primary="true"><Alias FixedRef="91001" AliasTypeID="1403" Primary="true" LowQuality="false">
        <DocumentedName ID="1" FixedRef="91001"><DocumentedNamePart><NamePartValue NamePartGroupID="1">EXAMPLE MIXER SERVICE</NamePartValue></DocumentedNamePart></DocumentedName>
      </Alias></Identity>
      <Feature ID="1" FeatureTypeID="344"><FeatureVersion ID="1"><VersionDetail DetailTypeID="1432">bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4</VersionDetail></FeatureVersion></Feature>
      <Feature ID="2" FeatureTypeID="887"><FeatureVersion ID="2"><VersionDetail DetailTypeID="1432">TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR</VersionDetail></FeatureVersion></Feature>
    </Profile></DistinctParty>
  </DistinctParties>
  <SanctionsEntries><SanctionsEntry ID="1" ProfileID="91001" ListID="1550"><SanctionsMeasure ID="1" SanctionsTypeID="1"><Comment>SDGT</Comment></SanctionsMeasure></SanctionsEntry></SanctionsEntries>
</Sanctions>`;

test('SDN advanced XML features "Digital Currency Address - <code>" become entries; SDGT adds terrorist financing', () => {
  const entries = ofacCryptoFromAdvancedXml(XML, '2024-09-27');
  assert.deepEqual(
    entries.map((e) => [e.chain, e.address, e.category, e.entity?.id]),
    [
      ['XBT', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'sanctions', '91001'],
      ['XBT', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'terrorist_financing', '91001'],
      ['USDT', 'TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR', 'sanctions', '91001'],
      ['USDT', 'TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR', 'terrorist_financing', '91001'],
    ],
  );
  const index = new AddressIndex();
  index.add(entries);
  const r = screenWallet({ address: 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4' }, { indexes: index });
  assert.deepEqual(r.risk.reasons.sort(), ['wallet_direct:sanctions', 'wallet_direct:terrorist_financing']);
  assert.equal(screenWallet({ address: 'TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR' }, { indexes: index }).chain, 'tron');
});

test('OpenSanctions CryptoWallet lines: holder name, currency or inference', () => {
  const lines = [
    JSON.stringify({
      id: 'w1',
      schema: 'CryptoWallet',
      properties: { publicKey: ['0x19aa5fe80d33a56d56c78e82ea5e50e5d80b4dff'], currency: ['ETH'], holder: ['p1'] },
    }),
    JSON.stringify({ id: 'w2', schema: 'CryptoWallet', properties: { publicKey: ['TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR'] } }),
    JSON.stringify({ id: 'p1', schema: 'Person', caption: 'Example Person', properties: {} }),
  ].join('\n');
  const entries = openSanctionsCryptoWallets(lines, '20240927');
  assert.equal(entries.length, 2);
  assert.deepEqual(entries[0]!.entity, { id: 'p1', name: 'Example Person' });
  const index = new AddressIndex();
  assert.equal(index.add(entries).added, 2);
  assert.equal(screenWallet({ address: 'TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR' }, { indexes: index }).risk.level, 'severe');
});

const CSV_OLD = new URL('../../../../shared/data/sanctions/ofac_sdn_csv_2024_snapshots/sdn_2024-04-25.csv', import.meta.url);

test(
  'list delta 2024-04-25 → 2024-05-03: the crypto keys added are the ones to re-screen',
  { skip: existsSync(CSV_OLD) && existsSync(CSV) ? false : 'needs ../shared/data/sanctions (not in a bare clone)' },
  () => {
    const keys = (url: URL, version: string): Set<string> => {
      const ix = new AddressIndex();
      ix.add(ofacCryptoFromCsv(readFileSync(url), version));
      return ix.keysOf('ofac_sdn');
    };
    const before = keys(CSV_OLD, '2024-04-25');
    const after = keys(CSV, '2024-05-03');
    assert.deepEqual(
      [...after].filter((k) => !before.has(k)).sort(),
      ['0x19f8f2b0915daa12a3f5c9cf01df9e24d53794f7', '13fhnkmpBBWXUQucJd6efWvXdEj78DKavk', 'TFdTr9C3BqQrzKBXqSxJfAZFTh8UwBAfSg'].sort(),
    );
    assert.deepEqual(
      [...before].filter((k) => !after.has(k)),
      [],
    );
  },
);
