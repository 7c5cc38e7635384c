import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { createOperator, type Role } from '../../src/modules/console/index.js';
import { Sealer } from '../../src/platform/crypto.js';
import { buildJobHandlers } from '../../src/jobs/index.js';
import { JobRunner } from '../../src/platform/jobs.js';
import { DEFAULT_JOURNEYS } from '../../src/modules/journeys/defaults.js';

/**
 * Roles enforced by the server on /v1 calls made with a console session (not only hidden buttons):
 * the viewer cannot act, the analyst drafts but cannot publish, an approver cannot publish their own
 * version (maker-checker); "claim next" locks a case to one reviewer, concurrent claims get different
 * cases, and another reviewer cannot decide or correct a claimed session.
 */
let t: TestApp;
let tenant: Tenant;
const PASSWORD = 'a long enough password 1';
before(async () => {
  t = await createTestApp();
  tenant = await t.tenant();
});
after(() => t.close());

interface Session {
  cookie: string;
  csrf: string;
  id: string;
}

async function signedIn(email: string, role: Role, o: Tenant = tenant): Promise<Session> {
  await createOperator(t.db, new Sealer(t.config.masterKey), { accountId: o.accountId, email, password: PASSWORD, role, totp: false });
  const res = await t.app.inject({
    method: 'POST',
    url: '/console/api/login',
    headers: { 'content-type': 'application/json' },
    payload: { email, password: PASSWORD, environment: 'sandbox' },
  });
  assert.equal(res.statusCode, 200, res.body);
  return { cookie: String(res.headers['set-cookie']).split(';')[0]!, csrf: res.json().csrf_token, id: res.json().operator.id };
}

const v1 = (s: Session, method: string, url: string, body?: unknown): Promise<LightMyRequestResponse> =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'verity-environment': 'sandbox' },
    ...(body !== undefined ? { payload: body as object } : {}),
  });

const drain = () => new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources }) }).drain();

async function referred(o: Tenant = tenant): Promise<{ sessionId: string; caseId: string }> {
  const res = await t.call('POST', '/v1/verifications', {
    key: o.sandboxKey,
    body: { journey: 'kyc_standard', subject: { type: 'individual', reference: 'sandbox_referred' } },
  });
  assert.equal(res.statusCode, 201, res.body);
  await drain();
  const [c] = await t.db.query<{ id: string }>('SELECT id FROM cases WHERE session_id = $1', [res.json().id]);
  return { sessionId: res.json().id, caseId: c!.id };
}

const code = (res: LightMyRequestResponse, status: number, errorCode: string, field?: string | null) => {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(res.json().error.code, errorCode);
  if (field !== undefined) assert.equal(res.json().error.field, field);
};

describe('POST /v1/cases/claim', () => {
  routeSecurityTests('claimNextCase', () => t, {
    method: 'POST',
    url: () => '/v1/cases/claim',
    scope: 'cases:write',
    body: {},
    malformed: { body: { severity: 'urgent' }, field: 'severity' },
  });

  test('claim next: the most severe then oldest unowned case, locked to the caller; concurrent claims get different cases; empty queue is null', async () => {
    const o = await t.tenant();
    const a = await referred(o);
    const b = await referred(o);
    const claim = (body: unknown = {}) => t.call('POST', '/v1/cases/claim', { key: o.sandboxKey, body });
    const [x, y] = await Promise.all([claim({ owner: 'ada' }), claim({ owner: 'bob' })]);
    assert.equal(x.statusCode, 200, x.body);
    assert.equal(y.statusCode, 200, y.body);
    const got = [x.json().case, y.json().case];
    assert.deepEqual(got.map((c) => c.id).sort(), [a.caseId, b.caseId].sort(), 'two claims, two different cases');
    assert.deepEqual(
      got.map((c) => c.state),
      ['in_review', 'in_review'],
    );
    assert.deepEqual(got.map((c) => c.owner).sort(), ['ada', 'bob']);
    assert.equal(got[0].transitions.at(-1).event, 'start_review');
    const empty = await claim();
    assert.deepEqual(empty.json(), { object: 'case_claim', case: null });
    // The claim is audited like any case change.
    const [audit] = await t.db.query<{ diff: { owner: { after: string } } }>(
      "SELECT diff FROM audit_events WHERE resource_id = $1 AND action = 'case.updated' ORDER BY id DESC LIMIT 1",
      [got[0].id],
    );
    assert.equal(audit!.diff.owner.after, got[0].owner);
  });

  test('filters: kind and severity narrow what is claimed', async () => {
    const o = await t.tenant();
    await referred(o);
    const none = await t.call('POST', '/v1/cases/claim', { key: o.sandboxKey, body: { kind: 'screening_alert' } });
    assert.equal(none.json().case, null);
    const [row] = await t.db.query<{ severity: string }>("SELECT severity FROM cases WHERE account_id = $1 AND state = 'open'", [
      o.accountId,
    ]);
    const other = row!.severity === 'low' ? 'high' : 'low';
    assert.equal((await t.call('POST', '/v1/cases/claim', { key: o.sandboxKey, body: { severity: other } })).json().case, null);
    const ok = await t.call('POST', '/v1/cases/claim', {
      key: o.sandboxKey,
      body: { kind: 'verification_review', severity: row!.severity },
    });
    assert.equal(ok.json().case.kind, 'verification_review');
  });
});

describe('POST /v1/cases/claim with an Idempotency-Key', () => {
  test('a replay returns the case the first call claimed (not the next one); a new key claims the next', async () => {
    const o = await t.tenant();
    const a = await referred(o);
    const b = await referred(o);
    const claim = (idem: string) =>
      t.call('POST', '/v1/cases/claim', { key: o.sandboxKey, body: { owner: 'ada' }, headers: { 'idempotency-key': idem } });
    const first = await claim('claim-1');
    assert.equal(first.statusCode, 200, first.body);
    const replay = await claim('claim-1');
    assert.equal(replay.statusCode, 200, replay.body);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replay.json(), first.json());
    const second = await claim('claim-2');
    assert.equal(second.statusCode, 200, second.body);
    assert.deepEqual([first.json().case.id, second.json().case.id].sort(), [a.caseId, b.caseId].sort(), 'the replay claimed nothing');
    const [n] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_events WHERE resource_id = $1 AND action = 'case.updated'",
      [first.json().case.id],
    );
    assert.equal(n!.n, 1, 'one audited claim for the replayed key');
    const mismatch = await t.call('POST', '/v1/cases/claim', {
      key: o.sandboxKey,
      body: { owner: 'bob' },
      headers: { 'idempotency-key': 'claim-1' },
    });
    assert.equal(mismatch.statusCode, 400, mismatch.body);
    assert.equal(mismatch.json().error.field, 'Idempotency-Key');
  });
});

describe('roles on /v1 with a console session', () => {
  test('a reviewer claims for themself; another reviewer can neither decide nor correct the claimed session; the owner can, and the audit names them', async () => {
    const ada = await signedIn('ada.reviewer@example.com', 'reviewer');
    const bob = await signedIn('bob.reviewer@example.com', 'reviewer');
    const { sessionId, caseId } = await referred();
    code(await v1(ada, 'POST', '/v1/cases/claim', { owner: 'someone else' }), 400, 'invalid_request', 'owner');
    const claimed = await v1(ada, 'POST', '/v1/cases/claim', { kind: 'verification_review' });
    assert.equal(claimed.statusCode, 200, claimed.body);
    assert.equal(claimed.json().case.id, caseId);
    assert.equal(claimed.json().case.owner, `operator:${ada.id}`);

    code(
      await v1(bob, 'POST', `/v1/verifications/${sessionId}/decision`, { decision: 'approved', reason: 'looks fine' }),
      409,
      'conflict',
      'owner',
    );
    code(
      await v1(bob, 'PATCH', `/v1/verifications/${sessionId}`, { fields: { surname: 'Other' }, reason: 'typo' }),
      409,
      'conflict',
      'owner',
    );
    const decided = await v1(ada, 'POST', `/v1/verifications/${sessionId}/decision`, {
      decision: 'approved',
      reason: 'documents consistent',
    });
    assert.equal(decided.statusCode, 200, decided.body);
    const [row] = await t.db.query<{ actor_type: string; actor_id: string }>(
      "SELECT actor_type, actor_id FROM audit_events WHERE resource_id = $1 AND action = 'verification.manual_decision'",
      [sessionId],
    );
    assert.deepEqual(row, { actor_type: 'operator', actor_id: ada.id });
  });

  test('a viewer reads but cannot act: claim, decide, correct and publish are 403 naming the scope', async () => {
    const viewer = await signedIn('vera.viewer@example.com', 'viewer');
    const { sessionId } = await referred();
    assert.equal((await v1(viewer, 'GET', `/v1/verifications/${sessionId}`)).statusCode, 200);
    assert.equal((await v1(viewer, 'GET', '/v1/cases?state=open')).statusCode, 200);
    code(await v1(viewer, 'POST', '/v1/cases/claim', {}), 403, 'insufficient_scope');
    code(
      await v1(viewer, 'POST', `/v1/verifications/${sessionId}/decision`, { decision: 'approved', reason: 'x' }),
      403,
      'insufficient_scope',
    );
    code(await v1(viewer, 'PATCH', `/v1/verifications/${sessionId}`, { fields: { surname: 'X' }, reason: 'x' }), 403, 'insufficient_scope');
    code(await v1(viewer, 'POST', '/v1/journeys/kyc_standard/versions/1/publish'), 403, 'insufficient_scope');
  });

  test('maker-checker on journeys: the analyst drafts and cannot publish; the approver cannot publish their own version but publishes the analyst’s', async () => {
    const analyst = await signedIn('ana.analyst@example.com', 'analyst');
    const approver = await signedIn('abe.approver@example.com', 'approver');
    const definition = structuredClone(DEFAULT_JOURNEYS[1]!.definition);
    const body = { key: 'console_light', name: 'Light', definition };
    code(await v1(analyst, 'POST', '/v1/journeys', { ...body, publish: true }), 403, 'insufficient_scope');
    const draft = await v1(analyst, 'POST', '/v1/journeys', { ...body, publish: false });
    assert.equal(draft.statusCode, 201, draft.body);
    code(await v1(analyst, 'POST', '/v1/journeys/console_light/versions/1/publish'), 403, 'insufficient_scope');
    // The approver writes version 2 and cannot publish it, neither at once nor afterwards.
    code(await v1(approver, 'POST', '/v1/journeys', { ...body, publish: true }), 409, 'conflict', 'publish');
    assert.equal((await v1(approver, 'POST', '/v1/journeys', { ...body, name: 'Light 2', publish: false })).statusCode, 201);
    code(await v1(approver, 'POST', '/v1/journeys/console_light/versions/2/publish'), 409, 'conflict', 'version');
    const published = await v1(approver, 'POST', '/v1/journeys/console_light/versions/1/publish');
    assert.equal(published.statusCode, 200, published.body);
    assert.equal(published.json().published_version, 1);
    const [row] = await t.db.query<{ actor_id: string }>(
      "SELECT actor_id FROM audit_events WHERE action = 'journey.published' AND metadata->>'key' = 'console_light'",
    );
    assert.equal(row!.actor_id, approver.id);
    // An API key keeps publishing in one call (the integration is one principal).
    assert.equal((await t.call('POST', '/v1/journeys', { key: tenant.sandboxKey, body: { ...body, publish: true } })).statusCode, 201);
  });

  test('maker-checker on rules: the analyst drafts, cannot publish; an approver who did not edit the draft publishes it', async () => {
    const o = await t.tenant();
    const analyst = await signedIn('rae.analyst@example.com', 'analyst', o);
    const approver = await signedIn('ray.approver@example.com', 'approver', o);
    const created = await v1(analyst, 'POST', '/v1/rules', {
      key: 'large_amount',
      name: 'Large amount',
      expression: 'tx.amount > 1000.0',
      score: 40,
      severity: 'high',
      status: 'active',
    });
    assert.equal(created.statusCode, 201, created.body);
    const revision = (await v1(analyst, 'GET', '/v1/rules/draft')).json().revision;
    code(await v1(analyst, 'POST', '/v1/rules/publish', { revision }), 403, 'insufficient_scope');
    const published = await v1(approver, 'POST', '/v1/rules/publish', { revision });
    assert.equal(published.statusCode, 201, published.body);
  });
});
