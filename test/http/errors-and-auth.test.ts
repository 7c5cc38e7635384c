import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { revokeApiKey } from '../../src/platform/api-keys.js';

let t: TestApp;
let owner: Tenant;
before(async () => {
  t = await createTestApp({
    config: { bodyLimitBytes: 4096 },
    extraRoutes: (app) => {
      app.get('/v1/test-crash', { config: { scope: 'lists:read' } }, async () => {
        throw new Error('connection to db-internal.corp:5432 failed for user verity_admin');
      });
    },
  });
  owner = await t.tenant();
});
after(() => t.close());

const entry = { kind: 'name', value: 'Jane Roe', reason: 'test' };

function assertEnvelope(res: { json(): any; headers: Record<string, unknown> }, code: string, field: string | null) {
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'field', 'message', 'request_id']);
  assert.equal(body.error.code, code);
  assert.equal(body.error.field, field);
  assert.equal(body.error.request_id, res.headers['x-request-id']);
  assert.doesNotMatch(JSON.stringify(body), /at .*\.ts:\d+|node_modules|stack/);
}

describe('error envelope for every kind of failure', () => {
  test('unknown route → 404 not_found', async () => {
    const res = await t.call('GET', '/v1/does-not-exist', { key: owner.sandboxKey });
    assert.equal(res.statusCode, 404);
    assertEnvelope(res, 'not_found', null);
  });
  test('wrong method on a known path → 404 not_found', async () => {
    const res = await t.call('PUT', '/v1/lists/blocklist/entries', { key: owner.sandboxKey, body: entry });
    assert.equal(res.statusCode, 404);
    assertEnvelope(res, 'not_found', null);
  });
  test('malformed JSON → 400 with field body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/lists/blocklist/entries',
      headers: { authorization: `Bearer ${owner.sandboxKey}`, 'content-type': 'application/json' },
      payload: '{"kind": ',
    });
    assert.equal(res.statusCode, 400);
    assertEnvelope(res, 'invalid_request', 'body');
  });
  test('an empty body with Content-Type: application/json is "no body": 400 naming body where one is required', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/lists/blocklist/entries',
      headers: { authorization: `Bearer ${owner.sandboxKey}`, 'content-type': 'application/json' },
      payload: '',
    });
    assert.equal(res.statusCode, 400);
    assertEnvelope(res, 'invalid_request', 'body');
  });
  test('prototype-poisoning keys are refused', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/lists/blocklist/entries',
      headers: { authorization: `Bearer ${owner.sandboxKey}`, 'content-type': 'application/json' },
      payload: '{"kind":"name","value":"x","reason":"r","__proto__":{"admin":true}}',
    });
    assert.equal(res.statusCode, 400);
    assertEnvelope(res, 'invalid_request', 'body');
  });
  test('wrong content type → 400 with field Content-Type', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/lists/blocklist/entries',
      headers: { authorization: `Bearer ${owner.sandboxKey}`, 'content-type': 'text/xml' },
      payload: '<a/>',
    });
    assert.equal(res.statusCode, 400);
    assertEnvelope(res, 'invalid_request', 'Content-Type');
  });
  test('oversized body → 400 with field body', async () => {
    const res = await t.call('POST', '/v1/lists/blocklist/entries', {
      key: owner.sandboxKey,
      body: { ...entry, reason: 'x'.repeat(10_000) },
    });
    assert.equal(res.statusCode, 400);
    assertEnvelope(res, 'invalid_request', 'body');
  });
  test('schema failures name the field path', async () => {
    let res = await t.call('POST', '/v1/lists/blocklist/entries', { key: owner.sandboxKey, body: { kind: 'name', value: 'x' } });
    assertEnvelope(res, 'invalid_request', 'reason');
    res = await t.call('POST', '/v1/lists/blocklist/entries', { key: owner.sandboxKey, body: { ...entry, kind: 'planet' } });
    assertEnvelope(res, 'invalid_request', 'kind');
    res = await t.call('POST', '/v1/lists/blocklist/entries', { key: owner.sandboxKey, body: { ...entry, extra: 1 } });
    assertEnvelope(res, 'invalid_request', 'extra');
    res = await t.call('POST', '/v1/lists/greylist/entries', { key: owner.sandboxKey, body: entry });
    assertEnvelope(res, 'invalid_request', 'list');
    res = await t.call('GET', '/v1/lists/blocklist/entries?limit=1000', { key: owner.sandboxKey });
    assertEnvelope(res, 'invalid_request', 'limit');
  });
  test('a JSON number is not silently turned into a string', async () => {
    const res = await t.call('POST', '/v1/lists/blocklist/entries', { key: owner.sandboxKey, body: { ...entry, value: 42 } });
    assert.equal(res.statusCode, 400);
    assertEnvelope(res, 'invalid_request', 'value');
  });
  test('an unexpected failure is a 500 internal_error that leaks nothing internal', async () => {
    const res = await t.call('GET', '/v1/test-crash', { key: owner.sandboxKey });
    assert.equal(res.statusCode, 500);
    assertEnvelope(res, 'internal_error', null);
    assert.doesNotMatch(res.body, /db-internal|verity_admin|5432/);
  });
  test('every response carries X-Request-Id, including successes', async () => {
    const res = await t.call('GET', '/v1/lists/blocklist/entries', { key: owner.sandboxKey });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['x-request-id']), /^req_[0-9a-z]{26}$/);
  });
});

describe('authentication', () => {
  test('a revoked key is refused at once', async () => {
    const key = await owner.keyWith(['lists:read']);
    assert.equal((await t.call('GET', '/v1/lists/blocklist/entries', { key })).statusCode, 200);
    const [row] = await t.db.query<{ id: string }>('SELECT id FROM api_keys WHERE display LIKE $1', [
      `${key.slice(0, 14)}%${key.slice(-4)}`,
    ]);
    await revokeApiKey(t.db, row!.id);
    const res = await t.call('GET', '/v1/lists/blocklist/entries', { key });
    assert.equal(res.statusCode, 401);
    assertEnvelope(res, 'unauthenticated', null);
  });
  test('keys look like sk_sandbox_… and sk_live_…', () => {
    assert.match(owner.sandboxKey, /^sk_sandbox_[0-9A-Za-z]{40}$/);
    assert.match(owner.productionKey, /^sk_live_[0-9A-Za-z]{40}$/);
  });
  test('sandbox and production see only their own data', async () => {
    const made = await t.call('POST', '/v1/lists/blocklist/entries', { key: owner.sandboxKey, body: entry });
    assert.equal(made.statusCode, 201);
    const live = await t.call('GET', '/v1/lists/blocklist/entries', { key: owner.productionKey });
    assert.equal(live.json().data.length, 0);
    const sandbox = await t.call('GET', '/v1/lists/blocklist/entries', { key: owner.sandboxKey });
    assert.ok(sandbox.json().data.some((e: { id: string }) => e.id === made.json().id));
  });
  test('the API key never appears in logs or error bodies', async () => {
    const res = await t.call('GET', '/v1/lists/blocklist/entries', { key: owner.sandboxKey.slice(0, -1) + 'x' });
    assert.ok(!res.body.includes(owner.sandboxKey.slice(11)));
  });
});

describe('public endpoints', () => {
  test('readiness fails with the error envelope when the database is unreachable', async () => {
    const broken = await createTestApp();
    await broken.db.close();
    try {
      const res = await broken.call('GET', '/readyz');
      assert.equal(res.statusCode, 503);
      assertEnvelope(res, 'internal_error', null);
    } finally {
      await broken.close();
    }
  });
  test('health, readiness, metrics and the OpenAPI document', async () => {
    assert.equal((await t.call('GET', '/healthz')).json().status, 'ok');
    const ready = await t.call('GET', '/readyz');
    assert.equal(ready.statusCode, 200);
    const metrics = await t.call('GET', '/metrics');
    assert.match(metrics.body, /verity_http_request_duration_seconds_bucket/);
    assert.match(metrics.body, /route="\/v1\/lists\/:list\/entries"/);
    const doc = (await t.call('GET', '/openapi.json')).json();
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.paths['/v1/lists/{list}/entries'].post);
    assert.ok(doc.components.schemas.Error);
    const docs = await t.call('GET', '/docs/');
    assert.ok([200, 302].includes(docs.statusCode));
  });
});
