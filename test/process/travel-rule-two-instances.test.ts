import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { buildJobHandlers } from '../../src/jobs/index.js';
import { JobRunner } from '../../src/platform/jobs.js';

/**
 * Issue #15 item 10, the proof: two Verity instances on loopback, each with its own database, carry
 * transfers over TRP (HTTP on 127.0.0.1) — the originator VASP (A) sends the inquiry, the beneficiary VASP
 * (B) screens it and approves it, A confirms with a transaction hash; then a rejection after a screening
 * hit and a repair round. Both sides' states and audit trails must agree.
 */

interface Side {
  t: TestApp;
  tenant: Tenant;
  base: string;
  drain(): Promise<void>;
}

async function startSide(): Promise<Side> {
  const t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  t.config.publicBaseUrl = base; // TRP callbacks name this instance's own address
  const tenant = await t.tenant();
  const runner = new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources }) });
  return { t, tenant, base, drain: () => runner.drain() };
}

let A: Side;
let B: Side;
let counterpartyB: string;
before(async () => {
  A = await startSide();
  B = await startSide();
  const settings = await B.t.call('PATCH', '/v1/travel-rule/settings', {
    key: B.tenant.sandboxKey,
    body: { inbound_trp_enabled: true, vasp_name: 'Beta Custody' },
  });
  assert.equal(settings.statusCode, 200, settings.body);
  const inbound = settings.json().inbound_trp_url as string;
  assert.match(inbound, /^http:\/\/127\.0\.0\.1:\d+\/trp\/[\w-]+\/transfers$/);
  // Each side knows the other in its directory.
  const cpA = await A.t.call('POST', '/v1/travel-rule/counterparties', {
    key: A.tenant.sandboxKey,
    body: { name: 'Beta', legal_name: 'Beta Custody Ltd', country: 'DE', protocols: [{ protocol: 'trp', endpoint: inbound }] },
  });
  assert.equal(cpA.statusCode, 201, cpA.body);
  counterpartyB = cpA.json().id;
  const cpB = await B.t.call('POST', '/v1/travel-rule/counterparties', {
    key: B.tenant.sandboxKey,
    body: { name: 'Alpha', legal_name: 'Alpha Exchange GmbH', country: 'DE', protocols: [{ protocol: 'trp', endpoint: `${A.base}/` }] },
  });
  assert.equal(cpB.statusCode, 201, cpB.body);
});
after(async () => {
  await A?.t.close();
  await B?.t.close();
});

const natural = (given: string, family: string, extra: Record<string, unknown> = {}) => ({
  naturalPerson: {
    name: { nameIdentifier: [{ primaryIdentifier: family, secondaryIdentifier: given, nameIdentifierType: 'LEGL' }] },
    ...extra,
  },
});
const payload = (originator: Record<string, unknown>) => ({
  originator: { originatorPersons: [originator], accountNumber: ['1BoatSLRHtKNngkdXEeobR76b53LETtpyT'] },
  beneficiary: { beneficiaryPersons: [natural('Bea', 'Receiver')] },
  originatingVASP: {
    originatingVASP: {
      legalPerson: { name: { nameIdentifier: [{ legalPersonName: 'Alpha Exchange GmbH', legalPersonNameIdentifierType: 'LEGL' }] } },
    },
  },
});
const fullOriginator = (given: string, family: string) =>
  natural(given, family, { customerIdentification: 'cus-1', dateAndPlaceOfBirth: { dateOfBirth: '1980-02-03', placeOfBirth: 'Berlin' } });

async function send(ivms101: unknown) {
  const r = await A.t.call('POST', '/v1/travel-rule/messages', {
    key: A.tenant.sandboxKey,
    body: {
      counterparty_id: counterpartyB,
      asset: { slip0044: 0, symbol: 'BTC' },
      amount: '0.25',
      amount_fiat: { value: '15000', currency: 'EUR' },
      jurisdiction: 'DE',
      ivms101,
      reference: 'wd_1',
    },
  });
  assert.equal(r.statusCode, 201, r.body);
  return r.json();
}
const get = async (s: Side, id: string) => (await s.t.call('GET', `/v1/travel-rule/messages/${id}`, { key: s.tenant.sandboxKey })).json();
const incoming = async (requestIdentifier: string) => {
  const r = await B.t.call('GET', `/v1/travel-rule/messages?direction=incoming&request_identifier=${requestIdentifier}`, {
    key: B.tenant.sandboxKey,
  });
  assert.equal(r.json().data.length, 1, `B has the message ${requestIdentifier}`);
  return r.json().data[0];
};
const act = async (s: Side, id: string, action: string, body: unknown) => {
  const r = await s.t.call('POST', `/v1/travel-rule/messages/${id}/${action}`, { key: s.tenant.sandboxKey, body });
  assert.equal(r.statusCode, 200, `${action}: ${r.body}`);
  return r.json();
};
const moves = (m: { transitions: { from: string | null; to: string }[] }) => m.transitions.map((x) => `${x.from ?? '∅'}→${x.to}`);
async function audit(s: Side, id: string) {
  return (await s.t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1 ORDER BY id', [id])).map(
    (r) => r.action,
  );
}
async function events(s: Side, id: string) {
  return (
    await s.t.db.query<{ data: { status: string; by: string } }>(
      "SELECT data FROM events WHERE type = 'travel_rule.status_changed' AND resource_id = $1 ORDER BY id",
      [id],
    )
  ).map((r) => `${r.data.status}/${r.data.by}`);
}

describe('Travel Rule between two Verity instances over TRP', () => {
  test('inquiry → screening → approval → confirmation with a tx hash; both sides agree', async () => {
    const sent = await send(payload(fullOriginator('Anna', 'Sender')));
    assert.equal(sent.status, 'sent');
    assert.equal(sent.threshold_applied.jurisdiction, 'EU');
    assert.equal(sent.threshold_applied.reason, 'no_threshold');
    assert.equal(sent.delivery.state, 'pending');

    await A.drain(); // the inquiry goes out over HTTP to B's TRP receiver
    assert.equal((await get(A, sent.id)).delivery.state, 'delivered', JSON.stringify((await get(A, sent.id)).delivery));
    const received = await incoming(sent.request_identifier);
    assert.equal(received.status, 'received');
    assert.equal(received.originator_name, 'Anna Sender');
    assert.equal(received.amount, '0.25');
    assert.deepEqual(received.asset, { slip0044: 0 });
    assert.ok(received.counterparty_id, 'B recognised A from the callback host');

    await B.drain(); // B screens the originator's names and address
    const screened = await get(B, received.id);
    assert.equal(screened.status, 'received');
    assert.equal(screened.screening.status, 'no_match');
    assert.deepEqual(
      screened.screening.names.map((n: { role: string; name: string }) => `${n.role}:${n.name}`),
      ['originator:Anna Sender', 'originating_vasp:Alpha Exchange GmbH'],
    );
    assert.equal(screened.screening.addresses[0].valid, true);
    assert.ok(screened.screening.addresses[0].chains.includes('bitcoin'));

    const accepted = await act(B, received.id, 'accept', { destination_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
    assert.equal(accepted.status, 'accepted');
    await B.drain(); // the resolution goes back to A's callback
    const approvedAtA = await get(A, sent.id);
    assert.equal(approvedAtA.status, 'accepted');
    assert.equal(approvedAtA.destination_address, 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');

    // On a TRP message the counterparty's moves are not ours to make.
    const forged = await A.t.call('POST', `/v1/travel-rule/messages/${sent.id}/reject`, {
      key: A.tenant.sandboxKey,
      body: { code: 'high_risk', message: 'x' },
    });
    assert.equal(forged.statusCode, 409);

    const txHash = 'a1075db55d416d3ca199f55b6084e2115b9345e16c5cf302fc80e9d5fbf5d48d';
    const confirmed = await act(A, sent.id, 'confirm', { tx_hash: txHash });
    assert.equal(confirmed.status, 'completed');
    await A.drain(); // the confirmation goes to B's approval callback
    const completedAtB = await get(B, received.id);
    assert.equal(completedAtB.status, 'completed');
    assert.equal(completedAtB.tx_hash, txHash);

    // Both trails and audit trails tell the same story from each side.
    const finalA = await get(A, sent.id);
    assert.deepEqual(moves(finalA), ['∅→draft', 'draft→sent', 'sent→accepted', 'accepted→completed']);
    assert.deepEqual(moves(completedAtB), ['∅→received', 'received→accepted', 'accepted→completed']);
    assert.deepEqual(await audit(A, sent.id), [
      'travel_rule.message.create',
      'travel_rule.message.send',
      'travel_rule.message.accept',
      'travel_rule.message.confirm',
    ]);
    assert.deepEqual(await audit(B, received.id), [
      'travel_rule.message.receive',
      'travel_rule.message.accept',
      'travel_rule.message.confirm',
    ]);
    assert.deepEqual(await events(A, sent.id), ['draft/api', 'sent/api', 'accepted/counterparty', 'completed/api']);
    assert.deepEqual(await events(B, received.id), ['received/counterparty', 'accepted/api', 'completed/counterparty']);
    assert.equal(finalA.request_identifier, completedAtB.request_identifier);
    assert.equal(finalA.tx_hash, completedAtB.tx_hash);
  });

  test('a screening hit puts the message in review; the rejection reaches the originator with its code', async () => {
    const sent = await send(payload(fullOriginator('Sanctioned Person', 'Sandbox')));
    await A.drain();
    const received = await incoming(sent.request_identifier);
    await B.drain();
    const reviewed = await get(B, received.id);
    assert.equal(reviewed.status, 'in_review');
    assert.notEqual(reviewed.screening.status, 'no_match');
    assert.ok(reviewed.screening.names[0].hits.some((h: { entity_id: string }) => h.entity_id === 'sandbox:sanctioned-person'));
    assert.deepEqual(moves(reviewed).slice(-1), ['received→in_review']);
    // The hit is an alert in B's review queue, on a case of its own.
    const alerts = await B.t.db.query<{ kind: string; subject_id: string; case_id: string }>(
      "SELECT kind, subject_id, case_id FROM alerts WHERE subject_type = 'travel_rule_message'",
    );
    assert.deepEqual(
      alerts.map((a) => [a.kind, a.subject_id]),
      [['travel_rule', received.id]],
    );
    const cases = (await B.t.call('GET', '/v1/cases', { key: B.tenant.sandboxKey })).json().data;
    assert.ok(cases.some((c: { id: string }) => c.id === alerts[0]!.case_id));

    const rejected = await act(B, received.id, 'reject', { code: 'high_risk', message: 'originator screening hit' });
    assert.equal(rejected.status, 'rejected');
    await B.drain();
    const atA = await get(A, sent.id);
    assert.equal(atA.status, 'rejected');
    assert.deepEqual(atA.rejection, { code: 'high_risk', message: 'originator screening hit', retryable: false, kind: 'rejected' });
    // Terminal on both sides: nothing moves any more.
    const again = await A.t.call('POST', `/v1/travel-rule/messages/${sent.id}/confirm`, {
      key: A.tenant.sandboxKey,
      body: { tx_hash: 'deadbeefdeadbeef' },
    });
    assert.equal(again.statusCode, 409);
    assert.deepEqual(await events(B, received.id), ['received/counterparty', 'in_review/system', 'rejected/api']);
  });

  test('repair round: the beneficiary asks for a repair, the originator resends under the same request identifier', async () => {
    const sent = await send(payload(natural('Rita', 'Repair', { customerIdentification: 'cus-9' })));
    await A.drain();
    const received = await incoming(sent.request_identifier);
    await B.drain();
    const asked = await act(B, received.id, 'request-repair', { code: 'missing_fields', message: 'date of birth of the originator' });
    assert.equal(asked.status, 'repair_requested');
    await B.drain();
    const atA = await get(A, sent.id);
    assert.equal(atA.status, 'repair_requested');
    assert.deepEqual(atA.rejection, {
      code: 'missing_fields',
      message: 'date of birth of the originator',
      retryable: true,
      kind: 'repair_requested',
    });

    const resent = await act(A, sent.id, 'send', { ivms101: payload(fullOriginator('Rita', 'Repair')) });
    assert.equal(resent.status, 'sent');
    assert.equal(resent.rejection, null);
    await A.drain();
    const again = await get(B, received.id);
    assert.equal(again.status, 'received');
    assert.equal(again.ivms101.originator.originatorPersons[0].naturalPerson.dateAndPlaceOfBirth.dateOfBirth, '1980-02-03');
    await B.drain();
    await act(B, received.id, 'accept', { destination_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
    await B.drain();
    const done = await get(A, sent.id);
    assert.equal(done.status, 'accepted');
    assert.deepEqual(moves(done), ['∅→draft', 'draft→sent', 'sent→repair_requested', 'repair_requested→sent', 'sent→accepted']);
    assert.deepEqual(moves(await get(B, received.id)), [
      '∅→received',
      'received→repair_requested',
      'repair_requested→received',
      'received→accepted',
    ]);
  });
});
