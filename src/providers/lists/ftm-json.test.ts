import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseFtmJson } from './ftm-json.js';
import { sharedData, SKIP_NO_DATA } from './fixtures/shared-data.js';

describe('OpenSanctions FtM JSON lines', () => {
  test('real yente fixture: people and organisations with multilingual names', (t) => {
    const file = sharedData('sanctions', 'opensanctions_ftm', 'yente_t1_entities.ftm.json');
    if (!file) return t.skip(SKIP_NO_DATA);
    const es = parseFtmJson(readFileSync(file));
    assert.equal(es.length, 6, 'the Address entity is folded, not listed');
    const tobacco = es.find((e) => e.id === 'opensanctions:NK-2GdmHtZTeNXjNVrBGEXZNj')!;
    assert.equal(tobacco.schema, 'organization');
    assert.ok(tobacco.names.length >= 10);
    assert.ok(tobacco.names.some((n) => n.full.includes('Интер Тобако')));
    assert.deepEqual(tobacco.datasets, ['sanctions']);
    assert.ok(tobacco.identifiers.some((i) => i.type === 'registration' && i.value === '808000714'));
    const kuzmenko = es.find((e) => e.id === 'opensanctions:NK-2Ka3UvopqbpZmVDFjWd4LA')!;
    assert.deepEqual(kuzmenko.birthDates, [{ date: '1971-01-22' }]);
    assert.deepEqual(kuzmenko.nationalities, ['RU']);
    assert.equal(kuzmenko.gender, 'male');
  });

  test('topics choose datasets: PEPs and crime-related entities', () => {
    const lines = [
      { id: 'a', schema: 'Person', properties: { name: ['Pat Politician'], topics: ['role.pep'] } },
      { id: 'b', schema: 'Company', properties: { name: ['Shady Co'], topics: ['crime.fraud'], weakAlias: ['Shady'] } },
      { id: 'c', schema: 'Sanction', properties: { entity: ['b'], program: ['FRAUD-LIST'] } },
    ]
      .map((x) => JSON.stringify(x))
      .join('\n');
    const es = parseFtmJson(lines);
    assert.deepEqual(
      es.map((e) => e.datasets),
      [['pep'], ['adverse_media']],
    );
    assert.deepEqual(
      es[1]!.names.map((n) => n.quality),
      ['strong', 'weak'],
    );
    assert.deepEqual(es[1]!.programs, ['FRAUD-LIST']);
  });

  test('a broken line fails the import', () => {
    assert.throws(() => parseFtmJson('{"id":"a","schema":"Person","properties":{"name":["X"]}}\n{"id":'), /line 2/);
  });
});

test('CryptoWallet entities become crypto identifiers of their holder', () => {
  const lines = [
    { id: 'h', schema: 'Organization', properties: { name: ['Garantex Europe'], topics: ['sanction'] } },
    {
      id: 'w1',
      schema: 'CryptoWallet',
      properties: { publicKey: ['TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR'], currency: ['trx'], holder: ['h'] },
    },
    { id: 'w2', schema: 'CryptoWallet', properties: { publicKey: ['1Df883c96LVauVsx9FEgnsourD8DELwCUQ'], holder: ['h'] } },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n');
  const [holder, ...rest] = parseFtmJson(lines);
  assert.equal(rest.length, 0, 'a wallet is not an entity of its own');
  assert.deepEqual(holder!.identifiers, [
    { type: 'crypto:TRX', value: 'TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR' },
    { type: 'crypto:', value: '1Df883c96LVauVsx9FEgnsourD8DELwCUQ' },
  ]);
});
