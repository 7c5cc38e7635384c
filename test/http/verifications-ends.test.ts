import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { buildJobHandlers } from '../../src/jobs/index.js';
import { enqueueJob, JobRunner } from '../../src/platform/jobs.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());
const drain = () => new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources }) }).drain();

test('a session that expires or is abandoned cancels its checks instead of leaving them pending', async () => {
  const o = await t.tenant();
  const make = async (reference: string) =>
    (
      await t.call('POST', '/v1/verifications', {
        key: o.sandboxKey,
        body: { journey: 'kyc_standard', subject: { type: 'individual', reference } },
      })
    ).json().id as string;
  const expired = await make('cust_never_came');
  const abandoned = await make('cust_left');
  await t.db.query('UPDATE sessions SET capture_started_at = now() WHERE id = $1', [abandoned]);
  await t.db.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = ANY($1)", [[expired, abandoned]]);
  await enqueueJob(t.db, 'verifications.expire', {});
  await drain();
  for (const [id, status] of [
    [expired, 'expired'],
    [abandoned, 'abandoned'],
  ] as const) {
    const s = (await t.call('GET', `/v1/verifications/${id}`, { key: o.sandboxKey })).json();
    assert.equal(s.status, status);
    assert.ok(
      s.checks.every((c: { status: string }) => c.status === 'cancelled'),
      JSON.stringify(s.checks.map((c: { status: string }) => c.status)),
    );
  }
});

test('the sandbox_processing subject, which never decides by design, can be deleted', async () => {
  const o = await t.tenant();
  const id = (
    await t.call('POST', '/v1/verifications', {
      key: o.sandboxKey,
      body: { journey: 'kyc_standard', subject: { type: 'individual', reference: 'sandbox_processing' } },
    })
  ).json().id;
  await drain();
  assert.equal((await t.call('GET', `/v1/verifications/${id}`, { key: o.sandboxKey })).json().status, 'processing');
  const del = await t.call('DELETE', `/v1/verifications/${id}`, { key: o.sandboxKey });
  assert.equal(del.statusCode, 200, del.body);
  assert.equal(del.json().status, 'processing');
  assert.ok(del.json().deleted_at);
});
