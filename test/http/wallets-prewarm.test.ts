import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, testConfig, type TestApp, type Tenant, activateTestList } from '../helpers/test-app.js';
import { buildApp } from '../../src/app.js';
import type { Db, Queryable } from '../../src/platform/db.js';
import { MemoryRateLimiter } from '../../src/platform/rate-limit.js';
import type { ListEntity } from '../../src/engines/screening/types.js';
import { WALLET_INDEXES } from '../../src/modules/wallets/indexes.js';
import { createResources } from '../../src/platform/resources.js';
import { READINESS } from '../../src/platform/readiness.js';

/** The API listens at once and builds the wallet indexes in the background (/readyz 503 until then); a snapshot switch is indexed in the background. */

const OFAC_ETH = '0x098B716B8Aaf21512996dC57EB0615e2383E2f96';
const LATER = `0x${'33'.repeat(20)}`;
let t: TestApp;
let owner: Tenant;
const entity = (id: string, address: string): ListEntity => ({
  id,
  source: 'ofac_sdn',
  datasets: ['sanctions'],
  schema: 'organization',
  names: [{ full: `Listed ${id}`, quality: 'strong' }],
  birthDates: [],
  nationalities: [],
  countries: [],
  addresses: [],
  identifiers: [{ type: 'crypto:ETH', value: address }],
  programs: ['CYBER2'],
});
const activate = (entities: ListEntity[]) => activateTestList(t, 'ofac_sdn', entities);
const activeIds = async () =>
  (await t.db.query<{ id: string }>("SELECT id FROM list_snapshots WHERE state = 'active' ORDER BY id")).map((r) => r.id).sort();

before(async () => {
  t = await createTestApp();
  owner = await t.tenant();
  await activate([entity('ofac-sdn:1', OFAC_ETH)]);
  const imp = await t.call('POST', '/v1/wallets/attributions/imports', {
    key: owner.sandboxKey,
    body: { list: 'intel', content: `chain,address,category\nETH,0x${'11'.repeat(20)},mixer\n` },
  });
  assert.equal(imp.statusCode, 201);
});
after(() => t.close());

/**
 * A new handle and new resources on the same database: a process start.
 * `gate` holds back the pre-warm's tenant query (a large deployment's slow build) until it resolves.
 */
const handle = (gate: Promise<void> = Promise.resolve()): Db => ({
  kind: t.db.kind,
  hasVector: t.db.hasVector,
  query: async <T>(sql: string, params?: readonly unknown[]) => {
    if (sql.includes('WITH RECURSIVE k(account_id, environment)')) await gate; // the warm-up's tenant query
    return t.db.query<T>(sql, params);
  },
  transaction: <T>(fn: (tx: Queryable) => Promise<T>) => t.db.transaction(fn),
  close: async () => undefined,
});

test('the server answers while the indexes warm: /readyz is 503 naming wallet_indexes, /healthz 200, a screening builds what it needs; then ready', async () => {
  let release!: () => void;
  const db = handle(new Promise<void>((r) => (release = r)));
  const resources = createResources(testConfig(), db);
  const app = await buildApp({ config: resources.config, db, rateLimiter: new MemoryRateLimiter(), resources });
  await app.ready();
  try {
    const warming = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(warming.statusCode, 503);
    assert.equal(warming.json().status, 'not_ready');
    assert.deepEqual(warming.json().components, { wallet_indexes: 'warming' });
    assert.equal(warming.json().error.code, 'internal_error', 'the error envelope, as every non-2xx answer');
    assert.match(warming.json().error.message, /wallet_indexes/);
    assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    assert.deepEqual(resources.get(WALLET_INDEXES).state().tenants, [], 'the tenant is not warmed yet');
    // A request before the warm-up is done builds (or waits on) its tenant's index itself.
    const early = await app.inject({
      method: 'POST',
      url: '/v1/wallets/screen',
      headers: { authorization: `Bearer ${owner.sandboxKey}` },
      payload: { address: OFAC_ETH },
    });
    assert.equal(early.statusCode, 200);
    assert.equal(early.json().risk.level, 'severe');
    assert.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 503, 'still warming: the gate holds the pre-warm');

    release();
    let ready = await app.inject({ method: 'GET', url: '/readyz' });
    for (let i = 0; i < 200 && ready.statusCode !== 200; i++) {
      await new Promise((r) => setTimeout(r, 25));
      ready = await app.inject({ method: 'GET', url: '/readyz' });
    }
    assert.equal(ready.statusCode, 200);
    assert.equal(ready.json().status, 'ready');
    assert.deepEqual(ready.json().components, { wallet_indexes: 'ready' });
  } finally {
    release();
    await app.close();
    await resources.close();
  }
});

test('once ready, the list indexes and the tenants with wallet data are built; a switch elsewhere is indexed in the background', async () => {
  const db = handle();
  const resources = createResources(testConfig({}, { WALLETS_LIST_REFRESH_MS: '100' }), db);
  const app = await buildApp({ config: resources.config, db, rateLimiter: new MemoryRateLimiter(), resources });
  await app.ready();
  try {
    await resources.get(READINESS).whenReady();
    const s = resources.get(WALLET_INDEXES).state();
    assert.deepEqual(s.snapshotIds, await activeIds());
    assert.ok(s.snapshotIds.length >= 1);
    assert.deepEqual(s.tenants, [`${owner.accountId}:sandbox`]);

    // A snapshot switch made elsewhere (another process: no invalidation here) is indexed by the background refresh.
    await activate([entity('ofac-sdn:1', OFAC_ETH), entity('ofac-sdn:2', LATER)]);
    const want = await activeIds();
    for (let i = 0; i < 200 && JSON.stringify(resources.get(WALLET_INDEXES).state().snapshotIds) !== JSON.stringify(want); i++)
      await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(resources.get(WALLET_INDEXES).state().snapshotIds, want, 'indexed without a request');
    const res = await app.inject({
      method: 'POST',
      url: '/v1/wallets/screen',
      headers: { authorization: `Bearer ${owner.sandboxKey}` },
      payload: { address: LATER },
    });
    assert.equal(res.json().risk.level, 'severe');
  } finally {
    await app.close();
    await resources.close();
  }
});

test('the warm-up yields to the event loop while it builds a large graph: a pause at least every 2,000 transfers', async () => {
  const other = await t.tenant();
  const N = 12_000;
  await t.db.query(
    `INSERT INTO wallet_transfers (account_id, environment, chain, from_address, to_address, amount, import_id)
     SELECT $1, 'sandbox', 'ethereum', '0x' || lpad(to_hex(g % 997 + 1), 40, '0'), '0x' || lpad(to_hex((g * 7) % 991 + 1), 40, '0'),
            (g % 13 + 1)::text, 'imp_bulk' FROM generate_series(1, $2::int) g`,
    [other.accountId, N],
  );
  // Event-loop turns are counted by a setImmediate ticker; the turns between the transfer rows' arrival
  // and readiness are the builder's own pauses (before, it built in one go: no turn at all).
  let ticks = 0;
  let stop = false;
  const tick = () => {
    ticks++;
    if (!stop) setImmediate(tick);
  };
  let atRows: number | null = null;
  const base = handle();
  const db: Db = {
    ...base,
    query: async <T>(sql: string, params?: readonly unknown[]) => {
      const rows = await base.query<T>(sql, params);
      if (sql.includes('FROM wallet_transfers') && sql.includes('seq >') && params?.[0] === other.accountId && rows.length > 0)
        atRows ??= ticks;
      return rows;
    },
  };
  const resources = createResources(testConfig(), db);
  const app = await buildApp({ config: resources.config, db, rateLimiter: new MemoryRateLimiter(), resources });
  tick();
  try {
    await app.ready();
    await resources.get(READINESS).whenReady();
    stop = true;
    assert.notEqual(atRows, null, 'the tenant was warmed');
    assert.ok(ticks - atRows! >= N / 2_000, `event-loop turns while building: ${ticks - atRows!}`);
    assert.ok(resources.get(WALLET_INDEXES).state().tenants.includes(`${other.accountId}:sandbox`));
    // And the graph it built is the one screenings walk.
    const res = await app.inject({
      method: 'POST',
      url: '/v1/wallets/screen',
      headers: { authorization: `Bearer ${other.sandboxKey}` },
      payload: { address: `0x${(5).toString(16).padStart(40, '0')}` },
    });
    assert.equal(res.statusCode, 200);
  } finally {
    stop = true;
    await app.close();
    await resources.close();
  }
});
