import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { buildJobHandlers } from '../../src/jobs/index.js';
import { JobRunner } from '../../src/platform/jobs.js';
import { Sealer } from '../../src/platform/crypto.js';
import { SCREENING_INDEX } from '../../src/modules/checks/screening/index-cache.js';
import { snapshots } from '../../src/modules/checks/screening/snapshot-repository.js';
import { rescreenSnapshot } from '../../src/modules/monitoring/rescreen.js';
import { monitoringAlerts } from '../../src/modules/monitoring/repository.js';
import { closeAlertCases } from '../../src/modules/cases/close-case.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());
const app = () => t;

const drain = (tt: TestApp = t) =>
  new JobRunner({ db: tt.db, handlers: buildJobHandlers({ db: tt.db, config: tt.config, resources: tt.resources }) }).drain();
const get = async (o: Tenant, url: string) => (await t.call('GET', url, { key: o.sandboxKey })).json();
const patch = (o: Tenant, id: string, body: unknown) => t.call('PATCH', `/v1/cases/${id}`, { key: o.sandboxKey, body });

/** A referred sandbox session and its review case. */
async function referred(tt: TestApp, o: Tenant, reference = 'sandbox_referred'): Promise<{ sessionId: string; caseId: string }> {
  const res = await tt.call('POST', '/v1/verifications', {
    key: o.sandboxKey,
    body: { journey: 'kyc_standard', subject: { type: 'individual', reference } },
  });
  assert.equal(res.statusCode, 201, res.body);
  await drain(tt);
  const [c] = await tt.db.query<{ id: string }>('SELECT id FROM cases WHERE session_id = $1', [res.json().id]);
  return { sessionId: res.json().id, caseId: c!.id };
}

/** A monitored subject on the sandbox list's sanctioned person, re-screened against the built-in sandbox snapshot. */
async function alertCase(o: Tenant, reference = 'cus_alert'): Promise<{ alertId: string; caseId: string }> {
  const enrol = await t.call('POST', '/v1/monitoring/subjects', {
    key: o.sandboxKey,
    body: { subject_reference: reference, name: 'Sandbox Sanctioned Person', date_of_birth: '1970-01-01' },
  });
  assert.equal(enrol.statusCode, 201, enrol.body);
  await t.resources.get(SCREENING_INDEX).get(); // installs the built-in sandbox snapshot
  const snap = (await snapshots.activeFor(t.db, 'sandbox'))!;
  await rescreenSnapshot(t.resources, new Sealer(t.config.masterKey), {
    source: 'sandbox',
    snapshot_id: snap.id,
    previous_snapshot_id: null,
  });
  const [row] = await t.db.query<{ alert_id: string; case_id: string }>(
    'SELECT a.id AS alert_id, c.id AS case_id FROM monitoring_alerts a JOIN cases c ON c.alert_id = a.id WHERE a.account_id = $1 AND a.subject_reference = $2',
    [o.accountId, reference],
  );
  assert.ok(row, 'the re-screen raised an alert with its case');
  return { alertId: row.alert_id, caseId: row.case_id };
}

describe('GET /v1/cases, GET /v1/cases/{id}, PATCH /v1/cases/{id}', () => {
  routeSecurityTests('listCases', app, { method: 'GET', url: () => '/v1/cases', scope: 'cases:read' });
  routeSecurityTests('getCase', app, {
    method: 'GET',
    url: (id) => `/v1/cases/${id}`,
    scope: 'cases:read',
    create: async (tt, o) => (await referred(tt, o)).caseId,
  });
  routeSecurityTests('updateCase', app, {
    method: 'PATCH',
    url: (id) => `/v1/cases/${id}`,
    scope: 'cases:write',
    body: { severity: 'high' },
    create: async (tt, o) => (await referred(tt, o)).caseId,
    malformed: { body: { severity: 'urgent' }, field: 'severity' },
  });

  test('a referred session opens a verification_review case: listed with owner, severity and state; the referral event names it', async () => {
    const o = await t.tenant();
    const { sessionId, caseId } = await referred(t, o);
    const list = await get(o, '/v1/cases');
    assert.equal(list.data.length, 1);
    const c = list.data[0];
    assert.match(c.id, /^case_/);
    assert.deepEqual(
      [
        c.id,
        c.object,
        c.kind,
        c.state,
        c.severity,
        c.owner,
        c.reason_code,
        c.reason_codes,
        c.subject_reference,
        c.verification_id,
        c.alert_id,
        c.closed_at,
        c.resolution,
      ],
      [
        caseId,
        'case',
        'verification_review',
        'open',
        'medium',
        null,
        'sanctions_pep_potential_match',
        ['sanctions_pep_potential_match'],
        'sandbox_referred',
        sessionId,
        null,
        null,
        null,
      ],
    );
    const [referral] = await t.db.query<{ data: { case_id: string } }>(
      "SELECT data FROM events WHERE resource_id = $1 AND type = 'verification.referred'",
      [sessionId],
    );
    assert.equal(referral!.data.case_id, caseId);
    const one = await get(o, `/v1/cases/${caseId}`);
    assert.deepEqual(
      one.transitions.map((x: { from: string | null; to: string; event: string }) => `${x.from}>${x.event}>${x.to}`),
      ['null>opened>open'],
    );
    assert.deepEqual(await t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1', [caseId]), [
      { action: 'case.opened' },
    ]);
  });

  test('PATCH assigns, takes into review, returns to the queue; each change is a trail row, an audit row and a case.updated event', async () => {
    const o = await t.tenant();
    const { caseId } = await referred(t, o);
    const noOwner = await patch(o, caseId, { state: 'in_review' });
    assert.equal(noOwner.statusCode, 400);
    assert.equal(noOwner.json().error.field, 'owner');

    const take = await patch(o, caseId, { state: 'in_review', owner: 'ana@example.com' });
    assert.equal(take.statusCode, 200, take.body);
    assert.deepEqual([take.json().state, take.json().owner], ['in_review', 'ana@example.com']);
    const sev = await patch(o, caseId, { severity: 'high' });
    assert.deepEqual([sev.json().severity, sev.json().state], ['high', 'in_review']);
    const back = await patch(o, caseId, { state: 'open', owner: null });
    assert.deepEqual([back.json().state, back.json().owner], ['open', null]);
    assert.deepEqual(
      back.json().transitions.map((x: { event: string; actor: string }) => x.event),
      ['opened', 'start_review', 'return_to_queue'],
    );
    assert.match(back.json().transitions[1].actor, /^api_key:key_/);

    const audit = await t.db.query<{ action: string; diff: Record<string, { before: unknown; after: unknown }> | null }>(
      'SELECT action, diff FROM audit_events WHERE resource_id = $1 ORDER BY id',
      [caseId],
    );
    assert.deepEqual(
      audit.map((a) => a.action),
      ['case.opened', 'case.updated', 'case.updated', 'case.updated'],
    );
    assert.deepEqual(audit[1]!.diff, { state: { before: 'open', after: 'in_review' }, owner: { before: null, after: 'ana@example.com' } });
    const events = await t.db.query<{ data: { changed: string[]; state: string } }>(
      "SELECT data FROM events WHERE resource_id = $1 AND type = 'case.updated' ORDER BY id",
      [caseId],
    );
    assert.deepEqual(
      events.map((e) => e.data.changed),
      [['state', 'owner'], ['severity'], ['state', 'owner']],
    );

    // Nothing that is not a change is recorded.
    assert.equal((await patch(o, caseId, { severity: 'high' })).statusCode, 200);
    assert.equal((await t.db.query('SELECT 1 FROM audit_events WHERE resource_id = $1', [caseId])).length, 4);
  });

  test("a review case closes only with its session's decision, which sets the resolution; a closed case is final", async () => {
    const o = await t.tenant();
    const { sessionId, caseId } = await referred(t, o);
    const close = await patch(o, caseId, { state: 'closed', resolution: 'looked fine' });
    assert.equal(close.statusCode, 409);
    assert.equal(close.json().error.field, 'state');
    assert.match(close.json().error.message, /decision/);
    const stray = await patch(o, caseId, { resolution: 'x' });
    assert.equal(stray.statusCode, 400);
    assert.equal(stray.json().error.field, 'resolution');
    assert.equal((await get(o, `/v1/verifications/${sessionId}`)).status, 'referred');

    await patch(o, caseId, { state: 'in_review', owner: 'ana' });
    const d = await t.call('POST', `/v1/verifications/${sessionId}/decision`, {
      key: o.sandboxKey,
      body: { decision: 'declined', reason: 'confirmed listing' },
    });
    assert.equal(d.statusCode, 200, d.body);
    const c = await get(o, `/v1/cases/${caseId}`);
    assert.deepEqual([c.state, c.resolution, c.owner], ['closed', 'decision: declined', 'ana']);
    assert.ok(c.closed_at);
    assert.deepEqual(
      c.transitions.map((x: { event: string }) => x.event),
      ['opened', 'start_review', 'session_decided'],
    );
    const last = await patch(o, caseId, { owner: 'bob' });
    assert.equal(last.statusCode, 409);
  });

  test('deleting a referred session closes its case (resolution deleted) and erases its comments; it stays referred and can no longer be decided', async () => {
    const o = await t.tenant();
    const { sessionId, caseId } = await referred(t, o);
    const other = await referred(t, o, 'sandbox_referred');
    for (const id of [caseId, other.caseId]) {
      const c = await t.call('POST', `/v1/cases/${id}/comments`, { key: o.sandboxKey, body: { body: 'Spoke to Jane Doe on the phone.' } });
      assert.equal(c.statusCode, 201, c.body);
    }
    const del = await t.call('DELETE', `/v1/verifications/${sessionId}`, { key: o.sandboxKey });
    assert.equal(del.statusCode, 200, del.body);
    const comments = (id: string) => t.call('GET', `/v1/cases/${id}/comments`, { key: o.sandboxKey }).then((r) => r.json().data.length);
    assert.equal(await comments(caseId), 0, 'the deleted session case keeps no free text about the person');
    assert.equal(await comments(other.caseId), 1, "another session's case keeps its comment");
    assert.deepEqual([del.json().status, del.json().decision], ['referred', 'referred']);
    assert.ok(del.json().deleted_at);
    const c = await get(o, `/v1/cases/${caseId}`);
    assert.deepEqual([c.state, c.resolution, c.subject_reference], ['closed', 'deleted', null]);
    assert.equal(c.transitions.at(-1).event, 'session_deleted');
    const types = (
      await t.db.query<{ type: string }>('SELECT type FROM events WHERE resource_id = ANY($1::text[]) ORDER BY id', [[sessionId, caseId]])
    ).map((e) => e.type);
    assert.deepEqual(types, ['verification.referred', 'case.updated', 'verification.deleted']);
    const decide = await t.call('POST', `/v1/verifications/${sessionId}/decision`, {
      key: o.sandboxKey,
      body: { decision: 'approved', reason: 'late' },
    });
    assert.equal(decide.statusCode, 409);
    assert.equal((await t.call('DELETE', `/v1/verifications/${sessionId}`, { key: o.sandboxKey })).statusCode, 200);

    // A processing session is still 409: its checks finish within seconds. (The sandbox_processing
    // subject, which never decides by design, is the exception: verifications-ends.test.ts.)
    const p = await t.call('POST', '/v1/verifications', {
      key: o.sandboxKey,
      body: { journey: 'kyc_standard', subject: { type: 'individual', reference: 'cust_busy' } },
    });
    await t.db.query("UPDATE sessions SET status = 'processing' WHERE id = $1", [p.json().id]);
    const busy = await t.call('DELETE', `/v1/verifications/${p.json().id}`, { key: o.sandboxKey });
    assert.equal(busy.statusCode, 409);
    assert.match(busy.json().error.message, /Retry the deletion once it has its decision/);
  });

  test('a monitoring alert is a screening_alert case: severity from the hit; closing it needs a resolution and closes the alert', async () => {
    const o = await t.tenant();
    const { alertId, caseId } = await alertCase(o);
    const c = await get(o, `/v1/cases/${caseId}`);
    assert.deepEqual(
      [c.kind, c.state, c.alert_id, c.verification_id, c.subject_reference, c.reason_code],
      ['screening_alert', 'open', alertId, null, 'cus_alert', 'rescreening_added'],
    );
    assert.ok(['high', 'critical'].includes(c.severity), c.severity);
    const [hit] = await t.db.query<{ data: { case_id: string } }>(
      "SELECT data FROM events WHERE resource_id = $1 AND type = 'screening.rescreening_hit'",
      [alertId],
    );
    assert.equal(hit!.data.case_id, caseId);

    const noNote = await patch(o, caseId, { state: 'closed' });
    assert.equal(noNote.statusCode, 400);
    assert.equal(noNote.json().error.field, 'resolution');
    const closed = await patch(o, caseId, { state: 'closed', resolution: 'false positive: different birth place' });
    assert.equal(closed.statusCode, 200, closed.body);
    assert.deepEqual([closed.json().state, closed.json().resolution], ['closed', 'false positive: different birth place']);
    const alert = await get(o, `/v1/monitoring/alerts/${alertId}`);
    assert.deepEqual([alert.state, alert.closed_reason], ['closed', 'case_closed']);
    assert.equal((await patch(o, caseId, { state: 'open' })).statusCode, 409);
  });

  test('an alert whose entity left its list closes its case with resolution entity_removed', async () => {
    const o = await t.tenant();
    const { alertId, caseId } = await alertCase(o, 'cus_removed');
    await t.db.transaction(async (tx) => {
      const closed = await monitoringAlerts.closeRemoved(tx, ['sandbox:sanctioned-person']);
      await closeAlertCases(tx, t.db, closed, 'job:test');
    });
    const c = await get(o, `/v1/cases/${caseId}`);
    assert.deepEqual([c.state, c.resolution], ['closed', 'entity_removed']);
    assert.equal(c.transitions.at(-1).event, 'alert_closed');
    assert.equal(c.transitions.at(-1).actor, 'system:system');
    assert.equal((await get(o, `/v1/monitoring/alerts/${alertId}`)).closed_reason, 'entity_removed');
  });

  test('filters and cursor pagination', async () => {
    const o = await t.tenant();
    const a = await referred(t, o);
    const b = await referred(t, o);
    const { caseId: alertCaseId } = await alertCase(o, 'cus_filters');
    await patch(o, b.caseId, { state: 'in_review', owner: 'ana', severity: 'critical' });
    const ids = async (q: string) => (await get(o, `/v1/cases${q}`)).data.map((c: { id: string }) => c.id);
    assert.deepEqual(await ids(''), [alertCaseId, b.caseId, a.caseId]);
    assert.deepEqual(await ids('?kind=verification_review'), [b.caseId, a.caseId]);
    assert.deepEqual(await ids('?kind=screening_alert'), [alertCaseId]);
    assert.deepEqual(await ids('?state=in_review'), [b.caseId]);
    assert.deepEqual(await ids('?owner=ana'), [b.caseId]);
    assert.deepEqual(await ids('?owner=none&kind=verification_review'), [a.caseId]);
    assert.deepEqual(await ids('?severity=critical'), [b.caseId]);
    assert.deepEqual(await ids(`?verification_id=${a.sessionId}`), [a.caseId]);
    assert.deepEqual(await ids('?created_gte=2000-01-01T00:00:00Z&created_lt=2000-01-02T00:00:00Z'), []);
    const p1 = await get(o, '/v1/cases?limit=2');
    assert.equal(p1.data.length, 2);
    const p2 = await get(o, `/v1/cases?limit=2&cursor=${encodeURIComponent(p1.next_cursor)}`);
    assert.deepEqual(
      p2.data.map((c: { id: string }) => c.id),
      [a.caseId],
    );
    assert.equal(p2.next_cursor, null);
    for (const [q, field] of [
      ['?state=done', 'state'],
      ['?severity=urgent', 'severity'],
      ['?created_gte=yesterday', 'created_gte'],
      ['?cursor=abc', 'cursor'],
    ]) {
      const r = await t.call('GET', `/v1/cases${q}`, { key: o.sandboxKey });
      assert.equal(r.statusCode, 400, q);
      assert.equal(r.json().error.field, field, q);
    }
  });
});
