import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { purgeExpiredKeys } from '../../src/platform/idempotency.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

const body = { kind: 'phone', value: '+44 20 7946 0000', reason: 'mule account' };
const post = (key: string, idem: string | null, b: unknown = body) =>
  t.call('POST', '/v1/lists/blocklist/entries', { key, body: b, headers: idem ? { 'idempotency-key': idem } : {} });
const count = async (accountId: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM list_entries WHERE account_id = $1', [accountId]))[0]!.n;

test('a replay returns the original response and creates nothing', async () => {
  const o = await t.tenant();
  const first = await post(o.sandboxKey, 'k-1');
  const again = await post(o.sandboxKey, 'k-1');
  assert.equal(first.statusCode, 201);
  assert.equal(again.statusCode, 201);
  assert.equal(again.body, first.body);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.equal(await count(o.accountId), 1);
  const audits = await t.db.query('SELECT 1 FROM audit_events WHERE account_id = $1', [o.accountId]);
  assert.equal(audits.length, 1);
});

test('50 parallel requests with one key create exactly one resource and all see it', async () => {
  const o = await t.tenant();
  const results = await Promise.all(Array.from({ length: 50 }, () => post(o.sandboxKey, 'burst')));
  const ok = results.filter((r) => r.statusCode === 201);
  const conflicts = results.filter((r) => r.statusCode === 409);
  assert.equal(ok.length + conflicts.length, 50, results.map((r) => r.statusCode).join(','));
  assert.equal(new Set(ok.map((r) => r.json().id)).size, 1);
  for (const c of conflicts) assert.equal(c.json().error.field, 'Idempotency-Key');
  assert.equal(await count(o.accountId), 1);
});

test('the same key with a different body is refused with 400 naming Idempotency-Key', async () => {
  const o = await t.tenant();
  await post(o.sandboxKey, 'k-2');
  const res = await post(o.sandboxKey, 'k-2', { ...body, reason: 'different' });
  assert.equal(res.statusCode, 400);
  assert.equal(res.json().error.code, 'invalid_request');
  assert.equal(res.json().error.field, 'Idempotency-Key');
  assert.equal(await count(o.accountId), 1);
});

test('keys are per tenant and per environment', async () => {
  const a = await t.tenant();
  const b = await t.tenant();
  const ra = await post(a.sandboxKey, 'shared');
  const rb = await post(b.sandboxKey, 'shared');
  const rl = await post(a.productionKey, 'shared');
  assert.notEqual(ra.json().id, rb.json().id);
  assert.notEqual(ra.json().id, rl.json().id);
});

test('a key that failed validation stays free for the corrected request', async () => {
  const o = await t.tenant();
  const bad = await t.call('POST', '/v1/lists/allowlist/entries', {
    key: o.sandboxKey,
    body: { kind: 'screening_entity', value: 'x', reason: 'r' },
    headers: { 'idempotency-key': 'k-5' },
  });
  assert.equal(bad.statusCode, 400);
  const good = await t.call('POST', '/v1/lists/allowlist/entries', {
    key: o.sandboxKey,
    body: { kind: 'screening_entity', value: 'x', reason: 'r', subject_reference: 'cus_1' },
    headers: { 'idempotency-key': 'k-5' },
  });
  assert.equal(good.statusCode, 201);
});

test('malformed Idempotency-Key → 400 naming the header', async () => {
  const o = await t.tenant();
  const res = await post(o.sandboxKey, 'x'.repeat(300));
  assert.equal(res.statusCode, 400);
  assert.equal(res.json().error.field, 'Idempotency-Key');
});

test('expired keys are purged and can then be reused', async () => {
  const o = await t.tenant();
  await post(o.sandboxKey, 'old');
  await t.db.query("UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE account_id = $1", [o.accountId]);
  assert.ok((await purgeExpiredKeys(t.db)) >= 1);
  const res = await post(o.sandboxKey, 'old', { ...body, value: '+44 20 7946 0001' });
  assert.equal(res.statusCode, 201);
  assert.equal(await count(o.accountId), 2);
});

test('stored responses are sealed: a secret shown once is replayed, but never kept in clear', async () => {
  const o = await t.tenant();
  const body = { url: 'https://hooks.example.org/verity', event_types: ['*'] };
  const first = await t.call('POST', '/v1/webhooks', { key: o.sandboxKey, body, headers: { 'idempotency-key': 'wh-1' } });
  const again = await t.call('POST', '/v1/webhooks', { key: o.sandboxKey, body, headers: { 'idempotency-key': 'wh-1' } });
  assert.equal(again.json().secret, first.json().secret);
  const [row] = await t.db.query<{ response_body: string }>('SELECT response_body FROM idempotency_keys WHERE account_id = $1', [
    o.accountId,
  ]);
  assert.ok(!row!.response_body.includes(first.json().secret.slice(6)));
});

test('a key held by a request that crashed is taken over once its lease passes', async () => {
  const o = await t.tenant();
  await t.db.query(
    `INSERT INTO idempotency_keys (account_id, environment, key, fingerprint, state, owner, locked_until, expires_at)
     VALUES ($1, 'sandbox', 'crashed', $2, 'running', 'dead-request', now() + interval '1 minute', now() + interval '1 day')`,
    [o.accountId, (await import('../../src/platform/idempotency.js')).requestFingerprint('POST', '/v1/lists/blocklist/entries', body)],
  );
  const busy = await post(o.sandboxKey, 'crashed');
  assert.equal(busy.statusCode, 409, 'still leased');
  assert.equal(busy.headers['retry-after'], '15', 'a 409 says when to retry (at most one lease)');
  await t.db.query("UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = 'crashed'");
  assert.equal((await post(o.sandboxKey, 'crashed')).statusCode, 201);
  assert.equal(await count(o.accountId), 1);
});

test('50 parallel session creations with one key make one session, one bill and one audit row', async () => {
  const o = await t.tenant();
  const session = { journey: 'kyc_standard', subject: { type: 'individual', reference: 'burst-1' } };
  const results = await Promise.all(
    Array.from({ length: 50 }, () =>
      t.call('POST', '/v1/verifications', { key: o.sandboxKey, body: session, headers: { 'idempotency-key': 'burst-session' } }),
    ),
  );
  const ok = results.filter((r) => r.statusCode === 201);
  const conflicts = results.filter((r) => r.statusCode === 409);
  assert.equal(ok.length + conflicts.length, 50, results.map((r) => r.statusCode).join(','));
  assert.equal(new Set(ok.map((r) => r.body)).size, 1, 'every 201 is the one response');
  const n = async (sql: string) => (await t.db.query<{ n: number }>(sql, [o.accountId]))[0]!.n;
  assert.equal(await n('SELECT count(*)::int AS n FROM sessions WHERE account_id = $1'), 1);
  assert.equal(await n("SELECT count(*)::int AS n FROM usage_records WHERE account_id = $1 AND module = 'verifications'"), 1);
  assert.equal(await n("SELECT count(*)::int AS n FROM audit_events WHERE account_id = $1 AND resource_type = 'verification'"), 1);
});
