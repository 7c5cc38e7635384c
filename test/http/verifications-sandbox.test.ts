import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { buildJobHandlers } from '../../src/jobs/index.js';
import { enqueueJob, JobRunner } from '../../src/platform/jobs.js';
import { SANDBOX_SHORT_LIFETIME_SECONDS, SANDBOX_SUBJECTS } from '../../src/modules/verifications/sandbox.js';
import { SESSION_STATES } from '../../src/modules/verifications/state-machine.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());
const app = () => t;

const body = (reference: string, journey = 'kyc_standard') => ({ journey, subject: { type: 'individual', reference, country: 'DE' } });
const drain = () => new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources }) }).drain();
const eventTypes = async (id: string) =>
  (await t.db.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1 ORDER BY id', [id])).map((e) => e.type);
const endLifetimes = (ids: string[]) => t.db.query('UPDATE sessions SET expires_at = now() WHERE id = ANY($1::text[])', [ids]);

describe('GET /v1/sandbox/subjects', () => {
  routeSecurityTests('listSandboxSubjects', app, { method: 'GET', url: () => '/v1/sandbox/subjects', scope: 'verifications:read' });

  test('lists a subject for every one of the eight states; production keys get 404', async () => {
    const owner = await t.tenant();
    const res = await t.call('GET', '/v1/sandbox/subjects', { key: owner.sandboxKey });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      new Set(res.json().data.map((s: { reference: string }) => s.reference.replace('sandbox_', ''))),
      new Set(SESSION_STATES),
    );
    const prod = await t.call('GET', '/v1/sandbox/subjects', { key: owner.productionKey });
    assert.equal(prod.statusCode, 404);
  });
});

describe('sandbox forced outcomes', () => {
  test('each subject reaches its state through the real transitions and emits its events', async () => {
    const owner = await t.tenant();
    const ids: Record<string, string> = {};
    for (const s of SANDBOX_SUBJECTS) {
      const res = await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body: body(s.reference) });
      assert.equal(res.statusCode, 201, s.reference);
      assert.equal(res.json().status, 'awaiting_subject');
      ids[s.reference] = res.json().id;
      if (s.reaches === 'expired' || s.reaches === 'abandoned') {
        const lifetime = Date.parse(res.json().expires_at) - Date.parse(res.json().created_at);
        assert.ok(Math.abs(lifetime - SANDBOX_SHORT_LIFETIME_SECONDS * 1000) < 1000, `${s.reference} lifetime ${lifetime}`);
      }
    }
    await drain();
    await endLifetimes([ids.sandbox_expired!, ids.sandbox_abandoned!]);
    await enqueueJob(t.db, 'verifications.expire', {});
    await drain();
    for (const s of SANDBOX_SUBJECTS) {
      const got = (await t.call('GET', `/v1/verifications/${ids[s.reference]}`, { key: owner.sandboxKey })).json();
      assert.equal(got.status, s.reaches, s.reference);
    }
    const statuses = async (ref: string) =>
      (await t.call('GET', `/v1/verifications/${ids[ref]}`, { key: owner.sandboxKey }))
        .json()
        .checks.map((c: { type: string; status: string }) => `${c.type}:${c.status}`);
    assert.deepEqual(await statuses('sandbox_approved'), [
      'document:passed',
      'liveness:passed',
      'face_match:passed',
      'sanctions_pep:no_match',
      'risk_score:passed',
    ]);
    assert.deepEqual(await statuses('sandbox_declined'), [
      'document:failed',
      'liveness:passed',
      'face_match:passed',
      'sanctions_pep:no_match',
      'risk_score:passed',
    ]);
    assert.ok((await statuses('sandbox_processing')).every((x: string) => x.endsWith(':processing')));

    const declined = (await t.call('GET', `/v1/verifications/${ids.sandbox_declined}/decision`, { key: owner.sandboxKey })).json();
    assert.deepEqual(
      [declined.decision, declined.reason_codes, declined.risk],
      ['declined', ['document_failed'], { score: 60, band: 'medium' }],
    );
    const approved = (await t.call('GET', `/v1/verifications/${ids.sandbox_approved}/decision`, { key: owner.sandboxKey })).json();
    assert.deepEqual(
      [approved.decision, approved.reason_codes, approved.risk, approved.decided_by],
      ['approved', [], { score: 0, band: 'low' }, 'system'],
    );

    assert.deepEqual(await eventTypes(ids.sandbox_approved!), ['verification.completed']);
    assert.deepEqual(await eventTypes(ids.sandbox_declined!), ['verification.completed']);
    assert.deepEqual(await eventTypes(ids.sandbox_referred!), ['verification.referred']);
    assert.deepEqual(await eventTypes(ids.sandbox_expired!), ['verification.expired']);
    assert.deepEqual(await eventTypes(ids.sandbox_abandoned!), ['verification.expired']);
    assert.deepEqual(await eventTypes(ids.sandbox_processing!), []);
    const trail = (await t.call('GET', `/v1/verifications/${ids.sandbox_approved}`, { key: owner.sandboxKey })).json().transitions;
    assert.deepEqual(
      trail.map((r: { from: string; event: string; to: string }) => `${r.from}>${r.event}>${r.to}`),
      [
        'created>token_issued>awaiting_subject',
        'awaiting_subject>capture_started>awaiting_subject',
        'awaiting_subject>capture_submitted>processing',
        'processing>checks_passed>approved',
      ],
    );
    assert.match(trail[0].actor, /^api_key:key_/);
    assert.equal(trail[3].actor, 'system:system');
  });

  test("the journey's own rules decide: screening-only journeys decline on a match", async () => {
    const owner = await t.tenant();
    const id = (
      await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body: body('sandbox_declined', 'kyc_screening_only') })
    ).json().id;
    await drain();
    const d = (await t.call('GET', `/v1/verifications/${id}/decision`, { key: owner.sandboxKey })).json();
    assert.deepEqual([d.decision, d.reason_codes, d.risk.band], ['declined', ['sanctions_pep_match', 'risk_band_high'], 'high']);
  });

  test('production never forces an outcome: the same reference simply waits on the subject', async () => {
    const owner = await t.tenant();
    const res = (await t.call('POST', '/v1/verifications', { key: owner.productionKey, body: body('sandbox_approved') })).json();
    await drain();
    const got = (await t.call('GET', `/v1/verifications/${res.id}`, { key: owner.productionKey })).json();
    assert.equal(got.status, 'awaiting_subject');
    assert.equal(got.sandbox_outcome, null);
    assert.equal(
      (await t.db.query("SELECT 1 FROM jobs WHERE queue = 'verifications.sandbox_run' AND payload->>'session_id' = $1", [res.id])).length,
      0,
    );
  });
});

describe('GET /v1/verifications', () => {
  routeSecurityTests('listVerifications', app, { method: 'GET', url: () => '/v1/verifications', scope: 'verifications:read' });

  test('filters by status, journey, decision and created range; pages with a cursor', async () => {
    const owner = await t.tenant();
    const make = async (ref: string, journey?: string) =>
      (await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body: body(ref, journey) })).json().id as string;
    const a = await make('sandbox_approved');
    const d = await make('sandbox_declined');
    const r = await make('sandbox_referred', 'kyc_screening_only');
    const w1 = await make('plain_1');
    await t.db.query("UPDATE sessions SET created_at = now() - interval '2 days' WHERE id = $1", [w1]);
    const w2 = await make('plain_2', 'kyc_screening_only');
    await drain();
    const ids = async (q: string) =>
      (await t.call('GET', `/v1/verifications?${q}`, { key: owner.sandboxKey })).json().data.map((s: { id: string }) => s.id);
    assert.deepEqual(await ids('status=approved'), [a]);
    assert.deepEqual(await ids('status=awaiting_subject'), [w2, w1]);
    assert.deepEqual(await ids('journey=kyc_screening_only'), [w2, r]);
    assert.deepEqual(await ids('decision=declined'), [d]);
    assert.deepEqual(await ids('decision=referred&journey=kyc_screening_only'), [r]);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    assert.deepEqual(await ids(`created_lt=${encodeURIComponent(yesterday)}`), [w1]);
    assert.deepEqual((await ids(`created_gte=${encodeURIComponent(yesterday)}`)).length, 4);
    const bad = await t.call('GET', '/v1/verifications?status=lost', { key: owner.sandboxKey });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.field, 'status');
    const badDate = await t.call('GET', '/v1/verifications?created_gte=yesterday', { key: owner.sandboxKey });
    assert.equal(badDate.json().error.field, 'created_gte');

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string }[]; next_cursor: string | null } = (
        await t.call('GET', `/v1/verifications?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: owner.sandboxKey })
      ).json();
      assert.ok(page.data.length <= 2);
      seen.push(...page.data.map((s) => s.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, [w2, w1, r, d, a]);
  });
});
