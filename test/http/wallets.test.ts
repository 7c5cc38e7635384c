import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant, activateTestList } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import type { ListEntity } from '../../src/engines/screening/types.js';
import { parseFtmJson } from '../../src/providers/lists/ftm-json.js';
import { Sealer } from '../../src/platform/crypto.js';
import { rescreenKeys, rescreenListUpdates } from '../../src/modules/wallets/rescreen.js';
import { latestWalletScreening } from '../../src/modules/wallets/index.js';
import { WALLET_INDEXES } from '../../src/modules/wallets/indexes.js';
import { runCommand } from '../../src/cli/commands.js';
import { JobRunner, enqueueJob } from '../../src/platform/jobs.js';
import { QUEUES } from '../../src/platform/queues.js';
import { walletJobHandlers } from '../../src/modules/wallets/jobs.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let t: TestApp;
let sealer: Sealer;
before(async () => {
  t = await createTestApp();
  sealer = new Sealer(t.config.masterKey);
});
after(() => t.close());
const app = () => t;

// Real, valid addresses (EIP-55 test vectors, BIP-173 / legacy vectors) used as fictitious list entries.
const ETH_SANCTIONED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BTC_SANCTIONED = '1Df883c96LVauVsx9FEgnsourD8DELwCUQ';
const ETH_LATER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const A = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;

function entity(id: string, name: string, ids: Array<[string, string]>, programs = ['CYBER2']): ListEntity {
  return {
    id,
    source: 'ofac_sdn',
    datasets: ['sanctions'],
    schema: 'organization',
    names: [{ full: name, quality: 'strong' }],
    birthDates: [],
    nationalities: [],
    countries: [],
    addresses: [],
    identifiers: ids.map(([type, value]) => ({ type, value })),
    programs,
  };
}

async function activate(entities: ListEntity[]) {
  const r = await activateTestList(t, 'ofac_sdn', entities);
  // Screening sees a switch within a second (WalletIndexes.refreshMs); the test does not wait for it.
  t.resources.get(WALLET_INDEXES).invalidateLists();
  return r;
}

const BASE = [
  entity('ofac-sdn:1', 'Example Mixer Ltd', [
    ['crypto:ETH', ETH_SANCTIONED],
    ['crypto:XBT', BTC_SANCTIONED],
  ]),
  entity('ofac-sdn:2', 'Nobody Crypto', [['passport', 'X1']]),
];

const screen = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  t.call('POST', '/v1/wallets/screen', { key, body, headers });
const createScreening = async (tt: TestApp, o: Tenant) =>
  (await tt.call('POST', '/v1/wallets/screen', { key: o.sandboxKey, body: { address: A(7) } })).json().id as string;
const createMonitor = async (tt: TestApp, o: Tenant) =>
  (await tt.call('POST', '/v1/wallets/monitor', { key: o.sandboxKey, body: { address: A(8), subject_reference: 'cus_sec' } })).json()
    .id as string;

describe('wallet routes: security', () => {
  routeSecurityTests('screenWallet', app, {
    method: 'POST',
    url: () => '/v1/wallets/screen',
    scope: 'wallets:write',
    body: { address: A(1) },
    malformed: { body: { address: A(1), chain: 'dogecoin-classic' }, field: 'chain' },
  });
  routeSecurityTests('getWalletScreening', app, {
    method: 'GET',
    url: (id) => `/v1/wallets/screenings/${id}`,
    scope: 'wallets:read',
    create: createScreening,
  });
  routeSecurityTests('monitorWallet', app, {
    method: 'POST',
    url: () => '/v1/wallets/monitor',
    scope: 'wallets:write',
    body: { address: A(2), subject_reference: 'cus_1' },
    malformed: { body: { address: A(2) }, field: 'subject_reference' },
  });
  routeSecurityTests('listWalletMonitors', app, { method: 'GET', url: () => '/v1/wallets/monitors', scope: 'wallets:read' });
  routeSecurityTests('getWalletMonitor', app, {
    method: 'GET',
    url: (id) => `/v1/wallets/monitors/${id}`,
    scope: 'wallets:read',
    create: createMonitor,
  });
  routeSecurityTests('pauseWalletMonitor', app, {
    method: 'POST',
    url: (id) => `/v1/wallets/monitors/${id}/pause`,
    scope: 'wallets:write',
    create: createMonitor,
  });
  routeSecurityTests('resumeWalletMonitor', app, {
    method: 'POST',
    url: (id) => `/v1/wallets/monitors/${id}/resume`,
    scope: 'wallets:write',
    create: createMonitor,
  });
  routeSecurityTests('stopWalletMonitor', app, {
    method: 'DELETE',
    url: (id) => `/v1/wallets/monitors/${id}`,
    scope: 'wallets:write',
    create: createMonitor,
  });
  routeSecurityTests('importWalletAttributions', app, {
    method: 'POST',
    url: () => '/v1/wallets/attributions/imports',
    scope: 'wallets:write',
    body: { list: 'intel', content: `chain,address,category,entity\nETH,${A(3)},scam,Scam Co\n` },
    malformed: { body: { list: 'Bad List!', content: 'x' }, field: 'list' },
  });
  routeSecurityTests('importWalletTransfers', app, {
    method: 'POST',
    url: () => '/v1/wallets/transfers/imports',
    scope: 'wallets:write',
    body: { content: `chain,tx_hash,from,to,amount\nethereum,0xab,${A(3)},${A(4)},1.5\n` },
    malformed: { body: { content: 'x', extra: 1 }, field: 'extra' },
  });
  routeSecurityTests('getWalletPolicy', app, { method: 'GET', url: () => '/v1/wallets/policy', scope: 'wallets:read' });
  routeSecurityTests('putWalletPolicy', app, {
    method: 'PUT',
    url: () => '/v1/wallets/policy',
    scope: 'wallets:write',
    body: { rows: [{ category: 'sanctions', exposure: 'direct', min_share: 0, level: 'severe' }] },
    malformed: {
      body: { rows: [{ category: 'sanctions', exposure: 'sideways', min_share: 0, level: 'severe' }] },
      field: 'rows[0].exposure',
    },
  });
});

describe('wallet screening', () => {
  let owner: Tenant;
  before(async () => {
    owner = await t.tenant();
    await activate(BASE);
  });

  test('invalid addresses are a 400 naming the field, with the reason', async () => {
    const badChecksum = await screen(owner.sandboxKey, { address: '1Df883c96LVauVsx9FEgnsourD8DELwCUR', chain: 'bitcoin' });
    assert.equal(badChecksum.statusCode, 400);
    assert.equal(badChecksum.json().error.field, 'address');
    assert.match(badChecksum.json().error.message, /bad_checksum/);
    const notAddress = await screen(owner.sandboxKey, { address: 'a'.repeat(64) });
    assert.equal(notAddress.json().error.field, 'address');
    assert.match(notAddress.json().error.message, /not_an_address/);
    const wrongChain = await screen(owner.sandboxKey, { address: ETH_SANCTIONED, chain: 'bitcoin' });
    assert.equal(wrongChain.statusCode, 400);
    assert.equal(wrongChain.json().error.field, 'address');
    const chain = await screen(owner.sandboxKey, { address: ETH_SANCTIONED, chain: 'FOO' });
    assert.equal(chain.json().error.field, 'chain');
    const rows = await t.db.query('SELECT id FROM wallet_screenings WHERE account_id = $1', [owner.accountId]);
    assert.equal(rows.length, 0, 'nothing written for a bad request');
  });

  test('a listed EVM address is found in any case and on another EVM chain; the match names list, version and entity', async () => {
    const snap = await t.db.query<{ id: string }>("SELECT id FROM list_snapshots WHERE source = 'ofac_sdn' AND state = 'active'");
    for (const [address, chain] of [
      [ETH_SANCTIONED.toLowerCase(), undefined],
      [ETH_SANCTIONED, 'ethereum'],
      [ETH_SANCTIONED, 'bsc'],
    ] as const) {
      const res = await screen(owner.productionKey, { address, ...(chain ? { chain } : {}) });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.object, 'wallet_screening');
      assert.equal(body.normalized_address, ETH_SANCTIONED.toLowerCase());
      assert.equal(body.checksum, chain ? 'valid' : 'absent');
      assert.equal(body.risk.level, 'severe');
      const direct = body.categories.find((c: { category: string }) => c.category === 'sanctions');
      assert.equal(direct.exposure, 'direct');
      assert.deepEqual(
        {
          list: direct.sources[0].list,
          version: direct.sources[0].version,
          entity: direct.sources[0].entity_name,
          chain: direct.sources[0].listed_chain,
        },
        { list: 'ofac_sdn', version: snap[0]!.id, entity: 'Example Mixer Ltd', chain: 'ethereum' },
      );
      assert.equal(body.list_versions.ofac_sdn, snap[0]!.id);
    }
  });

  test('a clean address is low; bitcoin base58 compares exactly', async () => {
    const clean = (await screen(owner.sandboxKey, { address: A(99) })).json();
    assert.equal(clean.risk.level, 'low');
    assert.deepEqual(clean.categories, []);
    const btc = (await screen(owner.sandboxKey, { address: BTC_SANCTIONED })).json();
    assert.equal(btc.chain, 'bitcoin');
    assert.equal(btc.risk.level, 'severe');
  });

  test('billed, audited and evented once; an Idempotency-Key replay returns the original without billing again', async () => {
    const headers = { 'idempotency-key': 'wallet-screen-1' };
    const first = await screen(owner.sandboxKey, { address: ETH_SANCTIONED, subject_reference: 'cus_9' }, headers);
    const again = await screen(owner.sandboxKey, { address: ETH_SANCTIONED, subject_reference: 'cus_9' }, headers);
    assert.equal(first.statusCode, 200);
    assert.equal(again.json().id, first.json().id);
    const id = first.json().id as string;
    assert.match(id, /^wsc_/);
    const usage = await t.db.query('SELECT operation FROM usage_records WHERE resource_id = $1', [id]);
    assert.deepEqual(usage, [{ operation: 'wallet_screen' }]);
    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1', [id]);
    assert.deepEqual(
      audit.map((a) => a.action),
      ['wallet_screening.created'],
    );
    const events = await t.db.query<{ type: string; data: { level: string; subject_reference: string } }>(
      'SELECT type, data FROM events WHERE resource_id = $1',
      [id],
    );
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'wallet.screened');
    assert.equal(events[0]!.data.level, 'severe');
    const got = await t.call('GET', `/v1/wallets/screenings/${id}`, { key: owner.sandboxKey });
    assert.deepEqual(got.json(), first.json());
    const kyt = await latestWalletScreening(t.db, { accountId: owner.accountId, environment: 'sandbox' }, ETH_SANCTIONED.toLowerCase());
    assert.equal(kyt?.screened, true);
    assert.equal(kyt?.sanctioned, true);
    assert.equal(kyt?.risk, 'severe');
  });

  test('OpenSanctions CryptoWallet entries in a list snapshot are direct hits naming the holder', async () => {
    const ftm = [
      { id: 'NK-h', schema: 'Organization', properties: { name: ['Garantex Europe'], topics: ['sanction'] } },
      {
        id: 'NK-w',
        schema: 'CryptoWallet',
        properties: { publicKey: ['TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR'], currency: ['TRX'], holder: ['NK-h'] },
      },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const snap = await activateTestList(t, 'opensanctions', parseFtmJson(ftm), 'ftm_json');
    t.resources.get(WALLET_INDEXES).invalidateLists();
    const body = (await screen(owner.productionKey, { address: 'TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR' })).json();
    assert.equal(body.chain, 'tron');
    assert.equal(body.risk.level, 'severe');
    const src = body.categories[0].sources[0];
    assert.deepEqual([src.list, src.version, src.entity_name], ['opensanctions', snap.snapshot.id, 'Garantex Europe']);
  });

  test("the caller's block list is a direct custom hit", async () => {
    const add = await t.call('POST', '/v1/lists/blocklist/entries', {
      key: owner.sandboxKey,
      body: { kind: 'wallet_address', value: A(42), reason: 'fraud ring' },
    });
    assert.equal(add.statusCode, 201);
    const body = (await screen(owner.sandboxKey, { address: A(42) })).json();
    const hit = body.categories.find((c: { category: string }) => c.category === 'custom');
    assert.equal(hit.exposure, 'direct');
    assert.equal(hit.sources[0].list, 'blocklist');
    assert.equal(hit.sources[0].version, add.json().id);
    assert.equal(body.risk.level, 'high');
    // Another tenant's block list does not apply.
    const other = await t.tenant();
    assert.equal((await screen(other.sandboxKey, { address: A(42) })).json().risk.level, 'low');
  });

  test('attribution imports: bad lines name the line; reject writes nothing, skip imports the good lines', async () => {
    const content = `chain,address,category,entity,source\nETH,${A(11)},mixer,Mixer One,intel-feed\nETH,${A(12)},weather,Nobody,x\nETH,0x123,scam,Bad,x\n`;
    const rejected = await t.call('POST', '/v1/wallets/attributions/imports', { key: owner.sandboxKey, body: { list: 'intel', content } });
    assert.equal(rejected.statusCode, 400);
    assert.equal(rejected.json().error.field, 'content');
    assert.match(rejected.json().error.message, /line 3: category "weather"/);
    assert.match(rejected.json().error.message, /line 4: address: /);
    assert.equal((await screen(owner.sandboxKey, { address: A(11) })).json().risk.level, 'low');
    const ok = await t.call('POST', '/v1/wallets/attributions/imports', {
      key: owner.sandboxKey,
      body: { list: 'intel', content, on_error: 'skip' },
    });
    assert.equal(ok.statusCode, 201);
    assert.deepEqual(
      { lines: ok.json().lines, imported: ok.json().imported, rejected: ok.json().rejected },
      { lines: 3, imported: 1, rejected: 2 },
    );
    assert.deepEqual(
      ok.json().errors.map((e: { line: number }) => e.line),
      [3, 4],
    );
    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1', [ok.json().id]);
    assert.equal(audit[0]?.action, 'wallet_import.created');
    const hit = (await screen(owner.sandboxKey, { address: A(11) })).json();
    assert.equal(hit.categories[0].category, 'mixer');
    assert.equal(hit.categories[0].sources[0].list, 'attribution:intel');
    assert.equal(hit.categories[0].sources[0].version, ok.json().id);
    assert.equal(hit.categories[0].sources[0].entity_name, 'Mixer One');
    assert.equal(hit.categories[0].sources[0].program, 'intel-feed');
  });

  test('indirect exposure over imported transfers: share of value, hops, direction; the policy table sets the level', async () => {
    const content = [
      JSON.stringify({ chain: 'ethereum', tx_hash: '0x01', from: A(11), to: A(20), amount: '10' }),
      JSON.stringify({ chain: 'ethereum', tx_hash: '0x02', from: A(21), to: A(20), amount: '30' }),
      JSON.stringify({ chain: 'ethereum', tx_hash: '0x03', from: A(20), to: A(22), amount: '5' }),
      JSON.stringify({ chain: 'ethereum', tx_hash: '0x04', from: A(22), to: A(23), amount: 'lots' }),
    ].join('\n');
    const res = await t.call('POST', '/v1/wallets/transfers/imports', { key: owner.sandboxKey, body: { content, on_error: 'skip' } });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json().errors, [{ line: 4, message: 'amount: amount "lots" is not a non-negative decimal' }]);
    const direct = (await screen(owner.sandboxKey, { address: A(20) })).json();
    const mixer = direct.categories.find((c: { category: string }) => c.category === 'mixer');
    assert.deepEqual(
      {
        exposure: mixer.exposure,
        direction: mixer.direction,
        share: mixer.share,
        hops: mixer.hops,
        value: mixer.value,
        level: mixer.level,
      },
      { exposure: 'indirect', direction: 'received', share: 0.25, hops: 1, value: '10', level: 'high' },
    );
    assert.equal(direct.risk.level, 'high');
    // Two hops away: 22 received everything from 20, a quarter of whose inflow came from the mixer.
    const two = (await screen(owner.sandboxKey, { address: A(22) })).json();
    assert.deepEqual(
      two.categories.map((c: { category: string; hops: number; share: number }) => [c.category, c.hops, c.share]),
      [['mixer', 2, 0.25]],
    );
    assert.deepEqual((await screen(owner.sandboxKey, { address: A(22), hops: 1 })).json().categories, []);
    // The operator's table: mixer exposure of 20 % or more is severe (and nothing else has a level).
    const put = await t.call('PUT', '/v1/wallets/policy', {
      key: owner.sandboxKey,
      body: { rows: [{ category: 'mixer', exposure: 'indirect', min_share: 0.2, level: 'severe' }] },
    });
    assert.equal(put.statusCode, 200);
    assert.equal(put.json().version, 1);
    assert.equal((await screen(owner.sandboxKey, { address: A(20) })).json().risk.level, 'severe');
    assert.equal((await screen(owner.sandboxKey, { address: A(11) })).json().risk.level, 'low', 'no direct mixer row any more');
    const audit = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE resource_type = 'wallet_policy' AND account_id = $1",
      [owner.accountId],
    );
    assert.deepEqual(
      audit.map((a) => a.action),
      ['wallet_policy.updated'],
    );
    assert.equal((await t.call('GET', '/v1/wallets/policy', { key: owner.sandboxKey })).json().rows.length, 1);
  });
});

describe('wallet monitors', () => {
  test('register, list, re-screen on a list update (only a change raises wallet.risk_changed), pause, stop', async () => {
    const o = await t.tenant();
    const reg = await t.call('POST', '/v1/wallets/monitor', {
      key: o.sandboxKey,
      body: { address: ETH_LATER, subject_reference: 'cus_w1' },
    });
    assert.equal(reg.statusCode, 201, reg.body);
    const m = reg.json();
    assert.match(m.id, /^wmon_/);
    assert.equal(m.state, 'active');
    assert.equal(m.risk.level, 'low');
    const twice = await t.call('POST', '/v1/wallets/monitor', {
      key: o.sandboxKey,
      body: { address: ETH_LATER.toLowerCase(), subject_reference: 'cus_w1' },
    });
    assert.equal(twice.statusCode, 200);
    assert.equal(twice.json().id, m.id);
    const list = await t.call('GET', '/v1/wallets/monitors?subject_reference=cus_w1', { key: o.sandboxKey });
    assert.deepEqual(
      list.json().data.map((x: { id: string }) => x.id),
      [m.id],
    );
    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1', [m.id]);
    assert.deepEqual(
      audit.map((a) => a.action),
      ['wallet_monitor.created'],
    );

    // Catch up with the current lists first (nothing about this address changes).
    await rescreenListUpdates(t.db, sealer, t.resources.get(WALLET_INDEXES));
    const quiet = await t.db.query("SELECT id FROM events WHERE type = 'wallet.risk_changed' AND resource_id = $1", [m.id]);
    assert.equal(quiet.length, 0);

    // OFAC adds the address: the diff holds it, the monitor is re-screened and its level changes.
    await activate([...BASE, entity('ofac-sdn:3', 'Later Listed', [['crypto:ETH', ETH_LATER]], ['SDGT'])]);
    const summary = await rescreenListUpdates(t.db, sealer, t.resources.get(WALLET_INDEXES));
    assert.deepEqual(summary.sources, ['ofac_sdn']);
    assert.equal(summary.changedKeys, 1);
    const ev = await t.db.query<{
      data: {
        before: { level: string; categories: string[] };
        after: { level: string; categories: string[] };
        trigger: string;
        screening_id: string;
        alert_id: string | null;
      };
    }>("SELECT data FROM events WHERE type = 'wallet.risk_changed' AND resource_id = $1", [m.id]);
    assert.equal(ev.length, 1);
    assert.deepEqual(ev[0]!.data.before, { level: 'low', categories: [] });
    assert.equal(ev[0]!.data.after.level, 'severe');
    assert.deepEqual(ev[0]!.data.after.categories, ['sanctions:direct:both', 'terrorist_financing:direct:both']);
    assert.equal(ev[0]!.data.trigger, 'list_update');
    // The change is a wallet_risk alert in the monitor's alert_review case.
    const alerts = await t.db.query<{ id: string; kind: string; severity: string; subject_id: string }>(
      "SELECT id, kind, severity, subject_id FROM alerts WHERE account_id = $1 AND kind = 'wallet_risk'",
      [o.accountId],
    );
    assert.deepEqual(alerts, [{ id: ev[0]!.data.alert_id, kind: 'wallet_risk', severity: 'critical', subject_id: m.id }]);
    const alertEvents = await t.db.query("SELECT id FROM events WHERE type = 'alert.created' AND resource_id = $1", [alerts[0]!.id]);
    assert.equal(alertEvents.length, 1);
    const changedAudit = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE resource_id = $1 AND action = 'wallet_monitor.risk_changed'",
      [m.id],
    );
    assert.equal(changedAudit.length, 1);
    const after = (await t.call('GET', `/v1/wallets/monitors/${m.id}`, { key: o.sandboxKey })).json();
    assert.equal(after.risk.level, 'severe');
    assert.equal(after.last_screening_id, ev[0]!.data.screening_id);
    const rescreen = (await t.call('GET', `/v1/wallets/screenings/${after.last_screening_id}`, { key: o.sandboxKey })).json();
    assert.equal(rescreen.trigger, 'list_update');
    assert.equal(rescreen.monitor_id, m.id);

    // Nothing changed since: a second run raises nothing.
    await rescreenListUpdates(t.db, sealer, t.resources.get(WALLET_INDEXES));
    const still = await t.db.query("SELECT id FROM events WHERE type = 'wallet.risk_changed' AND resource_id = $1", [m.id]);
    assert.equal(still.length, 1);

    const paused = await t.call('POST', `/v1/wallets/monitors/${m.id}/pause`, { key: o.sandboxKey });
    assert.equal(paused.json().state, 'paused');
    const stopped = await t.call('DELETE', `/v1/wallets/monitors/${m.id}`, { key: o.sandboxKey });
    assert.equal(stopped.json().state, 'stopped');
    const resume = await t.call('POST', `/v1/wallets/monitors/${m.id}/resume`, { key: o.sandboxKey });
    assert.equal(resume.statusCode, 409);
    const moves = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE resource_id = $1 AND action LIKE 'wallet_monitor.%' ORDER BY id",
      [m.id],
    );
    assert.deepEqual(
      moves.map((a) => a.action),
      ['wallet_monitor.created', 'wallet_monitor.risk_changed', 'wallet_monitor.paused', 'wallet_monitor.stopped'],
    );
  });

  test('new transfers re-screen the monitors they touch (the import queues the job)', async () => {
    const o = await t.tenant();
    await t.call('POST', '/v1/wallets/attributions/imports', {
      key: o.sandboxKey,
      body: { list: 'intel', content: `chain,address,category\nETH,${A(501)},ransomware\n` },
    });
    const reg = (
      await t.call('POST', '/v1/wallets/monitor', { key: o.sandboxKey, body: { address: A(500), subject_reference: 'cus_t' } })
    ).json();
    const far = (
      await t.call('POST', '/v1/wallets/monitor', { key: o.sandboxKey, body: { address: A(600), subject_reference: 'cus_far' } })
    ).json();
    assert.equal(reg.risk.level, 'low');
    const imp = await t.call('POST', '/v1/wallets/transfers/imports', {
      key: o.sandboxKey,
      body: { content: `chain,tx_hash,from,to,amount\nethereum,0xaa,${A(501)},${A(500)},3\n` },
    });
    assert.equal(imp.statusCode, 201);
    const jobs = await t.db.query<{ payload: Parameters<typeof rescreenKeys>[2] }>(
      "SELECT payload FROM jobs WHERE queue = 'wallets.rescreen' AND payload->>'account_id' = $1 ORDER BY id",
      [o.accountId],
    );
    assert.equal(jobs.length, 2, 'one job per import');
    const r = await rescreenKeys(t.db, sealer, jobs[1]!.payload, t.resources.get(WALLET_INDEXES));
    assert.deepEqual(r, { screened: 1, changed: 1 }, 'only the monitor near the transfer is re-screened');
    const ev = await t.db.query<{ data: { after: { level: string; categories: string[] }; trigger: string } }>(
      "SELECT data FROM events WHERE type = 'wallet.risk_changed' AND resource_id = $1",
      [reg.id],
    );
    assert.equal(ev.length, 1);
    assert.equal(ev[0]!.data.trigger, 'transfers');
    assert.deepEqual(ev[0]!.data.after.categories, ['ransomware:indirect:received']);
    const alerts = await t.db.query<{ severity: string }>("SELECT severity FROM alerts WHERE account_id = $1 AND kind = 'wallet_risk'", [
      o.accountId,
    ]);
    assert.deepEqual(alerts, [{ severity: 'high' }], 'ransomware exposure of 100 % is high by the default policy');
    const untouched = await t.db.query("SELECT id FROM events WHERE type = 'wallet.risk_changed' AND resource_id = $1", [far.id]);
    assert.equal(untouched.length, 0);
  });
});

test('the transfer graph loads every imported row exactly once (rows cross a digit boundary of their sequence)', async () => {
  const o = await t.tenant();
  const lines = ['chain,tx_hash,from,to,amount'];
  for (let i = 0; i < 120; i++) lines.push(`ethereum,0x${i.toString(16)},${A(1000 + i)},${A(2000)},1`);
  const res = await t.call('POST', '/v1/wallets/transfers/imports', { key: o.sandboxKey, body: { content: lines.join('\n') } });
  assert.equal(res.json().imported, 120);
  const { graph } = await t.resources.get(WALLET_INDEXES).tenant({ accountId: o.accountId, environment: 'sandbox' });
  assert.equal(graph.edgeCount, 120);
  // One payer of 120 equal ones attributed: exactly 1/120 of the inflow.
  await t.call('POST', '/v1/wallets/attributions/imports', {
    key: o.sandboxKey,
    body: { list: 'x', content: `chain,address,category\nETH,${A(1005)},scam\n` },
  });
  const body = (await screen(o.sandboxKey, { address: A(2000) })).json();
  assert.equal(body.categories[0].share, Math.round((1 / 120) * 1e6) / 1e6);
  // value = share × total: a float share times an exact total, so within 10⁻⁶ of the 1 unit received from it.
  assert.ok(Math.abs(Number(body.categories[0].value) - 1) < 1e-6, body.categories[0].value);
});

test('CLI: wallets import-attributions / import-transfers run the import verbs as the operator', async () => {
  const o = await t.tenant();
  const dir = mkdtempSync(join(tmpdir(), 'wallets-cli-'));
  const attr = join(dir, 'attr.csv');
  writeFileSync(attr, `chain,address,category,entity\nETH,${A(3001)},darknet_market,Hydra\nETH,${A(3002)},bogus,x\n`);
  const run = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCommand(t.db, argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, t.config);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const base = ['--account', o.accountId, '--environment', 'sandbox'];
  const rejected = await run(['wallets', 'import-attributions', attr, ...base, '--list', 'intel']);
  assert.equal(rejected.code, 65);
  assert.match(rejected.err, /line 3: category "bogus"/);
  const ok = await run(['wallets', 'import-attributions', attr, ...base, '--list', 'intel', '--skip']);
  assert.equal(ok.code, 0);
  assert.match(ok.out, /2 lines, 1 imported, 1 rejected/);
  const transfers = join(dir, 'tx.jsonl');
  writeFileSync(transfers, JSON.stringify({ chain: 'ethereum', hash: '0x9', from: A(3001), to: A(3003), value: '4' }) + '\n');
  const tx = await run(['wallets', 'import-transfers', transfers, ...base, '--json']);
  assert.equal(tx.code, 0);
  assert.equal(JSON.parse(tx.out).imported, 1);
  const audit = await t.db.query<{ actor_type: string }>(
    "SELECT actor_type FROM audit_events WHERE account_id = $1 AND action = 'wallet_import.created'",
    [o.accountId],
  );
  assert.deepEqual(
    audit.map((a) => a.actor_type),
    ['operator', 'operator'],
  );
  const body = (await screen(o.sandboxKey, { address: A(3003) })).json();
  assert.deepEqual(
    body.categories.map((c: { category: string; exposure: string; direction: string }) => [c.category, c.exposure, c.direction]),
    [['darknet_market', 'indirect', 'received']],
  );
});

test('the wallets.rescreen queue: the recurring tick (no payload) and an import job run through the job runner', async () => {
  const o = await t.tenant();
  const m = (
    await t.call('POST', '/v1/wallets/monitor', { key: o.productionKey, body: { address: A(4000), subject_reference: 'cus_q' } })
  ).json();
  await t.call('POST', '/v1/wallets/attributions/imports', {
    key: o.productionKey,
    body: { list: 'q', content: `chain,address,category\nETH,${A(4000)},gambling\n` },
  });
  await enqueueJob(t.db, QUEUES.walletsRescreen, {});
  await new JobRunner({
    db: t.db,
    handlers: walletJobHandlers(
      t.db,
      () => sealer,
      t.config.wallets,
      () => t.resources.get(WALLET_INDEXES),
    ),
  }).drain();
  const after = (await t.call('GET', `/v1/wallets/monitors/${m.id}`, { key: o.productionKey })).json();
  assert.equal(after.risk.level, 'medium');
  assert.deepEqual(after.risk.categories, ['gambling:direct:both']);
  const failed = await t.db.query("SELECT id, last_error FROM jobs WHERE queue = 'wallets.rescreen' AND state <> 'done'");
  assert.deepEqual(failed, []);
});
