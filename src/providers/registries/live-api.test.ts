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
  type RegistryRecord,
  type RelationshipRecord,
} from './index.js';

const KEY = 'ch-test-key-0123456789';
let s: RegistryApiServer;
before(async () => (s = await startRegistryApiServer(KEY)));
after(() => s.close());

const soon = () => Date.now() + 5000;
const gleif = (o: { perMinute?: number; timeoutMs?: number; allowPrivateNetworks?: boolean; parentDepth?: number } = {}) =>
  gleifApi({
    baseUrl: s.gleifUrl,
    timeoutMs: o.timeoutMs ?? 3000,
    allowPrivateNetworks: o.allowPrivateNetworks ?? true,
    perMinute: o.perMinute ?? 600,
    ...(o.parentDepth ? { parentDepth: o.parentDepth } : {}),
  });
const ch = (apiKey = KEY, pscDepth?: number) =>
  companiesHouseApi({
    baseUrl: s.companiesHouseUrl,
    timeoutMs: 3000,
    allowPrivateNetworks: true,
    perMinute: 600,
    apiKey,
    ...(pscDepth ? { pscDepth } : {}),
  });
const edges = (records: { kind: string }[]) =>
  records
    .filter((r): r is RelationshipRecord => r.kind === 'relationship')
    .map((r) => `${r.subject} <- ${typeof r.interestedParty === 'string' ? r.interestedParty : 'unspecified'}`)
    .sort();

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

test('GLEIF API: intermediate parents are followed up to the depth, each step a relationship with its parent record', async () => {
  const direct = (r: { records: RegistryRecord[] }) =>
    r.records
      .filter((x): x is RelationshipRecord => x.kind === 'relationship' && x.sourceType === 'IS_DIRECTLY_CONSOLIDATED_BY')
      .map((x) => `${x.subject} -> ${String(x.interestedParty)}`);
  // Depth 1: the direct parent only (Bloomberg Finance L.P. -> Bloomberg L.P.), as before.
  const one = await gleif({ parentDepth: 1 }).fetch('5493001KJTIIGC8Y1R12', soon());
  assert.deepEqual(direct(one), ['5493001KJTIIGC8Y1R12 -> 549300B56MD0ZC402L06']);
  // Depth 3: Bloomberg L.P.'s own direct parent, then that parent's reporting exception (natural persons).
  const before = s.requests.length;
  const three = await gleif({ parentDepth: 3 }).fetch('5493001KJTIIGC8Y1R12', soon());
  assert.deepEqual(direct(three), ['5493001KJTIIGC8Y1R12 -> 549300B56MD0ZC402L06', '549300B56MD0ZC402L06 -> 549300RMUDWPHCUQNE66']);
  assert.deepEqual(
    three.records.filter((r): r is ExceptionRecord => r.kind === 'exception').map((x) => [x.subject, x.category, x.reason]),
    [['549300RMUDWPHCUQNE66', 'DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NATURAL_PERSONS']],
  );
  const paths = s.requests.slice(before).map((q) => q.path.replace('/gleif/api/v1/lei-records/', ''));
  assert.ok(paths.includes('549300B56MD0ZC402L06/direct-parent-relationship') && paths.includes('549300B56MD0ZC402L06/direct-parent'));
  assert.ok(three.records.some((r) => r.kind === 'entity' && r.ref === '549300RMUDWPHCUQNE66'));
  assert.notEqual(three.digest, one.digest, 'more answers, another batch');
  // Depth 2 stops before the exception.
  const two = await gleif({ parentDepth: 2 }).fetch('5493001KJTIIGC8Y1R12', soon());
  assert.equal(direct(two).length, 2);
  assert.equal(two.records.filter((r) => r.kind === 'exception').length, 0);
});

test('GLEIF API: a cycle of direct parents is read once around and stopped, whatever the depth', async () => {
  const before = s.requests.length;
  const r = await gleif({ parentDepth: 10 }).fetch('TESTCYCLEA0000000011', soon());
  assert.deepEqual(
    r.records
      .filter((x): x is RelationshipRecord => x.kind === 'relationship')
      .map((x) => `${x.subject} -> ${String(x.interestedParty)}`)
      .sort(),
    ['TESTCYCLEA0000000011 -> TESTCYCLEB0000000022', 'TESTCYCLEB0000000022 -> TESTCYCLEA0000000011'],
  );
  const asked = s.requests.slice(before).filter((q) => q.path.endsWith('/direct-parent-relationship'));
  assert.equal(asked.length, 2, asked.map((q) => q.path).join(', '));
});

test('Companies House API: corporate PSCs that are UK companies are followed to the depth, a cycle read once', async () => {
  // Depth 1: Foo Bar Limited (89101112) is a PSC, stored under its company number, its own PSCs not read.
  const one = await ch(KEY, 1).fetch('01234567', soon());
  assert.ok(edges(one.records).includes('01234567 <- 89101112'));
  assert.ok(!edges(one.records).some((e) => e.startsWith('89101112')));
  assert.ok(one.records.some((r) => r.kind === 'entity' && r.ref === '89101112' && r.name === 'Foo Bar Limited'));

  // Depth 2: Foo Bar's PSCs: 01234567 itself (a cycle: an edge, not read again) and Deep Holdings (not read: depth).
  const before = s.requests.length;
  const two = await ch(KEY, 2).fetch('01234567', soon());
  assert.deepEqual(
    edges(two.records).filter((e) => e.startsWith('89101112') || e.startsWith('33333333')),
    ['89101112 <- 01234567', '89101112 <- 33333333'],
  );
  const paths = s.requests.slice(before).map((q) => q.path.split('?')[0]);
  assert.equal(paths.filter((p) => p === '/ch/company/01234567/persons-with-significant-control').length, 1, 'the cycle is not re-read');
  assert.ok(!paths.some((p) => p?.startsWith('/ch/company/33333333')));
  // The followed company's profile is its record (the registry's name), one entity per company in the batch.
  assert.ok(two.records.some((r) => r.kind === 'entity' && r.ref === '89101112' && r.name === 'FOO BAR LIMITED'));
  const refs = two.records.filter((r) => r.kind === 'entity').map((r) => (r as EntityRecord).ref);
  assert.equal(new Set(refs).size, refs.length);

  // Depth 3: Deep Holdings' PSC, a person with 75-100 %.
  const three = await ch(KEY, 3).fetch('01234567', soon());
  assert.ok(edges(three.records).includes('33333333 <- psc-party:indjane00000001'));
  const jane = three.records.find((r): r is RelationshipRecord => r.kind === 'relationship' && r.subject === '33333333')!;
  assert.deepEqual([jane.interests[0]?.share?.min, jane.interests[0]?.share?.max], [75, 100]);
  assert.ok(three.records.some((r): r is PersonRecord => r.kind === 'person' && r.name.includes('Jane')));
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
