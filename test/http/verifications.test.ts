import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { buildJobHandlers } from '../../src/jobs/index.js';
import { enqueueJob, JobRunner } from '../../src/platform/jobs.js';
import { hashSessionToken, sessionForToken } from '../../src/modules/verifications/session-token.js';
import { startCapture, submitCapture } from '../../src/modules/verifications/complete.js';
import { DEFAULT_JOURNEYS } from '../../src/modules/journeys/defaults.js';
import { sessions } from '../../src/modules/verifications/repository.js';
import { newId } from '../../src/platform/ids.js';
import { countMessages } from '../helpers/messages.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());
const app = () => t;

const body = {
  journey: 'kyc_standard',
  subject: { type: 'individual', reference: 'cust_42', country: 'GB' },
  redirect_url: 'https://example.com/done',
};
const create = async (tt: TestApp, owner: { sandboxKey: string }, b: unknown = body) =>
  (await tt.call('POST', '/v1/verifications', { key: owner.sandboxKey, body: b })).json().id as string;
const drain = () => new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources }) }).drain();
const events = (id: string) =>
  t.db.query<{ type: string; data: Record<string, unknown> }>('SELECT type, data FROM events WHERE resource_id = $1 ORDER BY id', [id]);
const trail = async (id: string) =>
  (
    await t.db.query<{ from_status: string; to_status: string; event: string }>(
      'SELECT from_status, to_status, event FROM session_transitions WHERE session_id = $1 ORDER BY id',
      [id],
    )
  ).map((r) => `${r.from_status}>${r.event}>${r.to_status}`);

describe('POST /v1/verifications', () => {
  routeSecurityTests('createVerification', app, {
    method: 'POST',
    url: () => '/v1/verifications',
    scope: 'verifications:write',
    body,
    malformed: { body: { ...body, subject: { ...body.subject, country: 'gb' } }, field: 'subject.country' },
  });

  test('creates an awaiting_subject session with every check pending, a hosted URL and a session token', async () => {
    const owner = await t.tenant();
    const res = await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body });
    assert.equal(res.statusCode, 201);
    const s = res.json();
    assert.match(s.id, /^ses_/);
    assert.equal(s.status, 'awaiting_subject');
    assert.equal(s.journey, 'kyc_standard');
    assert.equal(s.journey_version, 1);
    assert.deepEqual(
      s.checks.map((c: { type: string; status: string }) => `${c.type}:${c.status}`),
      ['document:pending', 'liveness:pending', 'face_match:pending', 'sanctions_pep:pending', 'risk_score:pending'],
    );
    assert.match(s.session_token, /^vst_[A-Za-z0-9_-]{43}$/);
    assert.equal(s.hosted_url, `${t.config.hostedBaseUrl}/s/${s.id}?token=${s.session_token}`);
    const lifetime = Date.parse(s.expires_at) - Date.parse(s.created_at);
    assert.ok(Math.abs(lifetime - 3600_000) < 2000, `lifetime ${lifetime}`);
    assert.equal(s.session_token_expires_at, s.expires_at);
    // Only the token's hash is stored; the token opens this session and is no API key.
    const [row] = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM sessions WHERE id = $1', [s.id]);
    assert.equal(row!.token_hash, hashSessionToken(s.session_token));
    assert.equal((await sessionForToken(t.db, s.session_token))?.id, s.id);
    assert.equal((await t.call('GET', `/v1/verifications/${s.id}`, { key: s.session_token })).statusCode, 401);
    assert.deepEqual(await trail(s.id), ['created>token_issued>awaiting_subject']);
    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1', [s.id]);
    assert.deepEqual(
      audit.map((a) => a.action),
      ['verification.created'],
    );
    const checks = await t.db.query<{ status: string; completed_at: Date | null }>(
      'SELECT status, completed_at FROM checks WHERE session_id = $1',
      [s.id],
    );
    assert.equal(checks.length, 5);
    assert.ok(checks.every((c) => c.status === 'pending' && c.completed_at === null));
  });

  test('the row the insert answers (built from what was written, timestamps read back) is the stored row', async () => {
    const o = await t.tenant();
    const ctx = o.ctx('sandbox');
    const id = newId('session');
    const def = DEFAULT_JOURNEYS[0]!.definition;
    const made = await t.db.transaction((tx) =>
      sessions.insert(
        tx,
        ctx,
        {
          id,
          journeyKey: 'kyc_standard',
          journeyVersion: 1,
          definition: def,
          subjectType: 'individual',
          subjectReference: 'cus_row_check',
          subjectCountry: 'GB',
          redirectUrl: 'https://example.com/done',
          expiresAt: new Date(Date.now() + 3_600_000),
          tokenHash: `hash_${id}`,
          tokenExpiresAt: new Date(Date.now() + 1_800_000),
          sandboxOutcome: null,
          fieldsSealed: null,
        },
        'token_issued',
      ),
    );
    const [stored] = await t.db.query<Record<string, unknown>>('SELECT * FROM sessions WHERE id = $1', [id]);
    // Every column a reader gets (token hash and sealed fields are never part of the row type).
    const { token_hash: _h, extracted_fields_sealed: _f, ...readable } = stored!;
    assert.deepEqual(Object.keys(made!).sort(), Object.keys(readable).sort());
    // The definition is the journey version's, referred to rather than copied (migration 0051).
    assert.equal(readable.definition, null);
    assert.deepEqual(made, { ...readable, definition: def });
  });

  test("a journey not published in the key's environment is 400 with field journey", async () => {
    const owner = await t.tenant();
    const draft = { key: 'kyc_draft', name: 'draft', definition: DEFAULT_JOURNEYS[1]!.definition, publish: false };
    assert.equal((await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: draft })).statusCode, 201);
    assert.equal(
      (await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: { ...draft, key: 'kyc_sandbox_only', publish: true } }))
        .statusCode,
      201,
    );
    for (const [key, journey] of [
      [owner.sandboxKey, 'kyc_draft'],
      [owner.sandboxKey, 'nope'],
      [owner.productionKey, 'kyc_sandbox_only'],
    ] as const) {
      const res = await t.call('POST', '/v1/verifications', { key, body: { ...body, journey } });
      assert.equal(res.statusCode, 400, journey);
      assert.equal(res.json().error.code, 'invalid_request');
      assert.equal(res.json().error.field, 'journey');
    }
    assert.equal((await t.db.query('SELECT 1 FROM sessions WHERE account_id = $1', [owner.accountId])).length, 0);
  });

  test('idempotent: a replay returns the same session and creates no second one or second bill', async () => {
    const owner = await t.tenant();
    const headers = { 'idempotency-key': 'create-1' };
    const a = await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body, headers });
    const b = await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body, headers });
    assert.equal(b.statusCode, 201);
    assert.equal(b.headers['idempotent-replayed'], 'true');
    assert.equal(b.body, a.body);
    const [n] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE account_id = $1', [owner.accountId]);
    assert.equal(n!.n, 1);
    const [u] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM usage_records WHERE account_id = $1 AND module = 'verifications'",
      [owner.accountId],
    );
    assert.equal(u!.n, 1);
  });

  test('a session pins its journey version: publishing v2 changes only later sessions', async () => {
    const owner = await t.tenant();
    const first = await create(t, owner);
    const v2 = { key: 'kyc_standard', name: 'KYC v2', definition: DEFAULT_JOURNEYS[1]!.definition, publish: true };
    assert.equal((await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: v2 })).json().published_version, 2);
    const second = (await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body })).json();
    assert.equal(second.journey_version, 2);
    assert.deepEqual(
      second.checks.map((c: { type: string }) => c.type),
      ['sanctions_pep', 'risk_score'],
    );
    const old = (await t.call('GET', `/v1/verifications/${first}`, { key: owner.sandboxKey })).json();
    assert.equal(old.journey_version, 1);
    assert.equal(old.checks.length, 5);
  });

  test('a version published by another process (the cached published version is stale) is the one a new session pins', async () => {
    const owner = await t.tenant();
    const v2 = { key: 'kyc_standard', name: 'KYC v2', definition: DEFAULT_JOURNEYS[1]!.definition, publish: true };
    assert.equal((await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: v2 })).json().published_version, 2);
    const a = (await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body })).json();
    assert.equal(a.journey_version, 2); // this process now holds v2 as the published version
    // Another process publishes v1 again: its UPDATE, not this process's publish, so nothing here forgot v2.
    const moved = await t.db.query(
      "UPDATE journeys SET published_version = 1 WHERE account_id = $1 AND environment = 'sandbox' AND key = 'kyc_standard' RETURNING id",
      [owner.accountId],
    );
    assert.equal(moved.length, 1);
    const b = await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body });
    assert.equal(b.statusCode, 201, b.body);
    assert.equal(b.json().journey_version, 1);
    assert.equal(b.json().checks.length, 5);
    // Withdrawn by another process: 400 on the journey, and nothing half-written.
    await t.db.query(
      "UPDATE journeys SET published_version = NULL WHERE account_id = $1 AND environment = 'sandbox' AND key = 'kyc_standard'",
      [owner.accountId],
    );
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE account_id = $1', [owner.accountId]);
    const c = await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body });
    assert.equal(c.statusCode, 400);
    assert.equal(c.json().error.field, 'journey');
    const after = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE account_id = $1', [owner.accountId]);
    assert.equal(after[0]!.n, before[0]!.n);
  });
});

describe('the write path of a session creation (issue 17)', () => {
  // Inside its transaction a keyed session creation reads nothing back: the session's INSERT (with its check that the
  // cached journey version is still published, which raises if not) travels with the message that writes the pending
  // checks, usage, audit and stored response and commits: one message to the database.
  test('a keyed POST sends its statements in one message; after a publish elsewhere it runs again once and replays as stored', async () => {
    const tt = await createTestApp();
    try {
      const owner = await tt.tenant();
      const { seen, during } = countMessages(tt.db);
      const post = (key: string) =>
        tt.call('POST', '/v1/verifications', { key: owner.sandboxKey, body, headers: { 'idempotency-key': key } });
      const first = await post('warm'); // reads and caches the published version
      assert.equal(first.statusCode, 201);
      const res = await during(() => post('one-message-1'));
      assert.equal(res.statusCode, 201, res.body);
      const mine = seen.filter((x) => [...x.alone, ...x.held].some((sql) => sql.includes('INSERT INTO sessions')));
      assert.equal(mine.length, 1);
      assert.deepEqual(mine[0]!.alone, [], 'nothing is sent on its own inside the transaction');
      assert.equal(mine[0]!.held.length, 1, 'the INSERT travels with the committing message');
      const read = (await tt.call('GET', `/v1/verifications/${res.json().id}`, { key: owner.sandboxKey })).json();
      for (const k of ['id', 'status', 'journey_version', 'created_at', 'expires_at', 'checks'] as const)
        assert.deepEqual(read[k], res.json()[k], k);

      // Another process publishes a new version: this process's cached version is stale. The INSERT raises, the whole
      // transaction rolls back, and it runs again (reading the journey) under the same Idempotency-Key.
      const v2 = { key: 'kyc_standard', name: 'KYC v2', definition: DEFAULT_JOURNEYS[1]!.definition, publish: true };
      await tt.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: v2 });
      const onV2 = await post('warm-2'); // this process now holds v2 as the published version
      assert.equal(onV2.json().journey_version, 2);
      await tt.db.query(
        "UPDATE journeys SET published_version = 1 WHERE account_id = $1 AND environment = 'sandbox' AND key = 'kyc_standard'",
        [owner.accountId],
      );
      seen.length = 0;
      const stale = await during(() => post('stale-1'));
      assert.equal(stale.statusCode, 201, stale.body);
      assert.equal(stale.json().journey_version, 1);
      const runs = seen.filter((x) => [...x.alone, ...x.held].some((sql) => sql.includes('INSERT INTO sessions')));
      assert.equal(runs.length, 2, 'the first run rolled back, the second committed');
      const again = await post('stale-1');
      assert.equal(again.statusCode, 201);
      assert.deepEqual(again.json(), stale.json());
      const count = async (sql: string, p: unknown[]) => (await tt.db.query<{ n: number }>(sql, p))[0]!.n;
      // Nothing of the rolled-back run is left: four sessions, each with its audit row, bill and pending checks.
      const made = [first, res, onV2, stale].map((r) => r.json() as { checks: unknown[] });
      assert.equal(await count('SELECT count(*)::int AS n FROM sessions WHERE account_id = $1', [owner.accountId]), 4);
      assert.equal(
        await count("SELECT count(*)::int AS n FROM audit_events WHERE account_id = $1 AND action = 'verification.created'", [
          owner.accountId,
        ]),
        4,
      );
      assert.equal(await count('SELECT count(*)::int AS n FROM usage_records WHERE account_id = $1', [owner.accountId]), 4);
      const checks = made.reduce((n, m) => n + m.checks.length, 0);
      assert.equal(await count('SELECT count(*)::int AS n FROM checks WHERE account_id = $1', [owner.accountId]), checks);
    } finally {
      await tt.close();
    }
  });
});

describe('the journey definition a session pins (issue 17)', () => {
  // A session created on a stored journey version refers to it instead of copying its definition into its row
  // (migration 0051); rows written before keep their own copy, and it is theirs that counts.
  test('stored by reference, unchanged by a later version, and an older row reads its own copy', async () => {
    const owner = await t.tenant();
    const created = await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body });
    assert.equal(created.statusCode, 201, created.body);
    const { id, session_token: token } = created.json() as { id: string; session_token: string };
    const [row] = await t.db.query<{ copied: boolean }>('SELECT definition IS NOT NULL AS copied FROM sessions WHERE id = $1', [id]);
    assert.equal(row!.copied, false, 'no copy of the definition in the session row');
    const steps = async () =>
      ((await t.call('GET', '/capture/v1/session', { key: token })).json() as { steps: { kind: string }[] }).steps.map((x) => x.kind);
    assert.deepEqual(await steps(), ['document_front', 'document_back', 'selfie']);
    // A new published version (screening only: no capture steps) changes nothing for the running session.
    const v2 = { key: 'kyc_standard', name: 'KYC v2', definition: DEFAULT_JOURNEYS[1]!.definition, publish: true };
    assert.equal((await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: v2 })).statusCode, 201);
    assert.deepEqual(await steps(), ['document_front', 'document_back', 'selfie']);
    // A row written before 0051 holds its own copy: that copy is what the session runs on.
    await t.db.query('UPDATE sessions SET definition = $2::jsonb WHERE id = $1', [id, JSON.stringify(DEFAULT_JOURNEYS[1]!.definition)]);
    assert.deepEqual(await steps(), []);
  });
});

describe('GET /v1/verifications/{id} and expiry', () => {
  routeSecurityTests('getVerification', app, {
    method: 'GET',
    url: (id) => `/v1/verifications/${id}`,
    scope: 'verifications:read',
    create,
  });

  test('at expires_at a waiting session reads as expired, the job persists it with its event, and no capture is accepted', async () => {
    const owner = await t.tenant();
    const created = (await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body })).json();
    const id = created.id as string;
    await t.db.query("UPDATE sessions SET expires_at = now() + interval '1 hour' WHERE id = $1", [id]);
    assert.equal((await t.call('GET', `/v1/verifications/${id}`, { key: owner.sandboxKey })).json().status, 'awaiting_subject');
    await t.db.query('UPDATE sessions SET expires_at = now() WHERE id = $1', [id]);
    assert.equal((await t.call('GET', `/v1/verifications/${id}`, { key: owner.sandboxKey })).json().status, 'expired');
    assert.equal((await t.call('GET', '/v1/verifications?status=expired', { key: owner.sandboxKey })).json().data[0]?.id, id);
    await assert.rejects(submitCapture(t.db, owner.ctx(), id), (e: { code?: string }) => e.code === 'conflict');
    await enqueueJob(t.db, 'verifications.expire', {});
    await drain();
    const [row] = await t.db.query<{ status: string; completed_at: Date | null }>(
      'SELECT status, completed_at FROM sessions WHERE id = $1',
      [id],
    );
    assert.equal(row!.status, 'expired');
    assert.ok(row!.completed_at);
    assert.deepEqual(await trail(id), ['created>token_issued>awaiting_subject', 'awaiting_subject>lifetime_elapsed>expired']);
    const ev = await events(id);
    assert.deepEqual(
      ev.map((e) => e.type),
      ['verification.expired'],
    );
    assert.equal(ev[0]!.data.status, 'expired');
    // The session token no longer opens anything once the session's lifetime ended.
    assert.equal(await sessionForToken(t.db, created.session_token), null);
  });

  test('a subject who started capture and did not finish is abandoned', async () => {
    const owner = await t.tenant();
    const id = await create(t, owner);
    await startCapture(t.db, owner.ctx(), id);
    await t.db.query('UPDATE sessions SET expires_at = now() WHERE id = $1', [id]);
    assert.equal((await t.call('GET', `/v1/verifications/${id}`, { key: owner.sandboxKey })).json().status, 'abandoned');
    await enqueueJob(t.db, 'verifications.expire', {});
    await drain();
    assert.deepEqual((await trail(id)).slice(1), [
      'awaiting_subject>capture_started>awaiting_subject',
      'awaiting_subject>lifetime_elapsed_after_capture>abandoned',
    ]);
    assert.equal((await events(id))[0]!.data.status, 'abandoned');
  });
});

describe('transitions under concurrency', () => {
  test('two concurrent moves from the same state: one wins, the other is a conflict, one transition row', async () => {
    const owner = await t.tenant();
    const id = await create(t, owner);
    const results = await Promise.allSettled([submitCapture(t.db, owner.ctx(), id), submitCapture(t.db, owner.ctx(), id)]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    assert.equal(lost.reason.code, 'conflict');
    assert.deepEqual(await trail(id), ['created>token_issued>awaiting_subject', 'awaiting_subject>capture_submitted>processing']);
    const checks = await t.db.query<{ status: string }>('SELECT status FROM checks WHERE session_id = $1', [id]);
    assert.ok(checks.every((c) => c.status === 'processing'));
  });

  test('a sandbox run that arrives after the lifetime ended leaves the session to expire and does not fail', async () => {
    const owner = await t.tenant();
    const id = await create(t, owner, { ...body, subject: { ...body.subject, reference: 'sandbox_abandoned' } });
    await t.db.query('UPDATE sessions SET expires_at = now() WHERE id = $1', [id]);
    await drain();
    const [job] = await t.db.query<{ state: string }>(
      "SELECT state FROM jobs WHERE queue = 'verifications.sandbox_run' AND payload->>'session_id' = $1",
      [id],
    );
    assert.equal(job!.state, 'done');
    assert.equal((await t.call('GET', `/v1/verifications/${id}`, { key: owner.sandboxKey })).json().status, 'expired');
    assert.deepEqual(await trail(id), ['created>token_issued>awaiting_subject']);
  });
});

describe('decisions', () => {
  routeSecurityTests('getVerificationDecision', app, {
    method: 'GET',
    url: (id) => `/v1/verifications/${id}/decision`,
    scope: 'verifications:read',
    create,
  });
  routeSecurityTests('recordVerificationDecision', app, {
    method: 'POST',
    url: (id) => `/v1/verifications/${id}/decision`,
    scope: 'verifications:write',
    create,
    body: { decision: 'approved', reason: 'documents checked by hand' },
    malformed: { body: { decision: 'maybe', reason: 'x' }, field: 'decision' },
  });

  test('before a decision: GET is 409, and a manual decision on an awaiting session is 409 conflict', async () => {
    const owner = await t.tenant();
    const id = await create(t, owner);
    const get = await t.call('GET', `/v1/verifications/${id}/decision`, { key: owner.sandboxKey });
    assert.equal(get.statusCode, 409);
    assert.equal(get.json().error.code, 'conflict');
    const post = await t.call('POST', `/v1/verifications/${id}/decision`, {
      key: owner.sandboxKey,
      body: { decision: 'approved', reason: 'looks fine' },
    });
    assert.equal(post.statusCode, 409);
    assert.equal(post.json().error.code, 'conflict');
    assert.deepEqual(await trail(id), ['created>token_issued>awaiting_subject']);
  });

  test('a referred session sits in the review queue; a manual approval completes it with verification.completed', async () => {
    const owner = await t.tenant();
    const id = await create(t, owner, { ...body, subject: { ...body.subject, reference: 'sandbox_referred' } });
    await drain();
    const before = (await t.call('GET', `/v1/verifications/${id}/decision`, { key: owner.sandboxKey })).json();
    assert.equal(before.decision, 'referred');
    assert.deepEqual(before.reason_codes, ['sanctions_pep_potential_match']);
    const [c] = await t.db.query<{ state: string; reason_code: string }>('SELECT state, reason_code FROM cases WHERE session_id = $1', [
      id,
    ]);
    assert.deepEqual(c, { state: 'open', reason_code: 'sanctions_pep_potential_match' });

    const res = await t.call('POST', `/v1/verifications/${id}/decision`, {
      key: owner.sandboxKey,
      body: { decision: 'approved', reason: 'different person: date of birth differs', reviewer: 'alice@acme.test' },
    });
    assert.equal(res.statusCode, 200);
    const d = res.json();
    assert.equal(d.status, 'approved');
    assert.equal(d.decision, 'approved');
    assert.equal(d.decided_by, 'alice@acme.test');
    assert.equal(d.decided_reason, 'different person: date of birth differs');
    assert.deepEqual(d.reason_codes, ['sanctions_pep_potential_match', 'manual_approved']);
    assert.deepEqual(d.risk, { score: 45, band: 'medium' });
    assert.equal(d.evidence_bundle_url, `/v1/verifications/${id}/evidence`);
    assert.equal((await t.db.query<{ state: string }>('SELECT state FROM cases WHERE session_id = $1', [id]))[0]!.state, 'closed');
    const ev = await events(id);
    assert.deepEqual(
      ev.map((e) => e.type),
      ['verification.referred', 'verification.completed'],
    );
    assert.deepEqual(Object.keys(ev[1]!.data).sort(), ['checks', 'decision', 'evidence_bundle_url', 'id', 'risk', 'subject_reference']);
    assert.equal(ev[1]!.data.decision, 'approved');
    assert.equal(ev[1]!.data.subject_reference, 'sandbox_referred');
    assert.deepEqual((await trail(id)).slice(-2), ['processing>review_required>referred', 'referred>manual_approve>approved']);
    const audit = await t.db.query<{ metadata: { reviewer: string } }>(
      "SELECT metadata FROM audit_events WHERE resource_id = $1 AND action = 'verification.manual_decision'",
      [id],
    );
    assert.equal(audit[0]!.metadata.reviewer, 'alice@acme.test');

    const again = await t.call('POST', `/v1/verifications/${id}/decision`, {
      key: owner.sandboxKey,
      body: { decision: 'declined', reason: 'changed my mind' },
    });
    assert.equal(again.statusCode, 409);
    assert.equal((await events(id)).length, 2);
  });
});
