import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startRegistryApiServer, GLEIF_FIXTURES, type RegistryApiServer } from '../../../test/helpers/registry-api-server.js';
import { sharedData, SKIP_NO_DATA } from '../lists/fixtures/shared-data.js';
import {
  companiesHouseApi,
  gleifApi,
  LiveRegistryError,
  type EntityRecord,
  type ExceptionRecord,
  type PersonRecord,
  type RelationshipRecord,
} from './index.js';

const KEY = 'ch-test-key-0123456789';
let s: RegistryApiServer;
before(async () => (s = await startRegistryApiServer(KEY)));
after(() => s.close());

const soon = () => Date.now() + 5000;
const gleif = (o: { perMinute?: number; timeoutMs?: number; allowPrivateNetworks?: boolean } = {}) =>
  gleifApi({
    baseUrl: s.gleifUrl,
    timeoutMs: o.timeoutMs ?? 3000,
    allowPrivateNetworks: o.allowPrivateNetworks ?? true,
    perMinute: o.perMinute ?? 600,
  });
const ch = (apiKey = KEY) =>
  companiesHouseApi({ baseUrl: s.companiesHouseUrl, timeoutMs: 3000, allowPrivateNetworks: true, perMinute: 600, apiKey });

async function failure(p: Promise<unknown>): Promise<LiveRegistryError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof LiveRegistryError, String(e));
    return e;
  }
  assert.fail('the call succeeded');
}

test('GLEIF API: search by name, LEI and registration number reads the recorded lei-records', async () => {
  const api = gleif();
  const byName = await api.search({ name: 'amazon digital', limit: 10 }, soon());
  assert.deepEqual(
    byName.map((e) => [e.ref, e.name, e.registrationStatus]),
    [['254900LNRYNOQ9YPU758', 'Amazon Digital UK Limited', 'ISSUED']],
  );
  // A previous legal name finds the record too (GLEIF's entity.names filter covers other names).
  assert.deepEqual(
    (await api.search({ name: 'lovefilm', limit: 10 }, soon())).map((e) => e.ref),
    ['254900LNRYNOQ9YPU758'],
  );
  const byLei = await api.search({ lei: '335800cccphkuoxpc332', limit: 10 }, soon());
  assert.deepEqual(
    byLei.map((e) => [e.name, e.registrationStatus]),
    [['NFA INTERNATIONAL', 'LAPSED']],
  );
  assert.deepEqual(
    (await api.search({ registrationNumber: '06528297', limit: 10 }, soon())).map((e) => e.ref),
    ['254900LNRYNOQ9YPU758'],
  );
  assert.deepEqual(await api.search({ lei: '529900T8BM49AURSDO55', limit: 10 }, soon()), []);
});

test('GLEIF API: fetch gives the parents (relationship and parent record) or the reporting exception, with the golden-copy date', async () => {
  const api = gleif();
  const amazon = await api.fetch('254900LNRYNOQ9YPU758', soon());
  const rels = amazon.records.filter((r): r is RelationshipRecord => r.kind === 'relationship');
  const xs = amazon.records.filter((r): r is ExceptionRecord => r.kind === 'exception');
  const ents = amazon.records.filter((r): r is EntityRecord => r.kind === 'entity');
  // No direct parent (NON_PUBLIC) beside a known ultimate parent.
  assert.deepEqual(
    rels.map((r) => [r.sourceType, r.interestedParty, r.interests[0]?.directOrIndirect]),
    [['IS_ULTIMATELY_CONSOLIDATED_BY', 'ZXTILKJKG63JELOEG630', 'indirect']],
  );
  assert.deepEqual(
    xs.map((x) => [x.category, x.reason]),
    [['DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NON_PUBLIC']],
  );
  assert.deepEqual(ents.map((e) => e.ref).sort(), ['254900LNRYNOQ9YPU758', 'ZXTILKJKG63JELOEG630']);
  assert.equal(amazon.stats.publishDate, '2025-05-15');
  assert.match(amazon.digest, /^[0-9a-f]{64}$/);
  assert.equal((await api.fetch('254900LNRYNOQ9YPU758', soon())).digest, amazon.digest, 'the same answers, the same digest');

  const bloomberg = await api.fetch('5493001KJTIIGC8Y1R12', soon());
  assert.deepEqual(
    bloomberg.records
      .filter((r): r is RelationshipRecord => r.kind === 'relationship')
      .map((r) => [r.sourceType, r.interestedParty])
      .sort(),
    [
      ['IS_DIRECTLY_CONSOLIDATED_BY', '549300B56MD0ZC402L06'],
      ['IS_ULTIMATELY_CONSOLIDATED_BY', '549300RMUDWPHCUQNE66'],
    ],
  );
  const lapsed = await api.fetch('335800CCCPHKUOXPC332', soon());
  assert.deepEqual(lapsed.records.filter((r) => r.kind === 'exception').length, 2, 'both parents missing: a reporting exception for each');
  assert.equal((await failure(api.fetch('529900T8BM49AURSDO55', soon()))).kind, 'not_found');
  assert.equal((await failure(api.fetch('not-an-lei', soon()))).kind, 'not_found');
});

test('Companies House API: basic auth with the key as user; profile, board officers and PSCs read as records', async () => {
  const api = ch();
  const before = s.requests.length;
  const r = await api.fetch('1234567', soon());
  const mine = s.requests.slice(before);
  assert.deepEqual(
    mine.map((q) => q.path.split('?')[0]),
    [
      '/ch/company/01234567',
      '/ch/company/01234567/officers',
      '/ch/company/01234567/persons-with-significant-control',
      '/ch/company/01234567/persons-with-significant-control-statements',
    ],
  );
  assert.ok(mine.every((q) => q.authorization === `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`));
  const company = r.records.find((x): x is EntityRecord => x.kind === 'entity' && x.ref === '01234567')!;
  assert.deepEqual(
    [company.name, company.otherNames, company.status, company.incorporationDate, company.address?.city],
    ['BLOGGS EXAMPLE HOLDINGS LIMITED', ['BLOGGS TRADING LIMITED'], 'active', '1999-03-01', 'Example Town'],
  );
  const persons = r.records.filter((x): x is PersonRecord => x.kind === 'person');
  assert.deepEqual(persons.map((p) => p.name).sort(), ['BLOGGS, Joe', 'EXAMPLE, Anna Maria', 'Joe Bloggs']);
  const rels = r.records.filter((x): x is RelationshipRecord => x.kind === 'relationship');
  const anna = rels.find((x) => x.interestedParty === 'officer:OfficerAnna2')!;
  assert.deepEqual(
    [anna.sourceType, anna.interests[0]?.type, anna.interests[0]?.endDate],
    ['officer:director', 'boardMember', '2019-12-31'],
  );
  const joe = rels.find((x) => x.sourceType?.startsWith('ownership-of-shares'))!;
  assert.deepEqual(joe.interests[0]?.share, { min: 25, max: 50, minExclusive: true, maxExclusive: false });
  assert.ok(
    rels.some(
      (x) => typeof x.interestedParty === 'object' && x.interestedParty.unspecifiedReason === 'interestedPartyExemptFromDisclosure',
    ),
  );
  assert.deepEqual(r.stats.skipped, { 'officer role corporate-secretary': 1 });

  const hits = await api.search({ name: 'bloggs example', registrationNumber: '1234567', limit: 10 }, soon());
  assert.deepEqual(
    hits.map((e) => [e.ref, e.status]),
    [
      ['01234567', 'active'],
      ['07654321', 'dissolved'],
    ],
  );
});

test('Companies House API: a wrong key is a permanent failure whose message does not carry the key', async () => {
  const e = await failure(ch('wrong-key-secret-999').fetch('01234567', soon()));
  assert.equal(e.kind, 'permanent');
  assert.equal(e.status, 401);
  assert.ok(!e.message.includes('wrong-key-secret-999') && !e.message.includes(KEY));
});

test('the net guard refuses loopback unless private networks are allowed; nothing reaches the server', async () => {
  const before = s.requests.length;
  const e = await failure(gleif({ allowPrivateNetworks: false }).search({ name: 'amazon', limit: 5 }, soon()));
  assert.equal(e.kind, 'address_not_allowed');
  const byName = gleifApi({
    baseUrl: s.gleifUrl.replace('127.0.0.1', 'localhost'),
    timeoutMs: 3000,
    allowPrivateNetworks: false,
    perMinute: 600,
  });
  assert.equal((await failure(byName.search({ name: 'amazon', limit: 5 }, soon()))).kind, 'address_not_allowed');
  assert.equal(s.requests.length, before);
});

test('time limit and rate limit: a stalled answer times out, a second call over the limit is refused at once', async () => {
  s.delays.set('/gleif/api/v1/lei-records/5493001KJTIIGC8Y1R12', 2000);
  try {
    const t0 = Date.now();
    const e = await failure(gleif({ timeoutMs: 300 }).fetch('5493001KJTIIGC8Y1R12', Date.now() + 300));
    assert.equal(e.kind, 'timeout');
    assert.ok(Date.now() - t0 < 1500, `gave up after ${Date.now() - t0} ms`);
  } finally {
    s.delays.clear();
  }
  const slow = gleif({ perMinute: 1 });
  await slow.search({ lei: '254900LNRYNOQ9YPU758', limit: 1 }, soon());
  assert.equal((await failure(slow.search({ lei: '254900LNRYNOQ9YPU758', limit: 1 }, soon()))).kind, 'rate_limited');
  s.statuses.set('/gleif/api/v1/lei-records/254900LNRYNOQ9YPU758', 503);
  try {
    assert.equal((await failure(gleif().fetch('254900LNRYNOQ9YPU758', soon()))).kind, 'transient');
  } finally {
    s.statuses.clear();
  }
});

const shared = sharedData('kyb', 'gleif_api');
test('the GLEIF answers the local server gives are the recorded ones in ../shared/data', { skip: shared ? false : SKIP_NO_DATA }, () => {
  for (const dir of ['lei_records', 'relationships', 'reporting_exceptions'])
    for (const f of readdirSync(join(GLEIF_FIXTURES, dir)))
      assert.equal(readFileSync(join(GLEIF_FIXTURES, dir, f), 'utf8'), readFileSync(join(shared!, dir, f), 'utf8'), f);
});
