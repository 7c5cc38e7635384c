import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());
const app = () => t;

const call = (key: string, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => t.call(method, url, { key, body });
const rule = (over: Record<string, unknown> = {}) => ({
  key: 'large_amount',
  name: 'Large amount',
  expression: 'tx.amount > 1000.0',
  score: 40,
  severity: 'high',
  status: 'active',
  ...over,
});

/** A rule created by the tenant's sandbox key (the maker) and the draft's revision. */
async function drafted(o: Tenant, over: Record<string, unknown> = {}) {
  const res = await call(o.sandboxKey, 'POST', '/v1/rules', rule(over));
  assert.equal(res.statusCode, 201, res.body);
  const draft = (await call(o.sandboxKey, 'GET', '/v1/rules/draft')).json();
  return { rule: res.json(), revision: draft.revision as number };
}

describe('rules: draft, validation, maker-checker publication', () => {
  routeSecurityTests('getRules', app, { method: 'GET', url: () => '/v1/rules', scope: 'rules:read' });
  routeSecurityTests('getRuleDraft', app, { method: 'GET', url: () => '/v1/rules/draft', scope: 'rules:read' });
  routeSecurityTests('diffRules', app, { method: 'GET', url: () => '/v1/rules/diff?from=1&to=draft', scope: 'rules:read' });
  routeSecurityTests('createRule', app, {
    method: 'POST',
    url: () => '/v1/rules',
    scope: 'rules:write',
    body: rule(),
    malformed: { body: rule({ score: 'high' }), field: 'score' },
  });
  routeSecurityTests('updateRule', app, {
    method: 'PATCH',
    url: (id) => `/v1/rules/${id}`,
    scope: 'rules:write',
    body: { score: 10 },
    create: async (_tt, o) => (await drafted(o)).rule.id,
    malformed: { body: { severity: 'urgent' }, field: 'severity' },
  });
  routeSecurityTests('updateRuleDraft', app, {
    method: 'PATCH',
    url: () => '/v1/rules/draft',
    scope: 'rules:write',
    body: { change_note: 'x' },
    malformed: { body: { change_note: 5 }, field: 'change_note' },
  });
  routeSecurityTests('validateRules', app, {
    method: 'POST',
    url: () => '/v1/rules/validate',
    scope: 'rules:read',
    body: { expression: 'tx.amount > 1.0' },
    malformed: { body: { expression: 1 }, field: 'expression' },
  });
  routeSecurityTests('publishRules', app, {
    method: 'POST',
    url: () => '/v1/rules/publish',
    scope: 'rules:publish',
    body: { revision: 1 },
    malformed: { body: { revision: 'one' }, field: 'revision' },
  });
  routeSecurityTests('snoozeRule', app, {
    method: 'POST',
    url: (id) => `/v1/rules/${id}/snoozes`,
    scope: 'rules:write',
    body: { subject_reference: 'cus_1', until: new Date(Date.now() + 86_400_000).toISOString(), reason: 'known payroll' },
    create: async (_tt, o) => (await drafted(o)).rule.id,
    malformed: { body: { subject_reference: 'cus_1', until: 'tomorrow', reason: 'x' }, field: 'until' },
  });

  test('before anything is published: no version, and the draft is the starter library with every rule draft', async () => {
    const o = await t.tenant();
    const rs = (await call(o.sandboxKey, 'GET', '/v1/rules')).json();
    assert.deepEqual([rs.version, rs.rules.length, rs.versions.length, rs.draft], [null, 0, 0, null]);
    const d = (await call(o.sandboxKey, 'GET', '/v1/rules/draft')).json();
    assert.equal(d.revision, 0);
    assert.equal(d.rules.length, 13);
    assert.ok(d.rules.every((r: { status: string }) => r.status === 'draft'));
    assert.ok(d.aggregates.length > 5);
  });

  test('validate with a sample: the draft decides over it, test rules shadow-hit, the expression is evaluated; a mistyped sample is 400 at its field', async () => {
    const o = await t.tenant();
    await drafted(o);
    await drafted(o, {
      key: 'foreign_cp',
      expression: 'counterparty.country != "" && counterparty.country != "DE"',
      score: 30,
      status: 'test',
    });
    const sample = {
      tx: { amount: '1500.00', currency: 'EUR', occurred_at: '2026-03-01T10:00:00Z', direction: 'out' },
      counterparty: { country: 'FR' },
    };
    const res = await call(o.sandboxKey, 'POST', '/v1/rules/validate', { expression: 'tx.hour == 10 && tx.amount > 2000.0', sample });
    assert.equal(res.statusCode, 200, res.body);
    const r = res.json().sample_result;
    const by = (key: string) => r.outcomes.find((x: { key: string }) => x.key === key);
    assert.deepEqual([by('large_amount').outcome, by('large_amount').score, by('large_amount').status], ['hit', 40, 'active']);
    assert.deepEqual(by('large_amount').values_used, { 'tx.amount': '1500.00' });
    assert.deepEqual([by('foreign_cp').outcome, by('foreign_cp').score, by('foreign_cp').status], ['shadow_hit', 0, 'test']);
    assert.equal(r.score, 40);
    // The draft's rules that are drafts are not evaluated; the expression reads derived fields (hour) too.
    assert.ok(r.outcomes.every((x: { status: string }) => x.status === 'active' || x.status === 'test'));
    assert.equal(r.expression.outcome, 'no_hit');
    const low = (await call(o.sandboxKey, 'POST', '/v1/rules/validate', { sample: { tx: { ...sample.tx, amount: '10.00' } } })).json()
      .sample_result;
    assert.deepEqual([low.status, low.score, low.expression], ['approved', 0, null]);
    for (const [body, field] of [
      [{ sample: { tx: { ...sample.tx, amount: 1500 } } }, 'sample.tx.amount'],
      [{ sample: { tx: sample.tx, subject: { pep: 'yes' } } }, 'sample.subject.pep'],
      [{ sample: { tx: sample.tx, wallet: { colour: 'red' } } }, 'sample.wallet.colour'],
    ] as const) {
      const bad = await call(o.sandboxKey, 'POST', '/v1/rules/validate', body);
      assert.equal(bad.statusCode, 400, JSON.stringify(body));
      assert.equal(bad.json().error.field, field, bad.body);
    }
  });

  test('validate answers 200 with the position of the error; a write with the same expression is 400 naming expression', async () => {
    const o = await t.tenant();
    const v = (await call(o.sandboxKey, 'POST', '/v1/rules/validate', { expression: 'tx.amount > 1000.0 && agg.nope > 1' })).json();
    assert.equal(v.valid, false);
    assert.equal(v.errors[0].code, 'undeclared_aggregate');
    assert.equal(v.errors[0].position.column, 23);
    const ok = (await call(o.sandboxKey, 'POST', '/v1/rules/validate', { expression: 'tx.amount > 1000.0' })).json();
    assert.deepEqual([ok.valid, ok.reads], [true, ['tx.amount']]);
    const typeErr = (await call(o.sandboxKey, 'POST', '/v1/rules/validate', { expression: 'tx.amount + 1' })).json();
    assert.equal(typeErr.valid, false);
    const bad = await call(o.sandboxKey, 'POST', '/v1/rules', rule({ expression: 'tx.amount > ' }));
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.field, 'expression');
    assert.match(bad.json().error.message, /line 1, column \d+/);
    const undeclared = await call(o.sandboxKey, 'POST', '/v1/rules', rule({ expression: 'agg.nope > 1' }));
    assert.equal(undeclared.json().error.field, 'expression');
    const window = await call(o.sandboxKey, 'PATCH', '/v1/rules/draft', {
      aggregates: [{ key: 'x', fn: 'count', window: '400d', group_by: 'subject' }],
    });
    assert.equal(window.statusCode, 400);
    assert.equal(window.json().error.field, 'aggregates[0].window');
    assert.equal((await call(o.sandboxKey, 'GET', '/v1/rules/draft')).json().revision, 0, 'nothing stored');
  });

  test('maker-checker: the author cannot publish (409 author); a stale revision is 409; a second principal publishes version 1', async () => {
    const o = await t.tenant();
    const { rule: r, revision } = await drafted(o);
    assert.match(r.id, /^rul_/);
    // The checker holds rules:publish; the maker's scope (rules:write) does not allow publishing.
    const writer = await o.keyWith(['rules:write']);
    const denied = await call(writer, 'POST', '/v1/rules/publish', { revision });
    assert.equal(denied.statusCode, 403, denied.body);
    const checker = await o.keyWith(['rules:publish']);
    assert.equal((await call(checker, 'GET', '/v1/rules/draft')).statusCode, 200, 'the checker reads the draft');
    assert.equal(
      (await call(checker, 'PATCH', '/v1/rules/draft', { thresholds: { review: 1, block_and_review: 2, decline: 3 } })).statusCode,
      403,
    );
    const own = await call(o.sandboxKey, 'POST', '/v1/rules/publish', { revision });
    assert.equal(own.statusCode, 409);
    assert.equal(own.json().error.field, 'author');
    const stale = await call(checker, 'POST', '/v1/rules/publish', { revision: revision - 1 || 99 });
    assert.equal(stale.statusCode, 409);
    assert.equal(stale.json().error.field, 'revision');
    const pub = await call(checker, 'POST', '/v1/rules/publish', { revision, change_note: 'Large amounts to review' });
    assert.equal(pub.statusCode, 201, pub.body);
    const rs = pub.json();
    assert.equal(rs.version, 1);
    const published = rs.rules.find((x: { id: string }) => x.id === r.id);
    assert.equal(published.status, 'active');
    assert.match(published.author, /^api_key:/);
    assert.notEqual(published.reviewer, published.author);
    assert.equal(rs.versions[0].change_note, 'Large amounts to review');
    const again = await call(checker, 'POST', '/v1/rules/publish', { revision });
    assert.equal(again.statusCode, 409, 'the draft is gone once published');

    const audit = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE account_id = $1 AND action IN ('rule.created', 'rule_set.published') ORDER BY action",
      [o.accountId],
    );
    assert.deepEqual(
      audit.map((a) => a.action),
      ['rule.created', 'rule_set.published'],
    );
    const ev = await t.db.query<{ data: { version: number; active_rules: string[] } }>(
      "SELECT data FROM events WHERE account_id = $1 AND type = 'ruleset.published'",
      [o.accountId],
    );
    assert.equal(ev.length, 1);
    assert.deepEqual(ev[0]!.data.active_rules, ['large_amount']);

    // An edit makes a new draft from version 1; version 1 stays as it was; the diff shows the change.
    const patched = await call(o.sandboxKey, 'PATCH', `/v1/rules/${r.id}`, { score: 70 });
    assert.equal(patched.statusCode, 200, patched.body);
    const d = (await call(o.sandboxKey, 'GET', '/v1/rules/draft')).json();
    const pub2 = await call(checker, 'POST', '/v1/rules/publish', { revision: d.revision });
    assert.equal(pub2.statusCode, 201, pub2.body);
    assert.equal(pub2.json().rules.find((x: { id: string }) => x.id === r.id).version, 2);
    const v1 = (await call(o.sandboxKey, 'GET', '/v1/rules?version=1')).json();
    assert.equal(v1.rules.find((x: { id: string }) => x.id === r.id).score, 40);
    const diff = (await call(o.sandboxKey, 'GET', '/v1/rules/diff?from=1&to=2')).json();
    assert.deepEqual(diff.rules.changed, [{ id: r.id, key: 'large_amount', fields: { score: { before: 40, after: 70 } } }]);
    assert.equal((await call(o.sandboxKey, 'GET', '/v1/rules?version=9')).statusCode, 404);
    await assert.rejects(t.db.query('UPDATE rule_set_versions SET change_note = $1 WHERE account_id = $2', ['x', o.accountId]));
  });
});
