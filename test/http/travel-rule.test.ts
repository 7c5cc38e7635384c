import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { makeTravelAddress } from '../../src/engines/travel-rule/index.js';
import { TRP_API_VERSION } from '../../src/providers/travel-rule/index.js';

let t: TestApp;
let owner: Tenant;
before(async () => {
  t = await createTestApp();
  owner = await t.tenant();
});
after(() => t.close());
const app = () => t;

const natural = (given: string, family: string, extra: Record<string, unknown> = {}) => ({
  naturalPerson: {
    name: { nameIdentifier: [{ primaryIdentifier: family, secondaryIdentifier: given, nameIdentifierType: 'LEGL' }] },
    ...extra,
  },
});
const IVMS = {
  originator: {
    originatorPersons: [natural('Anna', 'Sender', { customerIdentification: 'cus-1' })],
    accountNumber: ['1BoatSLRHtKNngkdXEeobR76b53LETtpyT'],
  },
  beneficiary: { beneficiaryPersons: [natural('Bea', 'Receiver')] },
};
/** An incoming message recorded by hand: no peer needed. */
const manual = (extra: Record<string, unknown> = {}) => ({
  direction: 'incoming',
  asset: { slip0044: 0, symbol: 'BTC' },
  amount: '0.5',
  amount_fiat: { value: '20000', currency: 'USD' },
  jurisdiction: 'US',
  ivms101: IVMS,
  ...extra,
});
const post = (url: string, body: unknown, key = owner.sandboxKey) => t.call('POST', url, { key, body });
const createManual = async (tt: TestApp, o: Tenant) =>
  (await tt.call('POST', '/v1/travel-rule/messages', { key: o.sandboxKey, body: manual() })).json().id as string;
const createCounterparty = async (tt: TestApp, o: Tenant) =>
  (
    await tt.call('POST', '/v1/travel-rule/counterparties', { key: o.sandboxKey, body: { name: 'Gamma', legal_name: 'Gamma VASP SA' } })
  ).json().id as string;

describe('Travel Rule routes: security', () => {
  routeSecurityTests('createTravelRuleMessage', app, {
    method: 'POST',
    url: () => '/v1/travel-rule/messages',
    scope: 'travel_rule:write',
    body: manual(),
    malformed: { body: manual({ amount: 'lots' }), field: 'amount' },
  });
  routeSecurityTests('listTravelRuleMessages', app, { method: 'GET', url: () => '/v1/travel-rule/messages', scope: 'travel_rule:read' });
  routeSecurityTests('getTravelRuleMessage', app, {
    method: 'GET',
    url: (id) => `/v1/travel-rule/messages/${id}`,
    scope: 'travel_rule:read',
    create: createManual,
  });
  routeSecurityTests('reviewTravelRuleMessage', app, {
    method: 'POST',
    url: (id) => `/v1/travel-rule/messages/${id}/review`,
    scope: 'travel_rule:write',
    body: {},
    create: createManual,
  });
  routeSecurityTests('rejectTravelRuleMessage', app, {
    method: 'POST',
    url: (id) => `/v1/travel-rule/messages/${id}/reject`,
    scope: 'travel_rule:write',
    body: { code: 'high_risk', message: 'no' },
    create: createManual,
    malformed: { body: { code: 'because', message: 'no' }, field: 'code' },
  });
  routeSecurityTests('acceptTravelRuleMessage', app, {
    method: 'POST',
    url: (id) => `/v1/travel-rule/messages/${id}/accept`,
    scope: 'travel_rule:write',
    body: { destination_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
    create: createManual,
    malformed: { body: {}, field: 'destination_address' },
  });
  routeSecurityTests('sendTravelRuleMessage', app, {
    method: 'POST',
    url: (id) => `/v1/travel-rule/messages/${id}/send`,
    scope: 'travel_rule:write',
    body: {},
    create: createManual,
    malformed: { body: { note: 7 }, field: 'note' },
  });
  routeSecurityTests('requestTravelRuleMessageRepair', app, {
    method: 'POST',
    url: (id) => `/v1/travel-rule/messages/${id}/request-repair`,
    scope: 'travel_rule:write',
    body: { code: 'missing_fields', message: 'the address' },
    create: createManual,
    malformed: { body: { code: 'because', message: 'x' }, field: 'code' },
  });
  routeSecurityTests('confirmTravelRuleMessage', app, {
    method: 'POST',
    url: (id) => `/v1/travel-rule/messages/${id}/confirm`,
    scope: 'travel_rule:write',
    body: { tx_hash: 'a'.repeat(64) },
    create: createManual,
    malformed: { body: { tx_hash: 'short' }, field: 'tx_hash' },
  });
  routeSecurityTests('cancelTravelRuleMessage', app, {
    method: 'POST',
    url: (id) => `/v1/travel-rule/messages/${id}/cancel`,
    scope: 'travel_rule:write',
    body: { reason: 'wrong amount' },
    create: createManual,
    malformed: { body: {}, field: 'reason' },
  });
  routeSecurityTests('getTravelRuleCounterparty', app, {
    method: 'GET',
    url: (id) => `/v1/travel-rule/counterparties/${id}`,
    scope: 'travel_rule:read',
    create: createCounterparty,
  });
  routeSecurityTests('listTravelRuleCounterparties', app, {
    method: 'GET',
    url: () => '/v1/travel-rule/counterparties',
    scope: 'travel_rule:read',
  });
  routeSecurityTests('createTravelRuleCounterparty', app, {
    method: 'POST',
    url: () => '/v1/travel-rule/counterparties',
    scope: 'travel_rule:write',
    body: { name: 'Gamma', legal_name: 'Gamma VASP SA' },
    malformed: { body: { name: 'Gamma' }, field: 'legal_name' },
  });
  routeSecurityTests('updateTravelRuleCounterparty', app, {
    method: 'PATCH',
    url: (id) => `/v1/travel-rule/counterparties/${id}`,
    scope: 'travel_rule:write',
    body: { due_diligence_status: 'approved' },
    create: createCounterparty,
    malformed: { body: { due_diligence_status: 'fine' }, field: 'due_diligence_status' },
  });
  routeSecurityTests('getTravelRuleSettings', app, { method: 'GET', url: () => '/v1/travel-rule/settings', scope: 'travel_rule:read' });
  routeSecurityTests('updateTravelRuleSettings', app, {
    method: 'PATCH',
    url: () => '/v1/travel-rule/settings',
    scope: 'travel_rule:write',
    body: { vasp_name: 'Us' },
    malformed: { body: { inbound_trp_enabled: 'yes please' }, field: 'inbound_trp_enabled' },
  });
});

describe('Travel Rule messages', () => {
  test('IVMS101 errors are a 400 naming the path and the constraint', async () => {
    const noName = { originator: { originatorPersons: [{ naturalPerson: { customerIdentification: 'x' } }] } };
    const r = await post('/v1/travel-rule/messages', { ...manual({ direction: 'outgoing' }), ivms101: noName });
    assert.equal(r.statusCode, 400);
    assert.match(r.json().error.field, /^ivms101\.originator\.originatorPersons\[0\]\.naturalPerson/);
    // A person that is natural and legal at once (TRISA's person_both_persons fixture) fails with its reason.
    const both = {
      originator: {
        originatorPersons: [
          {
            ...natural('A', 'B', { customerIdentification: 'x' }),
            legalPerson: {
              name: { nameIdentifier: [{ legalPersonName: 'C', legalPersonNameIdentifierType: 'LEGL' }] },
              customerNumber: '1',
            },
          },
        ],
      },
    };
    const r2 = await post('/v1/travel-rule/messages', manual({ ivms101: both }));
    assert.equal(r2.statusCode, 400);
    assert.match(r2.json().error.field, /^ivms101\.originator\.originatorPersons\[0\]/);
    // Originator-only constraint (C1): a beneficiary with a bare name is fine, an originator is not.
    const bare = { originator: { originatorPersons: [natural('A', 'B')] }, beneficiary: { beneficiaryPersons: [natural('C', 'D')] } };
    const r3 = await post('/v1/travel-rule/messages', { ...manual({ direction: 'outgoing', protocol: 'manual' }), ivms101: bare });
    assert.equal(r3.statusCode, 400);
    assert.match(r3.json().error.message, /C1/);
    const count = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM travel_rule_messages WHERE account_id = $1', [
      owner.accountId,
    ]);
    assert.equal(count[0]!.n, 0, 'nothing half-written');
  });

  test('threshold: FATF 1,000 USD saves 999.99 USD; EU member states have none', async () => {
    const base = { protocol: 'manual', asset: { slip0044: 60 }, amount: '0.1', ivms101: IVMS };
    const below = (await post('/v1/travel-rule/messages', { ...base, amount_fiat: { value: '999.99', currency: 'USD' } })).json();
    assert.equal(below.status, 'saved');
    assert.deepEqual(below.threshold_applied.threshold, { value: '1000', currency: 'USD' });
    assert.equal(below.threshold_applied.jurisdiction, 'FATF');
    assert.equal(below.delivery, null);
    const eu = (
      await post('/v1/travel-rule/messages', { ...base, jurisdiction: 'FR', amount_fiat: { value: '1', currency: 'EUR' } })
    ).json();
    assert.equal(eu.status, 'sent');
    assert.equal(eu.threshold_applied.jurisdiction, 'EU');
    assert.equal(eu.delivery, null, 'manual: nothing goes out over TRP');
    // A currency the jurisdiction's threshold is not stated in is not guessed at: required (fail safe).
    const sg = (
      await post('/v1/travel-rule/messages', { ...base, jurisdiction: 'SG', amount_fiat: { value: '10', currency: 'USD' } })
    ).json();
    assert.equal(sg.status, 'sent');
    assert.equal(sg.threshold_applied.reason, 'currency_not_converted');
  });

  test('lifecycle of a manual incoming message: moves, 409 on an illegal one, audit and event per move', async () => {
    const m = (await post('/v1/travel-rule/messages', manual({ reference: 'dep_7' }))).json();
    assert.equal(m.status, 'received');
    assert.equal(m.threshold_applied.reason, 'at_or_above_threshold');
    assert.deepEqual(m.allowed_actions.sort(), ['accept', 'cancel', 'reject', 'request_repair', 'review', 'save'].sort());
    const confirmEarly = await post(`/v1/travel-rule/messages/${m.id}/confirm`, { tx_hash: 'ab'.repeat(32) });
    assert.equal(confirmEarly.statusCode, 409);
    assert.equal(confirmEarly.json().error.code, 'conflict');
    assert.equal((await post(`/v1/travel-rule/messages/${m.id}/review`, { note: 'looking' })).json().status, 'in_review');
    const acc = await post(`/v1/travel-rule/messages/${m.id}/accept`, {
      destination_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    });
    assert.equal(acc.json().status, 'accepted');
    const done = await post(`/v1/travel-rule/messages/${m.id}/confirm`, { tx_hash: 'ab'.repeat(32) });
    assert.equal(done.json().status, 'completed');
    assert.equal((await post(`/v1/travel-rule/messages/${m.id}/cancel`, { reason: 'late' })).statusCode, 409);

    const audit = await t.db.query<{ action: string; actor_type: string }>(
      'SELECT action, actor_type FROM audit_events WHERE resource_id = $1 ORDER BY id',
      [m.id],
    );
    assert.deepEqual(
      audit.map((a) => a.action),
      ['travel_rule.message.receive', 'travel_rule.message.review', 'travel_rule.message.accept', 'travel_rule.message.confirm'],
    );
    assert.ok(audit.every((a) => a.actor_type === 'api_key'));
    const events = await t.db.query<{ data: Record<string, unknown> }>(
      "SELECT data FROM events WHERE type = 'travel_rule.status_changed' AND resource_id = $1 ORDER BY id",
      [m.id],
    );
    assert.deepEqual(
      events.map((e) => [e.data.previous_status, e.data.status]),
      [
        [null, 'received'],
        ['received', 'in_review'],
        ['in_review', 'accepted'],
        ['accepted', 'completed'],
      ],
    );
    assert.equal(events[0]!.data.reference, 'dep_7');
    const got = (await t.call('GET', `/v1/travel-rule/messages/${m.id}`, { key: owner.sandboxKey })).json();
    assert.equal(got.transitions.length, 4);
    assert.equal(got.tx_hash, 'ab'.repeat(32));
  });

  test('list with cursor pagination and filters', async () => {
    const o = await t.tenant();
    for (let i = 0; i < 3; i++) await post('/v1/travel-rule/messages', manual(), o.sandboxKey);
    const p1 = (await t.call('GET', '/v1/travel-rule/messages?limit=2&direction=incoming', { key: o.sandboxKey })).json();
    assert.equal(p1.data.length, 2);
    assert.ok(p1.next_cursor);
    const p2 = (
      await t.call('GET', `/v1/travel-rule/messages?limit=2&direction=incoming&cursor=${p1.next_cursor}`, { key: o.sandboxKey })
    ).json();
    assert.equal(p2.data.length, 1);
    assert.equal(p2.next_cursor, null);
    const none = (await t.call('GET', '/v1/travel-rule/messages?status=completed', { key: o.sandboxKey })).json();
    assert.equal(none.data.length, 0);
  });

  test('an outgoing TRP message needs somewhere to go; a blocked counterparty gets nothing', async () => {
    const r = await post('/v1/travel-rule/messages', { asset: { slip0044: 0 }, amount: '1', jurisdiction: 'EU', ivms101: IVMS });
    assert.equal(r.statusCode, 400);
    assert.equal(r.json().error.field, 'travel_address');
    const bad = await post('/v1/travel-rule/messages', {
      asset: { slip0044: 0 },
      amount: '1',
      jurisdiction: 'EU',
      ivms101: IVMS,
      travel_address: 'taNOPE',
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.field, 'travel_address');
    const cp = await post('/v1/travel-rule/counterparties', {
      name: 'Shady',
      legal_name: 'Shady VASP',
      protocols: [{ protocol: 'trp', endpoint: 'https://shady.example.com/trp' }],
      due_diligence_status: 'blocked',
    });
    assert.equal(cp.statusCode, 201, cp.body);
    const blocked = await post('/v1/travel-rule/messages', {
      asset: { slip0044: 0 },
      amount: '1',
      jurisdiction: 'EU',
      ivms101: IVMS,
      counterparty_id: cp.json().id,
    });
    assert.equal(blocked.statusCode, 409);
    assert.equal(blocked.json().error.field, 'counterparty_id');
  });
});

describe('Travel Rule counterparties', () => {
  test('create, screen the legal name, search by name, LEI, domain, travel address and protocol', async () => {
    const o = await t.tenant();
    const ta = makeTravelAddress('https://delta.example.com/trp/transfers');
    const body = {
      name: 'Delta',
      legal_name: 'Delta Digital Assets AG',
      lei: '506700T7Z685VUOZL877',
      country: 'CH',
      domains: ['Delta.example.com'],
      travel_addresses: [ta],
      protocols: [{ protocol: 'trp', endpoint: 'https://delta.example.com/trp', travel_address: ta }],
    };
    const c = await post('/v1/travel-rule/counterparties', body, o.sandboxKey);
    assert.equal(c.statusCode, 201, c.body);
    const cp = c.json();
    assert.deepEqual(cp.domains, ['delta.example.com']);
    assert.equal(cp.due_diligence.status, 'unknown');
    assert.equal(cp.due_diligence.screening.status, 'no_match');
    assert.ok(cp.due_diligence.screening.lists.length > 0, 'names the list versions screened');
    const dup = await post('/v1/travel-rule/counterparties', body, o.sandboxKey);
    assert.equal(dup.statusCode, 409);
    const sanctioned = await post(
      '/v1/travel-rule/counterparties',
      { name: 'Trading', legal_name: 'Sandbox Sanctioned Trading LLC' },
      o.sandboxKey,
    );
    assert.notEqual(sanctioned.json().due_diligence.screening.status, 'no_match');
    await post(
      '/v1/travel-rule/counterparties',
      { name: 'Email only', legal_name: 'Epsilon Ltd', protocols: [{ protocol: 'email', email: 'tr@epsilon.example' }] },
      o.sandboxKey,
    );

    const find = async (q: string) =>
      (await t.call('GET', `/v1/travel-rule/counterparties?${q}`, { key: o.sandboxKey })).json().data.map((x: { name: string }) => x.name);
    assert.deepEqual(await find('query=DIGITAL'), ['Delta']);
    assert.deepEqual(await find('lei=506700T7Z685VUOZL877'), ['Delta']);
    assert.deepEqual(await find('domain=delta.example.com'), ['Delta']);
    assert.deepEqual(await find(`travel_address=${ta}`), ['Delta']);
    assert.deepEqual(await find('protocol=email'), ['Email only']);
    assert.deepEqual(await find('protocol=trp'), ['Delta']);
    assert.deepEqual(await find('query=%25'), [], 'LIKE wildcards are literal');

    const badLei = await post('/v1/travel-rule/counterparties', { name: 'X', legal_name: 'X', lei: '506700T7Z685VUOZL878' }, o.sandboxKey);
    assert.equal(badLei.statusCode, 400);
    assert.equal(badLei.json().error.field, 'lei');
    const badTa = await post('/v1/travel-rule/counterparties', { name: 'X', legal_name: 'X', travel_addresses: ['taXYZ'] }, o.sandboxKey);
    assert.equal(badTa.json().error.field, 'travel_addresses[0]');

    const patched = await t.call('PATCH', `/v1/travel-rule/counterparties/${cp.id}`, {
      key: o.sandboxKey,
      body: { due_diligence_status: 'approved', due_diligence_notes: 'questionnaire received' },
    });
    assert.equal(patched.statusCode, 200);
    assert.equal(patched.json().due_diligence.status, 'approved');
    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1 ORDER BY id', [cp.id]);
    assert.deepEqual(
      audit.map((a) => a.action),
      ['travel_rule.counterparty.created', 'travel_rule.counterparty.updated'],
    );
  });
});

describe('TRP receiver', () => {
  test('disabled by default: the inbound URL answers 404 until the environment enables it', async () => {
    const o = await t.tenant();
    const s0 = (await t.call('GET', '/v1/travel-rule/settings', { key: o.sandboxKey })).json();
    assert.equal(s0.inbound_trp_enabled, false);
    assert.equal(s0.inbound_trp_url, null);
    const on = (await t.call('PATCH', '/v1/travel-rule/settings', { key: o.sandboxKey, body: { inbound_trp_enabled: true } })).json();
    const path = new URL(on.inbound_trp_url).pathname;
    const headers = { 'api-version': TRP_API_VERSION, 'request-identifier': 'r-1', 'content-type': 'application/json' };
    const inquiry = JSON.stringify({
      asset: { slip0044: 0 },
      amount: 0.000021,
      callback: 'https://originator.example.com/cb',
      IVMS101: IVMS,
    });
    const ok = await t.app.inject({ method: 'POST', url: path, headers, payload: inquiry });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.headers['request-identifier'], 'r-1');
    const m = (await t.call('GET', '/v1/travel-rule/messages?request_identifier=r-1', { key: o.sandboxKey })).json().data[0];
    assert.equal(m.amount, '0.000021', 'the amount as written, no float on the way');
    assert.ok(m.warnings.includes('counterparty_vasp_unknown'));
    // Redelivery of the same inquiry changes nothing.
    assert.equal((await t.app.inject({ method: 'POST', url: path, headers, payload: inquiry })).statusCode, 200);
    assert.equal((await t.call('GET', '/v1/travel-rule/messages?request_identifier=r-1', { key: o.sandboxKey })).json().data.length, 1);
    // Protocol errors: no api-version, a bad body.
    const noVersion = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', 'request-identifier': 'r-2' },
      payload: inquiry,
    });
    assert.equal(noVersion.statusCode, 400);
    const badIvms = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { ...headers, 'request-identifier': 'r-3' },
      payload: JSON.stringify({
        asset: { slip0044: 0 },
        amount: 1,
        callback: 'https://o.example.com/cb',
        IVMS101: { originator: { originatorPersons: [{ naturalPerson: { customerIdentification: 'x' } }] } },
      }),
    });
    assert.equal(badIvms.statusCode, 422);

    const off = (await t.call('PATCH', '/v1/travel-rule/settings', { key: o.sandboxKey, body: { inbound_trp_enabled: false } })).json();
    assert.equal(off.inbound_trp_url, null);
    assert.equal(
      (await t.app.inject({ method: 'POST', url: path, headers: { ...headers, 'request-identifier': 'r-4' }, payload: inquiry }))
        .statusCode,
      404,
    );
    assert.equal((await t.app.inject({ method: 'POST', url: '/trp/guess/transfers', headers, payload: inquiry })).statusCode, 404);
    assert.equal(
      (
        await t.app.inject({
          method: 'POST',
          url: '/trp/callbacks/guess/resolve',
          headers,
          payload: '{"approved":{"address":"x","callback":"https://x.example.com"}}',
        })
      ).statusCode,
      404,
    );
  });
});
