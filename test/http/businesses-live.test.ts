import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { startRegistryApiServer, type RegistryApiServer } from '../helpers/registry-api-server.js';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/platform/config-schema.js';

const KEY = 'ch-live-key-abcdef123456';
let s: RegistryApiServer;
let t: TestApp;
before(async () => {
  s = await startRegistryApiServer(KEY);
  t = await createTestApp({
    env: {
      KYB_GLEIF_API_ENABLED: 'true',
      KYB_GLEIF_API_URL: s.gleifUrl,
      KYB_COMPANIES_HOUSE_API_ENABLED: 'true',
      KYB_COMPANIES_HOUSE_API_URL: s.companiesHouseUrl,
      KYB_COMPANIES_HOUSE_API_KEY: KEY,
      KYB_LIVE_ALLOW_PRIVATE_NETWORKS: 'true',
      KYB_LIVE_TIMEOUT_MS: '3000',
      // The tests of this file share one app, so one token bucket per registry: at the default 60 a
      // minute, a fast run spends the burst of 10 before the parent chain test and is refused (the
      // limiter itself is tested in providers/registries/live-api.test.ts).
      KYB_GLEIF_API_PER_MINUTE: '6000',
      KYB_COMPANIES_HOUSE_API_PER_MINUTE: '6000',
    },
  });
});
after(async () => {
  await t.close();
  await s.close();
});

test('live adapters are off by default; enabling Companies House without a key stops start-up without echoing values', () => {
  const base = { NODE_ENV: 'test', MASTER_KEY: '11'.repeat(32) };
  const c = loadConfig(base);
  assert.deepEqual([c.businesses.gleif, c.businesses.companiesHouse], [null, null]);
  assert.throws(
    () => loadConfig({ ...base, KYB_COMPANIES_HOUSE_API_ENABLED: 'true' }),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /KYB_COMPANIES_HOUSE_API_KEY is required/);
      return true;
    },
  );
  const on = loadConfig({
    ...base,
    KYB_GLEIF_API_ENABLED: 'true',
    KYB_COMPANIES_HOUSE_API_ENABLED: 'true',
    KYB_COMPANIES_HOUSE_API_KEY: KEY,
  });
  assert.deepEqual([on.businesses.gleif?.parentDepth, on.businesses.companiesHouse?.pscDepth], [3, 2]);
  for (const [name, value] of [
    ['KYB_GLEIF_API_PARENT_DEPTH', '0'],
    ['KYB_GLEIF_API_PARENT_DEPTH', 'deep'],
    ['KYB_COMPANIES_HOUSE_API_PSC_DEPTH', '11'],
  ] as const)
    assert.throws(
      () => loadConfig({ ...base, [name]: value }),
      (e: unknown) => e instanceof ConfigError && e.message.includes(name),
      `${name}=${value}`,
    );
  assert.throws(
    () => loadConfig({ ...base, KYB_COMPANIES_HOUSE_API_KEY: 'has a space secret' }),
    (e: unknown) => e instanceof ConfigError && /KYB_COMPANIES_HOUSE_API_KEY/.test(e.message) && !e.message.includes('secret'),
  );
});

test('search asks the enabled live APIs: live results are marked, each source says how it answered; live: false asks none', async () => {
  const { sandboxKey: key } = await t.tenant();
  const r = await t.call('POST', '/v1/businesses/search', { key, body: { query: 'Amazon Digital' } });
  assert.equal(r.statusCode, 200, r.body);
  const body = r.json();
  assert.deepEqual(body.live.map((l: { source: string; status: string }) => [l.source, l.status]).sort(), [
    ['gb_coh', 'ok'],
    ['gleif', 'ok'],
  ]);
  const top = body.data[0];
  assert.deepEqual([top.source, top.source_ref, top.origin, top.match.matched_on], ['gleif', '254900LNRYNOQ9YPU758', 'live', ['name']]);
  assert.ok(top.match.score >= 0.6 && top.match.score < 1, String(top.match.score));

  const byLei = await t.call('POST', '/v1/businesses/search', { key, body: { lei: '5493001KJTIIGC8Y1R12', sources: ['gleif'] } });
  assert.deepEqual(
    byLei
      .json()
      .data.map((d: { name: string; match: { score: number; matched_on: string[] } }) => [d.name, d.match.score, d.match.matched_on]),
    [['Bloomberg Finance L.P.', 1, ['lei']]],
  );
  assert.deepEqual(
    byLei.json().live.map((l: { source: string }) => l.source),
    ['gleif'],
    'only the wanted sources are asked',
  );

  const before = s.requests.length;
  const off = await t.call('POST', '/v1/businesses/search', { key, body: { query: 'Amazon Digital', live: false } });
  assert.deepEqual([off.json().data, off.json().live], [[], []]);
  assert.equal(s.requests.length, before);

  // A registry that does not answer in time is a status; the rest of the page still comes.
  s.delays.set('/ch/search', 6000);
  try {
    const slow = await t.call('POST', '/v1/businesses/search', { key, body: { query: 'Amazon Digital' } });
    assert.equal(slow.statusCode, 200);
    const st = Object.fromEntries(slow.json().live.map((l: { source: string; status: string }) => [l.source, l.status]));
    assert.deepEqual(st, { gleif: 'ok', gb_coh: 'timeout' });
    assert.equal(slow.json().data[0].source_ref, '254900LNRYNOQ9YPU758');
  } finally {
    s.delays.clear();
  }
});

test('create from a live GLEIF result: the entry and its parents are fetched, stored as a batch, and read like an import', async () => {
  const a = await t.tenant();
  const r = await t.call('POST', '/v1/businesses', {
    key: a.sandboxKey,
    body: { source: 'gleif', source_ref: '254900LNRYNOQ9YPU758', reference: 'amz', screen: false },
  });
  assert.equal(r.statusCode, 201, r.body);
  const b = r.json();
  assert.equal(b.name, 'Amazon Digital UK Limited');
  assert.deepEqual(
    b.ownership.edges
      .filter((e: { from: string }) => !e.from.startsWith('exception:'))
      .map((e: { from: string; to: string }) => [e.from, e.to]),
    [['ZXTILKJKG63JELOEG630', '254900LNRYNOQ9YPU758']],
  );
  assert.deepEqual(
    b.ownership.exceptions.map((x: { category: string; reason: string }) => [x.category, x.reason]),
    [['DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NON_PUBLIC']],
  );
  assert.deepEqual(
    b.sources.map((x: { file_name: string; publish_date: string }) => [x.file_name, x.publish_date]),
    [['api.gleif.org lei-records/254900LNRYNOQ9YPU758', '2025-05-15']],
  );
  // Another tenant's record of the same entry reads the stored batch: GLEIF is not asked again.
  const before = s.requests.length;
  const other = await t.tenant();
  const again = await t.call('POST', '/v1/businesses', {
    key: other.sandboxKey,
    body: { source: 'gleif', source_ref: '254900LNRYNOQ9YPU758', screen: false },
  });
  assert.equal(again.statusCode, 201);
  assert.equal(s.requests.length, before);
  assert.deepEqual(again.json().sources, b.sources);
});

test('create from a live GLEIF entry with a chain: each direct parent up the chain is an edge of the graph with its batch', async () => {
  const { sandboxKey: key } = await t.tenant();
  const r = await t.call('POST', '/v1/businesses', { key, body: { source: 'gleif', source_ref: '5493001KJTIIGC8Y1R12', screen: false } });
  assert.equal(r.statusCode, 201, r.body);
  const b = r.json();
  const edges = b.ownership.edges.filter((e: { from: string }) => !e.from.startsWith('exception:'));
  assert.deepEqual(edges.map((e: { from: string; to: string }) => `${e.to} <- ${e.from}`).sort(), [
    '5493001KJTIIGC8Y1R12 <- 549300B56MD0ZC402L06',
    '5493001KJTIIGC8Y1R12 <- 549300RMUDWPHCUQNE66',
    '549300B56MD0ZC402L06 <- 549300RMUDWPHCUQNE66',
  ]);
  const batch = edges[0].source;
  assert.match(batch, /^gleif:/);
  assert.ok(
    edges.every((e: { source: string }) => e.source === batch),
    'one fetch, one batch: the provenance of every step',
  );
  assert.deepEqual(
    b.ownership.exceptions.map((x: { reason: string }) => x.reason),
    ['NATURAL_PERSONS'],
  );
});

test('create from Companies House: profile, board officers with their roles and dates, PSCs with bands; the PSC qualifies', async () => {
  const { sandboxKey: key } = await t.tenant();
  const r = await t.call('POST', '/v1/businesses', { key, body: { source: 'gb_coh', source_ref: '01234567', screen: false } });
  assert.equal(r.statusCode, 201, r.body);
  const b = r.json();
  const officers = Object.fromEntries(
    b.officers.map((o: { name: string; role: string; resigned_on: string | null }) => [o.name, [o.role, o.resigned_on]]),
  );
  assert.deepEqual(officers, {
    'BLOGGS, Joe': ['director', null],
    'EXAMPLE, Anna Maria': ['director', '2019-12-31'],
    'Joe Bloggs': ['psc', null],
  });
  const u = await t.call('GET', `/v1/businesses/${b.id}/ubos`, { key });
  const joe = u.json().owners.find((o: { name: string }) => o.name === 'Joe Bloggs');
  assert.deepEqual([joe.qualifies, joe.ownership.exclusive_minimum, joe.ownership.maximum], [true, 25, 50]);
  assert.ok(
    u.json().unresolved.some((x: { reason: string }) => x.reason === 'exempt'),
    'the super-secure PSC is unresolved as exempt',
  );
  // The corporate PSC (a UK company) was followed one level (KYB_COMPANIES_HOUSE_API_PSC_DEPTH 2): its own owners
  // are in the graph, 01234567 among them, a cycle the resolver reports and does not loop on.
  const nodes = b.ownership.nodes.map((n: { id: string }) => n.id);
  assert.ok(nodes.includes('89101112') && nodes.includes('33333333'), nodes.join(', '));
  assert.ok(
    u.json().cycles.some((c: string[]) => c.includes('89101112') && c.includes('01234567')),
    JSON.stringify(u.json().cycles),
  );
});

test('create errors: an entry the registry does not know is 404 on source_ref; a registry that does not answer is 422, nothing stored', async () => {
  const { sandboxKey: key } = await t.tenant();
  const missing = await t.call('POST', '/v1/businesses', { key, body: { source: 'gleif', source_ref: '529900T8BM49AURSDO55' } });
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.json().error.field, 'source_ref');
  const batches = async () => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM registry_import_batches`))[0]!.n;
  const n = await batches();
  s.delays.set('/gleif/api/v1/lei-records/335800CCCPHKUOXPC332', 6000);
  try {
    const slow = await t.call('POST', '/v1/businesses', { key, body: { source: 'gleif', source_ref: '335800CCCPHKUOXPC332' } });
    assert.equal(slow.statusCode, 422, slow.body);
    assert.deepEqual([slow.json().error.code, slow.json().error.field], ['check_unavailable', 'source_ref']);
  } finally {
    s.delays.clear();
  }
  assert.equal(await batches(), n);
});
