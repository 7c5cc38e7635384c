import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { withTransaction } from '../../src/platform/transaction.js';
import { raiseAlert, type RaiseAlertInput } from '../../src/modules/cases/index.js';
import { routeSecurityTests } from '../helpers/route-security.js';

// GET /v1/cases/backlog: the dashboard's counts in one read, agreeing with the kind filter of GET /v1/cases.
let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());
const app = () => t;

routeSecurityTests('getCaseBacklog', app, { method: 'GET', url: () => '/v1/cases/backlog', scope: 'cases:read' });

const raise = (o: Tenant, input: Partial<RaiseAlertInput>) =>
  withTransaction(o.ctx(), (tx) =>
    raiseAlert(tx, o.ctx(), {
      kind: 'transaction_rule',
      severity: 'medium',
      subjectType: 'customer',
      subjectId: 'cus_1',
      subjectReference: 'cus_1',
      title: 'Alert',
      details: {},
      dedupeKey: 'k',
      ...input,
    }),
  );

test('the backlog counts open cases per case kind and per alert kind, past the SLA and oldest, like the list filter', async () => {
  const o = await t.tenant();
  const other = await t.tenant();
  // Two subjects: cus_1's case holds a transaction_rule and a wallet_risk alert, cus_2's a transaction_rule alert.
  await raise(o, { subjectId: 'cus_1', subjectReference: 'cus_1', dedupeKey: 'a' });
  await raise(o, { subjectId: 'cus_1', subjectReference: 'cus_1', kind: 'wallet_risk', dedupeKey: 'b' });
  await raise(o, { subjectId: 'cus_2', subjectReference: 'cus_2', dedupeKey: 'c' });
  await raise(other, { subjectId: 'cus_9', subjectReference: 'cus_9', dedupeKey: 'z' });

  const res = await t.call('GET', '/v1/cases/backlog?sla_hours=1', { key: o.sandboxKey });
  assert.equal(res.statusCode, 200, res.body);
  const b = res.json();
  const of = (k: string) => b.kinds.find((x: { kind: string }) => x.kind === k);
  assert.equal(b.object, 'case_backlog');
  assert.equal(b.open, 2); // two cases, each once
  assert.equal(b.past_sla, 0); // just opened
  assert.equal(of('alert_review').open, 2);
  assert.equal(of('transaction_rule').open, 2);
  assert.equal(of('wallet_risk').open, 1);
  assert.equal(of('verification_review').open, 0);
  assert.equal(of('verification_review').oldest_created_at, null);
  assert.ok(Date.parse(of('transaction_rule').oldest_created_at) <= Date.now());
  // Every kind agrees with the list's kind filter.
  for (const k of b.kinds) {
    const list = (await t.call('GET', `/v1/cases?state=open&kind=${k.kind}&limit=100`, { key: o.sandboxKey })).json();
    assert.equal(list.data.length, k.open, k.kind);
  }

  // Past the SLA: age the cases (a cut-off an hour back), then close one.
  await t.db.query("UPDATE cases SET created_at = now() - interval '2 hours' WHERE account_id = $1", [o.accountId]);
  const aged = (await t.call('GET', '/v1/cases/backlog?sla_hours=1', { key: o.sandboxKey })).json();
  assert.equal(aged.past_sla, 2);
  assert.equal(aged.kinds.find((x: { kind: string }) => x.kind === 'wallet_risk').past_sla, 1);
  assert.equal((await t.call('GET', '/v1/cases/backlog?sla_hours=3', { key: o.sandboxKey })).json().past_sla, 0);
});

test('the backlog refuses a bad SLA in the error envelope and needs cases:read', async () => {
  const o = await t.tenant();
  const bad = await t.call('GET', '/v1/cases/backlog?sla_hours=0', { key: o.sandboxKey });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().error.field, 'sla_hours');
  const noScope = await t.call('GET', '/v1/cases/backlog', { key: await o.keyWith(['lists:read']) });
  assert.equal(noScope.statusCode, 403);
  assert.equal(noScope.json().error.code, 'insufficient_scope');
});
