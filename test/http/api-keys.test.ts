import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { createOperator, type Role } from '../../src/modules/console/index.js';
import { Sealer } from '../../src/platform/crypto.js';
import { EXTRA_SCOPES, MODULES } from '../../src/platform/scopes.js';
import { readFileSync } from 'node:fs';
import { buildApp } from '../../src/app.js';
import { MemoryRateLimiter } from '../../src/platform/rate-limit.js';

/**
 * /v1/api-keys: the caller's own account and environment; the secret once (a replay only to the same
 * principal); revocation refused at once; no key grants or revokes beyond its own scopes; operators: admin only.
 */
let t: TestApp;
let tenant: Tenant;
before(async () => {
  t = await createTestApp();
  tenant = await t.tenant();
});
after(() => t.close());

const create = (key: string, body: unknown, headers: Record<string, string> = {}) => t.call('POST', '/v1/api-keys', { key, body, headers });
const audits = (id: string) =>
  t.db.query<{ action: string; actor_type: string; actor_id: string }>(
    'SELECT action, actor_type, actor_id FROM audit_events WHERE resource_id = $1 ORDER BY created_at, id',
    [id],
  );

describe('happy path', () => {
  test('a key is made with its scopes, works at once, shows its secret once, and is refused at once after revocation', async () => {
    const res = await create(tenant.sandboxKey, { name: 'CRM sync', scopes: ['verifications:read', 'lists:write'] });
    assert.equal(res.statusCode, 201, res.body);
    const made = res.json();
    assert.match(made.secret, /^sk_sandbox_[0-9A-Za-z]{40}$/);
    assert.equal(made.environment, 'sandbox');
    assert.deepEqual(made.scopes, ['verifications:read', 'lists:write']);
    assert.equal(made.created_by.type, 'api_key');
    assert.ok(made.display.endsWith(made.secret.slice(-4)));
    assert.ok(!made.display.includes(made.secret.slice(11, 30)));

    // The new key works within its scopes and no further.
    assert.equal((await t.call('GET', '/v1/lists/blocklist/entries', { key: made.secret })).statusCode, 200);
    assert.equal((await t.call('GET', '/v1/webhooks', { key: made.secret })).statusCode, 403);

    // The secret is never read back: not by id, not in the list.
    const one = await t.call('GET', `/v1/api-keys/${made.id}`, { key: tenant.sandboxKey });
    assert.equal(one.statusCode, 200);
    assert.equal(one.json().secret, undefined);
    assert.ok(!one.body.includes(made.secret));
    const list = await t.call('GET', '/v1/api-keys?limit=100', { key: tenant.sandboxKey });
    assert.ok(list.json().data.some((k: { id: string }) => k.id === made.id));
    assert.ok(!list.body.includes(made.secret));

    const revoked = await t.call('POST', `/v1/api-keys/${made.id}/revoke`, { key: tenant.sandboxKey });
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.ok(revoked.json().revoked_at);
    const refused = await t.call('GET', '/v1/lists/blocklist/entries', { key: made.secret });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().error.code, 'unauthenticated');

    // Revoking again is a no-op answering the same record; one audit row each, naming the principal.
    const again = await t.call('POST', `/v1/api-keys/${made.id}/revoke`, { key: tenant.sandboxKey });
    assert.equal(again.json().revoked_at, revoked.json().revoked_at);
    const rows = await audits(made.id);
    assert.deepEqual(
      rows.map((r) => r.action),
      ['api_key.created', 'api_key.revoked'],
    );
    assert.ok(rows.every((r) => r.actor_type === 'api_key' && r.actor_id.startsWith('key_')));
  });

  test('a revoked key is refused at once even with a key cache that would hold it for a minute', async () => {
    // createTestApp disables the cache; a second app on the same database keeps lookups for 60 s, as a busy server would.
    const app = await buildApp({
      config: t.config,
      db: t.db,
      rateLimiter: new MemoryRateLimiter(),
      keyCacheTtlMs: 60_000,
      resources: t.resources,
    });
    try {
      await app.ready();
      const owner = await t.tenant();
      const call = (method: string, url: string, key: string, body?: unknown) =>
        app.inject({
          method: method as 'GET',
          url,
          headers: { authorization: `Bearer ${key}` },
          ...(body ? { payload: body as object } : {}),
        });
      const made = (await call('POST', '/v1/api-keys', owner.sandboxKey, { name: 'short-lived', scopes: ['usage:read'] })).json();
      assert.equal((await call('GET', '/v1/usage', made.secret)).statusCode, 200);
      assert.equal((await call('POST', `/v1/api-keys/${made.id}/revoke`, owner.sandboxKey)).statusCode, 200);
      assert.equal((await call('GET', '/v1/usage', made.secret)).statusCode, 401);
    } finally {
      await app.close();
    }
  });

  test('pages newest first with a cursor; only the caller’s account and environment', async () => {
    const own = await t.tenant();
    for (const n of [1, 2, 3]) assert.equal((await create(own.sandboxKey, { name: `k${n}`, scopes: ['usage:read'] })).statusCode, 201);
    const first = (await t.call('GET', '/v1/api-keys?limit=2', { key: own.sandboxKey })).json();
    assert.deepEqual(
      first.data.map((k: { name: string }) => k.name),
      ['k3', 'k2'],
    );
    const rest = (await t.call('GET', `/v1/api-keys?limit=100&cursor=${first.next_cursor}`, { key: own.sandboxKey })).json();
    assert.deepEqual(
      rest.data.map((k: { name: string | null }) => k.name),
      ['k1', null],
    );
    assert.equal(rest.next_cursor, null);
    // The production key sees only production keys.
    const prod = (await t.call('GET', '/v1/api-keys', { key: own.productionKey })).json();
    assert.deepEqual(
      prod.data.map((k: { environment: string }) => k.environment),
      ['production'],
    );
  });

  test('a production principal makes production keys, a sandbox principal sandbox keys only', async () => {
    const res = await create(tenant.productionKey, { name: 'live', scopes: ['usage:read'] });
    assert.equal(res.statusCode, 201, res.body);
    assert.match(res.json().secret, /^sk_live_/);
    assert.equal(res.json().environment, 'production');
    // The body has no environment to ask for: an extra property is refused.
    const sneaky = await create(tenant.sandboxKey, { name: 'x', scopes: ['usage:read'], environment: 'production' });
    assert.equal(sneaky.statusCode, 400);
  });
});

describe('errors and refusals', () => {
  test('an unknown scope is 400 naming scopes', async () => {
    const res = await create(tenant.sandboxKey, { name: 'x', scopes: ['usage:read', 'everything:write'] });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.field, 'scopes');
    assert.match(res.json().error.message, /everything:write/);
  });

  test('no escalation: a key cannot grant a scope it does not hold (403 naming scopes), nor *', async () => {
    const narrow = await tenant.keyWith(['api_keys:write', 'usage:read']);
    assert.equal((await create(narrow, { name: 'ok', scopes: ['usage:read', 'api_keys:read'] })).statusCode, 201);
    for (const scopes of [['webhooks:write'], ['usage:write'], ['*']]) {
      const res = await create(narrow, { name: 'wider', scopes });
      assert.equal(res.statusCode, 403, `${scopes}: ${res.body}`);
      assert.equal(res.json().error.code, 'insufficient_scope');
      assert.equal(res.json().error.field, 'scopes');
    }
    // Nor revoke a key holding more than it does.
    const broad = (await create(tenant.sandboxKey, { name: 'broad', scopes: ['webhooks:write'] })).json();
    const refused = await t.call('POST', `/v1/api-keys/${broad.id}/revoke`, { key: narrow });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().error.field, 'id');
    assert.equal((await t.call('GET', '/v1/webhooks', { key: broad.secret })).statusCode, 200, 'still active');
  });

  test('a key cannot revoke itself (409); another key can', async () => {
    const self = (await create(tenant.sandboxKey, { name: 'self', scopes: ['api_keys:write'] })).json();
    const res = await t.call('POST', `/v1/api-keys/${self.id}/revoke`, { key: self.secret });
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().error.field, 'id');
    assert.equal((await t.call('POST', `/v1/api-keys/${self.id}/revoke`, { key: tenant.sandboxKey })).statusCode, 200);
  });

  test("another tenant's key is 404 for read and revoke", async () => {
    const stranger = await t.tenant();
    const theirs = (await create(stranger.sandboxKey, { name: 'theirs', scopes: ['usage:read'] })).json();
    assert.equal((await t.call('GET', `/v1/api-keys/${theirs.id}`, { key: tenant.sandboxKey })).statusCode, 404);
    assert.equal((await t.call('POST', `/v1/api-keys/${theirs.id}/revoke`, { key: tenant.sandboxKey })).statusCode, 404);
    assert.equal((await t.call('GET', '/v1/usage', { key: theirs.secret })).statusCode, 200, 'untouched');
  });

  test('an idempotent replay gives the secret back to the same principal only', async () => {
    const body = { name: 'replayed', scopes: ['usage:read'] };
    const first = await create(tenant.sandboxKey, body, { 'idempotency-key': 'keys-replay-1' });
    const again = await create(tenant.sandboxKey, body, { 'idempotency-key': 'keys-replay-1' });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body);
    // Another key of the same account with the same Idempotency-Key and body: a mismatch, never the secret.
    const other = await tenant.keyWith(['api_keys:write', 'usage:read']);
    const stolen = await create(other, body, { 'idempotency-key': 'keys-replay-1' });
    assert.equal(stolen.statusCode, 400);
    assert.equal(stolen.json().error.field, 'Idempotency-Key');
    assert.ok(!stolen.body.includes(first.json().secret));
    // The stored response is sealed: the secret is not in the table in clear.
    const rows = await t.db.query<{ body: string }>("SELECT response_body AS body FROM idempotency_keys WHERE key = 'keys-replay-1'");
    assert.ok(rows.length === 1 && !rows[0]!.body.includes(first.json().secret));
  });
});

describe('operators', () => {
  const PASSWORD = 'a long enough password 1';
  const signIn = async (email: string, role: Role) => {
    await createOperator(t.db, new Sealer(t.config.masterKey), {
      accountId: tenant.accountId,
      email,
      password: PASSWORD,
      role,
      totp: false,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/console/api/login',
      headers: { 'content-type': 'application/json' },
      payload: { email, password: PASSWORD, environment: 'sandbox' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const cookie = String(res.headers['set-cookie']).split(';')[0]!;
    const csrf = res.json().csrf_token as string;
    return {
      id: res.json().operator.id as string,
      v1: (method: string, url: string, body?: unknown): Promise<LightMyRequestResponse> =>
        t.app.inject({
          method: method as 'GET',
          url,
          headers: { cookie, 'x-csrf-token': csrf, 'verity-environment': 'sandbox' },
          ...(body !== undefined ? { payload: body as object } : {}),
        }),
    };
  };

  test('an admin makes and revokes keys, audited under the operator; a viewer (and a reviewer) is refused', async () => {
    const admin = await signIn('keys-admin@example.com', 'admin');
    const made = await admin.v1('POST', '/v1/api-keys', { name: 'from the console', scopes: ['usage:read'] });
    assert.equal(made.statusCode, 201, made.body);
    assert.deepEqual(made.json().created_by, { type: 'operator', id: admin.id });
    assert.equal((await admin.v1('POST', `/v1/api-keys/${made.json().id}/revoke`, {})).statusCode, 200);
    const rows = await audits(made.json().id);
    assert.deepEqual(
      rows.map((r) => [r.action, r.actor_type, r.actor_id]),
      [
        ['api_key.created', 'operator', admin.id],
        ['api_key.revoked', 'operator', admin.id],
      ],
    );
    for (const role of ['viewer', 'reviewer'] as const) {
      const op = await signIn(`keys-${role}@example.com`, role);
      for (const [method, url, body] of [
        ['GET', '/v1/api-keys', undefined],
        ['POST', '/v1/api-keys', { name: 'no', scopes: ['usage:read'] }],
        ['POST', `/v1/api-keys/${made.json().id}/revoke`, {}],
      ] as const) {
        const res = await op.v1(method, url, body);
        assert.equal(res.statusCode, 403, `${role} ${method} ${url}: ${res.body}`);
        assert.equal(res.json().error.code, 'insufficient_scope');
      }
    }
  });
});

describe('security cases', () => {
  const makeKey = async (tt: TestApp, o: Tenant) =>
    (await tt.call('POST', '/v1/api-keys', { key: o.sandboxKey, body: { name: 'sec', scopes: ['usage:read'] } })).json().id as string;
  routeSecurityTests('listApiKeys', () => t, { method: 'GET', url: () => '/v1/api-keys', scope: 'api_keys:read' });
  routeSecurityTests('createApiKey', () => t, {
    method: 'POST',
    url: () => '/v1/api-keys',
    scope: 'api_keys:write',
    body: { name: 'sec', scopes: ['usage:read'] },
    malformed: { body: { name: 'sec', scopes: [] }, field: 'scopes' },
  });
  routeSecurityTests('getApiKey', () => t, { method: 'GET', url: (id) => `/v1/api-keys/${id}`, scope: 'api_keys:read', create: makeKey });
  routeSecurityTests('revokeApiKey', () => t, {
    method: 'POST',
    url: (id) => `/v1/api-keys/${id}/revoke`,
    scope: 'api_keys:write',
    create: makeKey,
  });
});

describe('GET /v1/api-keys/scopes', () => {
  routeSecurityTests('listApiKeyScopes', () => t, { method: 'GET', url: () => '/v1/api-keys/scopes', scope: 'api_keys:read' });

  test('the catalogue is the one keys are checked against: each scope it lists is accepted, a near miss is not', async () => {
    const o = await t.tenant();
    const c = (await t.call('GET', '/v1/api-keys/scopes', { key: o.sandboxKey })).json();
    assert.equal(c.object, 'scope_catalogue');
    assert.deepEqual(c.modules, [...MODULES]);
    assert.deepEqual(c.extra, [...EXTRA_SCOPES]);
    assert.deepEqual(c.scopes, [...MODULES.flatMap((m) => [`${m}:read`, `${m}:write`]), ...EXTRA_SCOPES]);
    assert.equal(c.wildcard, '*');
    const all = await create(o.sandboxKey, { name: 'every listed scope', scopes: c.scopes });
    assert.equal(all.statusCode, 201, all.body);
    assert.equal((await create(o.sandboxKey, { name: 'near miss', scopes: ['usage:admin'] })).json().error.field, 'scopes');
  });
});

test('the console takes its scope checkboxes from the API, not from a copy of the catalogue', () => {
  const text = readFileSync('web/console/keys.js', 'utf8');
  assert.match(text, /\/v1\/api-keys\/scopes/);
  assert.doesNotMatch(text, /'verifications'|'api_keys'|rules:publish'/);
});
