import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant, activateTestList } from '../helpers/test-app.js';
import type { ListEntity } from '../../src/engines/screening/types.js';
import { WALLET_INDEXES } from '../../src/modules/wallets/indexes.js';
import { buildJobHandlers } from '../../src/jobs/index.js';
import { JobRunner } from '../../src/platform/jobs.js';

/**
 * Travel Rule messages' addresses get the full wallet screening (lists, attribution, exposure, policy),
 * and the level decides the message: severe rejects an incoming message / cancels an outgoing one,
 * high holds it, per the environment's address_risk_actions.
 */

// On the OFAC SDN list (LAZARUS GROUP, DPRK3), as published in OFAC's digital currency address identifiers.
const OFAC_LAZARUS = '0x098B716B8Aaf21512996dC57EB0615e2383E2f96';
const MIXER = `0x${'11'.repeat(20)}`;
const CLEAN = `0x${'22'.repeat(20)}`;
const CLEAN_BTC = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';

let t: TestApp;
let owner: Tenant;
let snapshotId: string;
before(async () => {
  t = await createTestApp();
  owner = await t.tenant();
  const lazarus: ListEntity = {
    id: 'ofac-sdn:23161',
    source: 'ofac_sdn',
    datasets: ['sanctions'],
    schema: 'organization',
    names: [{ full: 'LAZARUS GROUP', quality: 'strong' }],
    birthDates: [],
    nationalities: [],
    countries: [],
    addresses: [],
    identifiers: [{ type: 'crypto:ETH', value: OFAC_LAZARUS }],
    programs: ['DPRK3'],
  };
  const r = await activateTestList(t, 'ofac_sdn', [lazarus]);
  snapshotId = (await t.db.query<{ id: string }>("SELECT id FROM list_snapshots WHERE source = 'ofac_sdn' AND state = 'active'"))[0]!.id;
  assert.ok(r);
  t.resources.get(WALLET_INDEXES).invalidateLists();
  const imp = await t.call('POST', '/v1/wallets/attributions/imports', {
    key: owner.sandboxKey,
    body: { list: 'intel', content: `chain,address,category,entity,source\nETH,${MIXER},mixer,Mixer One,intel-feed\n` },
  });
  assert.equal(imp.statusCode, 201, imp.body);
});
after(() => t.close());

const drain = () => new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources }) }).drain();
const person = (given: string, family: string) => ({
  naturalPerson: { name: { nameIdentifier: [{ primaryIdentifier: family, secondaryIdentifier: given, nameIdentifierType: 'LEGL' }] } },
});
const ivms = (originatorAddress: string, beneficiaryAddress?: string) => ({
  originator: {
    originatorPersons: [{ naturalPerson: { ...person('Anna', 'Sender').naturalPerson, customerIdentification: 'c1' } }],
    accountNumber: [originatorAddress],
  },
  beneficiary: { beneficiaryPersons: [person('Bea', 'Receiver')], ...(beneficiaryAddress ? { accountNumber: [beneficiaryAddress] } : {}) },
});
const message = (direction: 'incoming' | 'outgoing', body: Record<string, unknown>, key = owner.sandboxKey) =>
  t.call('POST', '/v1/travel-rule/messages', {
    key,
    body: {
      direction,
      protocol: 'manual',
      asset: { slip0044: 60, symbol: 'ETH' },
      amount: '2',
      amount_fiat: { value: '5000', currency: 'USD' },
      jurisdiction: 'US',
      ...body,
    },
  });
const get = async (id: string, key = owner.sandboxKey) => (await t.call('GET', `/v1/travel-rule/messages/${id}`, { key })).json();
const alertsOf = (id: string) =>
  t.db.query<{ kind: string; severity: string; title: string }>(
    "SELECT kind, severity, title FROM alerts WHERE subject_type = 'travel_rule_message' AND subject_id = $1",
    [id],
  );

describe('incoming messages: wallet screening of the addresses', () => {
  test('an OFAC-listed originator address (severe) rejects the message as high_risk, recorded with list, version and entity', async () => {
    const created = await message('incoming', { ivms101: ivms(OFAC_LAZARUS, CLEAN) });
    assert.equal(created.statusCode, 201, created.body);
    await drain();
    const m = await get(created.json().id);
    assert.equal(m.status, 'rejected');
    assert.equal(m.rejection.code, 'high_risk');
    assert.equal(m.rejection.retryable, false);
    assert.match(m.rejection.message, /originator address 0x098B.*severe \(sanctions direct\)/);
    const [orig, bene] = m.screening.addresses;
    assert.deepEqual(
      { role: orig.role, screened: orig.wallet_screening, level: orig.level, action: orig.action, chain: orig.chains[0] },
      { role: 'originator', screened: 'screened', level: 'severe', action: 'reject', chain: 'ethereum' },
    );
    const f = orig.findings.find((x: { category: string }) => x.category === 'sanctions');
    assert.deepEqual(
      { exposure: f.exposure, list: f.sources[0].list, version: f.sources[0].version, entity: f.sources[0].entity_name },
      { exposure: 'direct', list: 'ofac_sdn', version: snapshotId, entity: 'LAZARUS GROUP' },
    );
    assert.equal(orig.list_versions.ofac_sdn, snapshotId);
    assert.deepEqual({ role: bene.role, level: bene.level, action: bene.action }, { role: 'beneficiary', level: 'low', action: 'proceed' });
    assert.deepEqual(m.screening.address_outcome, { level: 'severe', action: 'reject' });
    assert.deepEqual(
      m.transitions.map((x: { from: string | null; to: string }) => `${x.from}→${x.to}`),
      ['null→received', 'received→rejected'],
    );
    const alerts = await alertsOf(m.id);
    assert.equal(alerts.length, 1);
    assert.equal(alerts[0]!.severity, 'high');
    assert.match(alerts[0]!.title, /rejected: originator address/);
    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1 ORDER BY id', [m.id]);
    assert.ok(audit.some((a) => a.action === 'travel_rule.message.reject'));
  });

  test('a beneficiary address with a mixer attribution (high) holds the message in review', async () => {
    const created = await message('incoming', { ivms101: ivms(CLEAN, MIXER) });
    await drain();
    const m = await get(created.json().id);
    assert.equal(m.status, 'in_review');
    assert.deepEqual(m.screening.address_outcome, { level: 'high', action: 'hold' });
    const bene = m.screening.addresses.find((a: { role: string }) => a.role === 'beneficiary');
    assert.equal(bene.findings[0].category, 'mixer');
    assert.equal(bene.findings[0].sources[0].list, 'attribution:intel');
    assert.equal((await alertsOf(m.id)).length, 1);
  });

  test('a clean message proceeds: no move, no alert, every address screened low', async () => {
    const created = await message('incoming', { ivms101: ivms(CLEAN_BTC, CLEAN) });
    await drain();
    const m = await get(created.json().id);
    assert.equal(m.status, 'received');
    assert.deepEqual(
      m.screening.addresses.map((a: { wallet_screening: string; level: string }) => `${a.wallet_screening}:${a.level}`),
      ['screened:low', 'screened:low'],
    );
    assert.equal((await alertsOf(m.id)).length, 0);
  });

  test('the environment decides: severe → hold keeps the OFAC hit in review instead of rejecting it', async () => {
    const other = await t.tenant();
    const patched = await t.call('PATCH', '/v1/travel-rule/settings', {
      key: other.sandboxKey,
      body: { address_risk_actions: { severe: 'hold', high: 'proceed' } },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual(patched.json().address_risk_actions, { low: 'proceed', medium: 'proceed', high: 'proceed', severe: 'hold' });
    const bad = await t.call('PATCH', '/v1/travel-rule/settings', {
      key: other.sandboxKey,
      body: { address_risk_actions: { severe: 'ignore' } },
    });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().error.field, /address_risk_actions/);
    const created = await message('incoming', { ivms101: ivms(OFAC_LAZARUS) }, other.sandboxKey);
    await drain();
    const m = await get(created.json().id, other.sandboxKey);
    assert.equal(m.status, 'in_review');
    assert.deepEqual(m.screening.address_outcome, { level: 'severe', action: 'hold' });
    const audit = await t.db.query<{ diff: unknown }>(
      "SELECT diff FROM audit_events WHERE action = 'travel_rule.settings.updated' AND account_id = $1",
      [other.accountId],
    );
    assert.equal(audit.length, 1);
  });
});

describe('outgoing messages: the addresses are screened before sending', () => {
  test('an OFAC-listed beneficiary address cancels the message: nothing is sent, the screening and an alert stay', async () => {
    const created = await message('outgoing', { ivms101: ivms(CLEAN_BTC, OFAC_LAZARUS) });
    assert.equal(created.statusCode, 201, created.body);
    const m = created.json();
    assert.equal(m.status, 'canceled');
    assert.equal(m.screening.status, 'not_screened');
    assert.deepEqual(m.screening.address_outcome, { level: 'severe', action: 'reject' });
    assert.deepEqual(
      m.transitions.map((x: { from: string | null; to: string }) => `${x.from}→${x.to}`),
      ['null→draft', 'draft→canceled'],
    );
    assert.match(m.transitions[1].note, /beneficiary address 0x098B/);
    assert.equal((await alertsOf(m.id))[0]!.severity, 'high');
  });

  test('a mixer deposit address holds the draft; a person may then send it', async () => {
    const created = await message('outgoing', { ivms101: ivms(CLEAN_BTC), destination_address: MIXER });
    const m = created.json();
    assert.equal(m.status, 'draft');
    assert.deepEqual(m.screening.address_outcome, { level: 'high', action: 'hold' });
    assert.equal((await alertsOf(m.id)).length, 1);
    const sent = await t.call('POST', `/v1/travel-rule/messages/${m.id}/send`, { key: owner.sandboxKey, body: { note: 'reviewed' } });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.equal(sent.json().status, 'sent');
  });

  test('clean addresses are sent at once, with the screening recorded', async () => {
    const m = (await message('outgoing', { ivms101: ivms(CLEAN_BTC, CLEAN) })).json();
    assert.equal(m.status, 'sent');
    assert.deepEqual(m.screening.address_outcome, { level: 'low', action: 'proceed' });
    assert.equal((await alertsOf(m.id)).length, 0);
  });
});
