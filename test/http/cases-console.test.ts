import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { withTransaction } from '../../src/platform/transaction.js';
import { raiseAlert } from '../../src/modules/cases/index.js';

/** Comments, snooze and outcome on cases (issue #16 item 4: what the console's case screen does, through /v1). */
let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

let n = 0;
const raise = async (o: Tenant) =>
  (
    await withTransaction(o.ctx(), (tx) =>
      raiseAlert(tx, o.ctx(), {
        kind: 'transaction_rule',
        severity: 'high',
        subjectType: 'customer',
        subjectId: `cus_${++n}`,
        subjectReference: `cus_${n}`,
        title: 'Fan-in',
        details: { rule: 'fan_in' },
        dedupeKey: 'rule_fan_in',
      }),
    )
  ).caseId;
const call = (o: Tenant, method: string, url: string, body?: unknown) => t.call(method, url, { key: o.sandboxKey, body });

describe('case comments', () => {
  routeSecurityTests('listCaseComments', () => t, {
    method: 'GET',
    url: (id) => `/v1/cases/${id}/comments`,
    scope: 'cases:read',
    create: async (_t, o) => raise(o),
  });
  routeSecurityTests('createCaseComment', () => t, {
    method: 'POST',
    url: (id) => `/v1/cases/${id}/comments`,
    scope: 'cases:write',
    create: async (_t, o) => raise(o),
    body: { body: 'Looked at the counterparty.' },
    malformed: { body: { body: '   ' }, field: 'body' },
  });

  test('comments are listed oldest first with their author; the audit row names the comment, not its text', async () => {
    const o = await t.tenant();
    const id = await raise(o);
    const a = await call(o, 'POST', `/v1/cases/${id}/comments`, { body: 'Called the customer: salary.' });
    assert.equal(a.statusCode, 201, a.body);
    const b = await call(o, 'POST', `/v1/cases/${id}/comments`, { body: 'Payslip received.' });
    const list = (await call(o, 'GET', `/v1/cases/${id}/comments?limit=1`)).json();
    assert.deepEqual(
      list.data.map((c: { id: string }) => c.id),
      [a.json().id],
    );
    const rest = (await call(o, 'GET', `/v1/cases/${id}/comments?cursor=${encodeURIComponent(list.next_cursor)}`)).json();
    assert.deepEqual(
      rest.data.map((c: { body: string }) => c.body),
      ['Payslip received.'],
    );
    assert.equal(a.json().author.type, 'api_key');
    const audit = await t.db.query<{ metadata: Record<string, unknown>; diff: unknown }>(
      "SELECT metadata, diff FROM audit_events WHERE action = 'case.commented' AND resource_id = $1 ORDER BY id",
      [id],
    );
    assert.deepEqual(
      audit.map((r) => r.metadata.comment_id),
      [a.json().id, b.json().id],
    );
    assert.doesNotMatch(JSON.stringify(audit), /salary|Payslip/);
    // Another tenant sees neither the case nor its comments.
    const other = await t.tenant();
    assert.equal((await call(other, 'GET', `/v1/cases/${id}/comments`)).statusCode, 404);
    assert.equal((await call(other, 'POST', `/v1/cases/${id}/comments`, { body: 'x' })).statusCode, 404);
  });
});

describe('snooze and outcome (PATCH /v1/cases/{id})', () => {
  test('a snoozed case leaves the queue and claim next until it is woken; the change is audited', async () => {
    const o = await t.tenant();
    const id = await raise(o);
    const until = new Date(Date.now() + 3600_000).toISOString();
    const s = await call(o, 'PATCH', `/v1/cases/${id}`, { snoozed_until: until });
    assert.equal(s.statusCode, 200, s.body);
    assert.equal(s.json().snoozed_until, until);
    assert.equal(s.json().state, 'open');
    assert.deepEqual((await call(o, 'GET', '/v1/cases?state=open&snoozed=false')).json().data, []);
    assert.equal((await call(o, 'GET', '/v1/cases?snoozed=true')).json().data[0].id, id);
    assert.equal((await call(o, 'POST', '/v1/cases/claim', {})).json().case, null);
    const [audit] = await t.db.query<{ diff: Record<string, { after: unknown }> }>(
      "SELECT diff FROM audit_events WHERE action = 'case.updated' AND resource_id = $1",
      [id],
    );
    assert.equal(audit!.diff.snoozed_until!.after, until);
    const woken = await call(o, 'PATCH', `/v1/cases/${id}`, { snoozed_until: null });
    assert.equal(woken.json().snoozed_until, null);
    assert.equal((await call(o, 'POST', '/v1/cases/claim', {})).json().case.id, id);
  });

  test('a snooze in the past, beyond 90 days or on a closing case is 400 naming snoozed_until', async () => {
    const o = await t.tenant();
    const mine = await raise(o);
    for (const snoozed_until of [new Date(Date.now() - 1000).toISOString(), new Date(Date.now() + 91 * 86400_000).toISOString()]) {
      const r = await call(o, 'PATCH', `/v1/cases/${mine}`, { snoozed_until });
      assert.equal(r.statusCode, 400);
      assert.equal(r.json().error.field, 'snoozed_until');
    }
    const closing = await call(o, 'PATCH', `/v1/cases/${mine}`, {
      state: 'closed',
      resolution: 'ok',
      snoozed_until: new Date(Date.now() + 3600_000).toISOString(),
    });
    assert.equal(closing.json().error.field, 'snoozed_until');
  });

  test('the outcome is set when closing (and only then); closing clears a snooze', async () => {
    const o = await t.tenant();
    const id = await raise(o);
    const early = await call(o, 'PATCH', `/v1/cases/${id}`, { outcome: 'false_positive' });
    assert.equal(early.statusCode, 400);
    assert.equal(early.json().error.field, 'outcome');
    const bad = await call(o, 'PATCH', `/v1/cases/${id}`, { state: 'closed', resolution: 'x', outcome: 'maybe' });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().error.field, /^outcome/);
    await call(o, 'PATCH', `/v1/cases/${id}`, { snoozed_until: new Date(Date.now() + 3600_000).toISOString() });
    const closed = await call(o, 'PATCH', `/v1/cases/${id}`, {
      state: 'closed',
      resolution: 'Salary, payslip seen',
      outcome: 'false_positive',
    });
    assert.equal(closed.statusCode, 200, closed.body);
    assert.equal(closed.json().outcome, 'false_positive');
    assert.equal(closed.json().snoozed_until, null);
    const [audit] = await t.db.query<{ diff: Record<string, { after: unknown }> }>(
      "SELECT diff FROM audit_events WHERE action = 'case.updated' AND resource_id = $1 AND diff ? 'outcome'",
      [id],
    );
    assert.equal(audit!.diff.outcome!.after, 'false_positive');
    // A comment can still be added to a closed case.
    assert.equal((await call(o, 'POST', `/v1/cases/${id}/comments`, { body: 'Filed.' })).statusCode, 201);
  });
});
