import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { splitSql } from '../../src/platform/db.js';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { withTransaction } from '../../src/platform/transaction.js';
import { raiseAlert, type RaiseAlertInput } from '../../src/modules/cases/index.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

const raise = (o: Tenant, input: Partial<RaiseAlertInput> = {}) =>
  withTransaction(o.ctx(), (tx) =>
    raiseAlert(tx, o.ctx(), {
      kind: 'transaction_rule',
      severity: 'medium',
      subjectType: 'customer',
      subjectId: 'cus_1',
      subjectReference: 'cus_1',
      title: 'Fan-in',
      details: { rule: 'fan_in' },
      dedupeKey: 'rule_fan_in',
      ...input,
    }),
  );
const get = async (o: Tenant, url: string) => (await t.call('GET', url, { key: o.sandboxKey })).json();

describe('generic alerts (cases raiseAlert)', () => {
  test('an alert opens an alert_review case for its subject, with audit rows and an alert.created event', async () => {
    const o = await t.tenant();
    const r = await raise(o);
    assert.equal(r.deduplicated, false);
    assert.match(r.alert.id, /^alt_/);
    assert.match(r.caseId, /^case_/);
    const list = await get(o, '/v1/cases');
    assert.equal(list.data.length, 1);
    const c = list.data[0];
    assert.deepEqual(
      [c.id, c.kind, c.state, c.severity, c.subject_type, c.subject_id, c.subject_reference, c.alert_count, c.reason_code],
      [r.caseId, 'alert_review', 'open', 'medium', 'customer', 'cus_1', 'cus_1', 1, 'transaction_rule'],
    );
    assert.equal(c.alerts[0].id, r.alert.id);
    assert.equal(c.alerts[0].kind, 'transaction_rule');
    assert.deepEqual(c.alerts[0].details, { rule: 'fan_in' });
    const audits = await t.db.query<{ action: string; resource_id: string }>(
      "SELECT action, resource_id FROM audit_events WHERE account_id = $1 AND action IN ('alert.created', 'case.opened') ORDER BY action",
      [o.accountId],
    );
    assert.deepEqual(audits, [
      { action: 'alert.created', resource_id: r.alert.id },
      { action: 'case.opened', resource_id: r.caseId },
    ]);
    const events = await t.db.query<{ type: string; data: { case_id: string } }>(
      "SELECT type, data FROM events WHERE account_id = $1 AND type = 'alert.created'",
      [o.accountId],
    );
    assert.equal(events.length, 1);
    assert.equal(events[0]!.data.case_id, r.caseId);
  });

  test('a case opened by an alert has its opening in the trail, by the caller; a later move follows it (the console showed an empty trail)', async () => {
    const o = await t.tenant();
    const r = await raise(o);
    const opened = await get(o, `/v1/cases/${r.caseId}`);
    assert.deepEqual(
      opened.transitions.map((x: any) => [x.from, x.to, x.event, x.actor]),
      [[null, 'open', 'opened', 'system:test']],
    );
    // Joining the open case writes no second opening.
    await raise(o, { dedupeKey: 'rule_other' });
    const moved = await t.call('PATCH', `/v1/cases/${r.caseId}`, { key: o.sandboxKey, body: { state: 'in_review', owner: 'user:rita' } });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual(
      moved.json().transitions.map((x: any) => [x.from, x.to]),
      [
        [null, 'open'],
        ['open', 'in_review'],
      ],
    );
  });

  test('0040: an alert case written without its opening gets it, before its later moves; a case with one is left alone', async () => {
    const o = await t.tenant();
    const bare = await raise(o, { subjectId: 'cus_bare' });
    const kept = await raise(o, { subjectId: 'cus_kept' });
    // As the code before the fix wrote it: no opening row; then a move by a reviewer.
    await t.db.query('DELETE FROM case_transitions WHERE case_id = $1', [bare.caseId]);
    await t.db.query("UPDATE cases SET created_at = now() - interval '1 hour' WHERE id = $1", [bare.caseId]);
    const moved = await t.call('PATCH', `/v1/cases/${bare.caseId}`, {
      key: o.sandboxKey,
      body: { state: 'in_review', owner: 'user:rita' },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal(moved.json().transitions.length, 1);
    for (const statement of splitSql(readFileSync(new URL('../../migrations/0040_alert_case_trail.sql', import.meta.url), 'utf8')))
      await t.db.query(statement);
    const fixed = await get(o, `/v1/cases/${bare.caseId}`);
    assert.deepEqual(
      fixed.transitions.map((x: any) => [x.from, x.to, x.actor]),
      [
        [null, 'open', 'system:system'],
        ['open', 'in_review', moved.json().transitions[0].actor],
      ],
    );
    assert.equal((await get(o, `/v1/cases/${kept.caseId}`)).transitions.length, 1);
  });

  test('a repeat within the cooldown is counted, not raised; another key joins the same case and raises its severity', async () => {
    const o = await t.tenant();
    const first = await raise(o);
    const again = await raise(o);
    assert.equal(again.deduplicated, true);
    assert.equal(again.alert.id, first.alert.id);
    assert.equal(again.alert.occurrences, 2);
    const other = await raise(o, { dedupeKey: 'rule_structuring', severity: 'high' });
    assert.equal(other.deduplicated, false);
    assert.equal(other.caseId, first.caseId);
    const c = await get(o, `/v1/cases/${first.caseId}`);
    assert.equal(c.severity, 'high');
    assert.equal(c.alert_count, 2);
    const updated = await t.db.query("SELECT 1 FROM events WHERE account_id = $1 AND type = 'case.updated'", [o.accountId]);
    assert.equal(updated.length, 1, 'the severity change is announced');
    const noDedupe = await raise(o, { cooldownSeconds: 0 });
    assert.equal(noDedupe.deduplicated, false);
    assert.notEqual(noDedupe.alert.id, first.alert.id);
  });

  test('20 concurrent raises of one subject and key give one alert counted 20 times, in one case; 10 keys at once share that case', async () => {
    const o = await t.tenant();
    const raised = await Promise.all(Array.from({ length: 20 }, () => raise(o, { subjectId: 'cus_burst', subjectReference: 'cus_burst' })));
    assert.equal(raised.filter((r) => !r.deduplicated).length, 1);
    const alerts = await t.db.query<{ id: string; occurrences: number; case_id: string }>(
      "SELECT id, occurrences, case_id FROM alerts WHERE account_id = $1 AND subject_id = 'cus_burst'",
      [o.accountId],
    );
    assert.equal(alerts.length, 1);
    assert.equal(alerts[0]!.occurrences, 20);
    const keys = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        raise(o, { subjectId: 'cus_burst', subjectReference: 'cus_burst', dedupeKey: `rule_${i}`, severity: i === 7 ? 'critical' : 'low' }),
      ),
    );
    assert.ok(keys.every((r) => !r.deduplicated && r.caseId === alerts[0]!.case_id));
    const cases = await t.db.query<{ id: string; severity: string; reason_codes: string[] }>(
      "SELECT id, severity, reason_codes FROM cases WHERE account_id = $1 AND subject_id = 'cus_burst'",
      [o.accountId],
    );
    assert.deepEqual(cases, [{ id: alerts[0]!.case_id, severity: 'critical', reason_codes: ['transaction_rule'] }]);
    const created = await t.db.query("SELECT 1 FROM events WHERE account_id = $1 AND type = 'alert.created'", [o.accountId]);
    assert.equal(created.length, 11, 'one alert.created per new alert, none per repeat');
  });

  test('filters by alert kind, severity, state and owner; closing the case closes its alerts and the next alert opens a new case', async () => {
    const o = await t.tenant();
    const tr = await raise(o, { subjectId: 'cus_a' });
    const re = await raise(o, { kind: 'rule_error', subjectType: 'rule', subjectId: 'rul_x', subjectReference: null, severity: 'low' });
    assert.deepEqual(
      (await get(o, '/v1/cases?kind=rule_error')).data.map((c: { id: string }) => c.id),
      [re.caseId],
    );
    assert.deepEqual(
      (await get(o, '/v1/cases?kind=transaction_rule&severity=medium&state=open&owner=none')).data.map((c: { id: string }) => c.id),
      [tr.caseId],
    );
    assert.equal((await get(o, '/v1/cases?kind=alert_review')).data.length, 2);
    assert.equal((await get(o, '/v1/cases?kind=verification_review')).data.length, 0);
    const res = await t.call('PATCH', `/v1/cases/${tr.caseId}`, {
      key: o.sandboxKey,
      body: { state: 'closed', resolution: 'false_positive' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().alerts[0].state, 'closed');
    const next = await raise(o, { subjectId: 'cus_a', dedupeKey: 'rule_other' });
    assert.notEqual(next.caseId, tr.caseId);
  });
});
