import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';

// POST /v1/checks/screening against the built-in sandbox list (installed on first start).

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());
const app = () => t;

const screen = (key: string, body: unknown, headers?: Record<string, string>) =>
  t.call('POST', '/v1/checks/screening', { key, body, headers });
const ok = async (key: string, body: unknown) => {
  const res = await screen(key, body);
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
};

describe('POST /v1/checks/screening', () => {
  routeSecurityTests('createScreeningCheck', app, {
    method: 'POST',
    url: () => '/v1/checks/screening',
    scope: 'checks:write',
    body: { name: 'John Smith' },
    malformed: { body: { name: 'x', threshold: 2 }, field: 'threshold' },
  });

  test('a listed name with its date of birth is a match, with the hit explained', async () => {
    const o = await t.tenant();
    const c = await ok(o.sandboxKey, { name: 'Sandbox Sanctioned Person', date_of_birth: '1970-01-01', subject_reference: 'cus_1' });
    assert.equal(c.type, 'sanctions_pep');
    assert.equal(c.status, 'match');
    assert.equal(c.result.decision, 'match');
    const hit = c.result.hits[0];
    assert.equal(hit.entity_id, 'sandbox:sanctioned-person');
    assert.deepEqual(hit.datasets, ['sanctions']);
    assert.deepEqual(hit.programs, ['SANDBOX']);
    assert.equal(hit.score, 1);
    assert.equal(c.score, 1);
    assert.ok(
      hit.explanation.matched.some((m: string) => /date of birth 1970-01-01/.test(m)),
      hit.explanation.matched.join('|'),
    );
    assert.equal(hit.explanation.components.birthDate, 'exact');
    assert.match(c.result.list_versions.sandbox, /^[0-9a-f]{32}$/);
    assert.ok(c.signals.some((s: { name: string }) => s.name === 'screening_decision'));
    assert.ok(c.reasons.includes('screening_match'));
    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1', [c.id]);
    assert.deepEqual(
      audit.map((a) => a.action),
      ['check.created'],
    );
  });

  test('the name alone is a potential match; an unlisted name is no_match', async () => {
    const o = await t.tenant();
    assert.equal((await ok(o.sandboxKey, { name: 'Sandbox Sanctioned Person' })).status, 'potential_match');
    const none = await ok(o.sandboxKey, { name: 'John Smith' });
    assert.equal(none.status, 'no_match');
    assert.deepEqual(none.result.hits, []);
    assert.equal(none.score, 0);
  });

  test('typos, word order and another script still hit', async () => {
    const o = await t.tenant();
    for (const name of ['Sandbox Sanctiond Persson', 'Person Sandbox Sanctioned', 'Сандбокс Санкционный', 'Sandboks Sanktsionnyy']) {
      const c = await ok(o.sandboxKey, { name });
      assert.equal(c.status, 'potential_match', name);
      assert.equal(c.result.hits[0].entity_id, 'sandbox:sanctioned-person', name);
      assert.ok(c.result.hits[0].score >= 0.8, name);
    }
  });

  test('a contradicting date of birth lowers the score and is explained', async () => {
    const o = await t.tenant();
    const c = await ok(o.sandboxKey, { name: 'Sandbox Sanctioned Person', date_of_birth: '1999-05-05' });
    const hit = c.result.hits[0];
    if (hit) {
      assert.ok(hit.score < 1);
      assert.ok(hit.explanation.contradicted.length > 0);
    } else assert.equal(c.status, 'no_match');
  });

  test('a name holding a word the engine trips over ("constructor") is screened, not a 500', async () => {
    const o = await t.tenant();
    for (const name of ['Constructor', 'Acme Constructor LLC']) {
      const res = await screen(o.sandboxKey, { name, entity_type: 'organization' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'no_match');
    }
  });

  test('an identifier on a list entry is a match on its own', async () => {
    const o = await t.tenant();
    const c = await ok(o.sandboxKey, { name: 'Jane Doe', identifiers: [{ type: 'passport', value: 'SBX0000001' }] });
    assert.equal(c.status, 'match');
    assert.equal(c.result.hits[0].explanation.components.identifier, 'match');
  });

  test('data sets and sources select what is screened', async () => {
    const o = await t.tenant();
    assert.equal((await ok(o.sandboxKey, { name: 'Sandbox Politically Exposed' })).result.hits[0].datasets[0], 'pep');
    assert.equal((await ok(o.sandboxKey, { name: 'Sandbox Politically Exposed', datasets: ['sanctions'] })).status, 'no_match');
    assert.equal(
      (await ok(o.sandboxKey, { name: 'Sandbox Politically Exposed', datasets: ['pep', 'adverse_media'] })).status,
      'potential_match',
    );
    assert.equal((await ok(o.sandboxKey, { name: 'Sandbox Adverse Media', datasets: ['adverse_media'] })).status, 'potential_match');
    const missing = await screen(o.sandboxKey, { name: 'Sandbox Politically Exposed', sources: ['eu_fsf'] });
    assert.equal(missing.statusCode, 422);
    assert.equal(missing.json().error.code, 'check_unavailable');
    assert.equal(missing.json().error.field, 'sources');
    const bad = await screen(o.sandboxKey, { name: 'x', datasets: ['weather'] });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().error.field, /^datasets/);
  });

  test('an allowlist entry suppresses the hit for that subject only', async () => {
    const o = await t.tenant();
    const entry = await t.call('POST', '/v1/lists/allowlist/entries', {
      key: o.sandboxKey,
      body: {
        kind: 'screening_entity',
        value: 'sandbox:sanctioned-person',
        subject_reference: 'cus_cleared',
        reason: 'different person: born 1988, reviewed by J. Doe',
      },
    });
    assert.equal(entry.statusCode, 201);
    const cleared = await ok(o.sandboxKey, { name: 'Sandbox Sanctioned Person', subject_reference: 'cus_cleared' });
    assert.equal(cleared.status, 'no_match');
    assert.deepEqual(cleared.result.suppressed, ['sandbox:sanctioned-person']);
    assert.ok(cleared.reasons.includes('allowlist_suppressed_hit'));
    assert.ok(cleared.signals.some((s: { name: string }) => s.name === 'screening_allow_listed'));
    const other = await ok(o.sandboxKey, { name: 'Sandbox Sanctioned Person', subject_reference: 'cus_other' });
    assert.equal(other.status, 'potential_match');
    const anonymous = await ok(o.sandboxKey, { name: 'Sandbox Sanctioned Person' });
    assert.equal(anonymous.status, 'potential_match');
    // Another tenant's allowlist never applies.
    const stranger = await t.tenant();
    assert.equal(
      (await ok(stranger.sandboxKey, { name: 'Sandbox Sanctioned Person', subject_reference: 'cus_cleared' })).status,
      'potential_match',
    );
    // Deleting the entry makes the hit come back.
    await t.call('DELETE', `/v1/lists/allowlist/entries/${entry.json().id}`, { key: o.sandboxKey });
    assert.equal(
      (await ok(o.sandboxKey, { name: 'Sandbox Sanctioned Person', subject_reference: 'cus_cleared' })).status,
      'potential_match',
    );
  });

  test('block entries force a match: by entity for a subject, by name, by document number', async () => {
    const o = await t.tenant();
    const add = (body: unknown) => t.call('POST', '/v1/lists/blocklist/entries', { key: o.sandboxKey, body });
    assert.equal(
      (await add({ kind: 'screening_entity', value: 'sandbox:pep', subject_reference: 'cus_blk', reason: 'confirmed by compliance' }))
        .statusCode,
      201,
    );
    const byEntity = await ok(o.sandboxKey, { name: 'Totally Different Name', subject_reference: 'cus_blk' });
    assert.equal(byEntity.status, 'match');
    assert.equal(byEntity.result.hits[0].entity_id, 'sandbox:pep');
    assert.equal(byEntity.result.hits[0].blocked, true);
    assert.ok(byEntity.reasons.includes('blocklist_entry'));
    assert.equal((await ok(o.sandboxKey, { name: 'Totally Different Name', subject_reference: 'cus_else' })).status, 'no_match');

    await add({ kind: 'name', value: '  JOHN   Fraudster ', reason: 'internal fraud list' });
    const byName = await ok(o.sandboxKey, { name: 'john fraudster' });
    assert.equal(byName.status, 'match');
    assert.match(byName.result.hits[0].entity_id, /^blocklist:lse_/);
    assert.match(byName.result.hits[0].explanation.matched[0], /internal fraud list/);

    await add({ kind: 'document_number', value: 'AB-123 456', reason: 'stolen passport' });
    const byDoc = await ok(o.sandboxKey, { name: 'Someone Else', identifiers: [{ type: 'passport', value: 'ab123456' }] });
    assert.equal(byDoc.status, 'match');
  });

  test('an idempotent replay returns the same check and bills once', async () => {
    const o = await t.tenant();
    const headers = { 'idempotency-key': 'scr-1' };
    const body = { name: 'Sandbox Sanctioned Person', subject_reference: 'cus_idem' };
    const a = await screen(o.sandboxKey, body, headers);
    const b = await screen(o.sandboxKey, body, headers);
    assert.equal(a.statusCode, 200);
    assert.equal(b.statusCode, 200);
    assert.equal(b.headers['idempotent-replayed'], 'true');
    assert.equal(a.json().id, b.json().id);
    const usage = (await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json();
    assert.deepEqual(usage.modules, [{ module: 'checks', count: 1, operations: [{ operation: 'sanctions_pep', count: 1 }] }]);
    const got = (await t.call('GET', `/v1/checks/${a.json().id}`, { key: o.sandboxKey })).json();
    assert.equal(got.status, 'potential_match');
    assert.equal(got.result.hits[0].entity_id, 'sandbox:sanctioned-person');
    const ev = (await t.call('GET', `/v1/events?resource_id=${a.json().id}`, { key: o.sandboxKey })).json();
    assert.equal(ev.data.length, 1);
    assert.equal(ev.data[0].type, 'check.completed');
  });

  test('production screens only imported lists: without one it is 422 check_unavailable', async () => {
    const o: Tenant = await t.tenant();
    const res = await screen(o.productionKey, { name: 'Sandbox Sanctioned Person' });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().error.code, 'check_unavailable');
    assert.match(res.json().error.message, /lists import/);
    const usage = (await t.call('GET', '/v1/usage', { key: o.productionKey })).json();
    assert.deepEqual(usage.modules, []);
  });
});
