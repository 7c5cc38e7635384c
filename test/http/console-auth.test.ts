import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { createOperator, type Role } from '../../src/modules/console/index.js';
import { Sealer } from '../../src/platform/crypto.js';

/**
 * Console sign-in over HTTP and /v1 as the signed-in operator: cookie attributes, wrong password,
 * lockout, expiry (injected clock), CSRF and cross-site refusal, environment header, role scopes,
 * and the audit row naming the operator. API keys keep working beside it.
 */
const MIN = 60_000;
let now = new Date('2026-03-01T09:00:00Z');
let t: TestApp;
let tenant: Tenant;
const PASSWORD = 'a long enough password 1';

before(async () => {
  t = await createTestApp({ clock: () => now });
  tenant = await t.tenant();
});
after(() => t.close());

async function operator(email: string, role: Role): Promise<string> {
  const { operator } = await createOperator(t.db, new Sealer(t.config.masterKey), {
    accountId: tenant.accountId,
    email,
    password: PASSWORD,
    role,
    totp: false,
  });
  return operator.id;
}

interface Session {
  cookie: string;
  csrf: string;
  environment: string;
}

const login = (email: string, password = PASSWORD, extra: Record<string, string> = {}, ip = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/console/api/login',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json', ...extra },
    payload: { email, password, environment: 'sandbox' },
  });

async function signIn(email: string): Promise<Session> {
  const res = await login(email);
  assert.equal(res.statusCode, 200, res.body);
  const setCookie = String(res.headers['set-cookie']);
  return { cookie: setCookie.split(';')[0]!, csrf: res.json().csrf_token, environment: res.json().environment };
}

/** A /v1 call as the console makes it: cookie, CSRF header and environment header. */
const v1 = (
  s: Session,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'verity-environment': s.environment, ...headers },
    ...(body !== undefined ? { payload: body as object } : {}),
  });

const envelope = (res: LightMyRequestResponse, status: number, code: string, field?: string | null) => {
  assert.equal(res.statusCode, status, res.body);
  const e = res.json().error;
  assert.equal(e.code, code);
  assert.match(e.request_id, /^req_/);
  if (field !== undefined) assert.equal(e.field, field);
  return e as { message: string };
};

describe('console sign-in', () => {
  test('signs in: HttpOnly, SameSite=Strict cookie; /me names the operator, role and environment', async () => {
    const id = await operator('admin@example.com', 'admin');
    const res = await login('ADMIN@example.com');
    assert.equal(res.statusCode, 200, res.body);
    const cookie = String(res.headers['set-cookie']);
    assert.match(cookie, /^verity_console=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json();
    assert.equal(body.operator.id, id);
    assert.equal(body.environment, 'sandbox');
    // The cookie value is not stored: only its hash.
    const token = cookie.split(';')[0]!.split('=')[1]!;
    assert.equal((await t.db.query('SELECT 1 FROM console_sessions WHERE token_hash = $1', [token])).length, 0);
    const me = await t.app.inject({ method: 'GET', url: '/console/api/me', headers: { cookie: cookie.split(';')[0]! } });
    assert.equal(me.statusCode, 200, me.body);
    assert.equal(me.json().operator.email, 'admin@example.com');
    assert.equal(me.json().csrf_token, body.csrf_token);
  });

  test('a wrong password and an unknown email get the same 401', async () => {
    const a = envelope(await login('admin@example.com', 'not the password'), 401, 'unauthenticated', null);
    const b = envelope(await login('nobody@example.com', 'not the password'), 401, 'unauthenticated', null);
    assert.equal(a.message, b.message);
  });

  test('a strict body: unknown fields and a bad environment are 400 with the field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/console/api/login',
      payload: { email: 'a@example.com', password: 'x', environment: 'staging' },
    });
    envelope(res, 400, 'invalid_request');
  });

  test('locked out after repeated failures: 429 with Retry-After, also for the right password', async () => {
    await operator('locked@example.com', 'viewer');
    for (let i = 0; i < 5; i++) envelope(await login('locked@example.com', `wrong ${i}`, {}, `10.0.0.${i}`), 401, 'unauthenticated');
    const res = await login('locked@example.com', PASSWORD, {}, '10.0.1.1');
    const e = envelope(res, 429, 'rate_limited', null);
    assert.match(e.message, /locked/);
    assert.ok(Number(res.headers['retry-after']) > 0);
  });

  test('a cross-site sign-in (foreign Origin) is refused', async () => {
    envelope(await login('admin@example.com', PASSWORD, { origin: 'https://evil.example' }), 401, 'unauthenticated', 'Origin');
  });
});

describe('/v1 as the signed-in operator', () => {
  test('reads and writes with the role scopes; the audit row names the operator', async () => {
    const id = (await t.db.query<{ id: string }>("SELECT id FROM operators WHERE email = 'admin@example.com'"))[0]!.id;
    const s = await signIn('admin@example.com');
    const made = await v1(s, 'POST', '/v1/lists/blocklist/entries', { kind: 'email', value: 'bad@x.io', reason: 'fraud ring' });
    assert.equal(made.statusCode, 201, made.body);
    const audit = await v1(s, 'GET', `/v1/audit-events?resource_id=${made.json().id}`);
    assert.equal(audit.statusCode, 200, audit.body);
    const row = audit.json().data[0];
    assert.deepEqual(row.actor, { type: 'operator', id });
    // The same row through an API key of the tenant.
    const viaKey = await t.call('GET', `/v1/audit-events?resource_id=${made.json().id}`, { key: tenant.sandboxKey });
    assert.deepEqual(viaKey.json().data[0].actor, { type: 'operator', id });
  });

  test('a viewer can read but not write: 403 naming the scope', async () => {
    await operator('viewer@example.com', 'viewer');
    const s = await signIn('viewer@example.com');
    assert.equal((await v1(s, 'GET', '/v1/lists/blocklist/entries')).statusCode, 200);
    const e = envelope(
      await v1(s, 'POST', '/v1/lists/blocklist/entries', { kind: 'email', value: 'v@x.io', reason: 'x' }),
      403,
      'insufficient_scope',
      null,
    );
    assert.match(e.message, /lists:write/);
  });

  test('without the CSRF token, or from a foreign origin, the cookie does not authenticate', async () => {
    const s = await signIn('admin@example.com');
    const count = async () =>
      (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM list_entries WHERE account_id = $1', [tenant.accountId]))[0]!.n;
    const before = await count();
    const body = { kind: 'email', value: 'csrf@x.io', reason: 'x' };
    envelope(await v1(s, 'POST', '/v1/lists/blocklist/entries', body, { 'x-csrf-token': '' }), 401, 'unauthenticated', 'X-CSRF-Token');
    envelope(
      await v1(s, 'POST', '/v1/lists/blocklist/entries', body, { 'x-csrf-token': 'x'.repeat(43) }),
      401,
      'unauthenticated',
      'X-CSRF-Token',
    );
    // What a cross-site form or fetch would send: the cookie (were SameSite absent) and a foreign Origin.
    const cross = await t.app.inject({
      method: 'POST',
      url: '/v1/lists/blocklist/entries',
      headers: { cookie: s.cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: body,
    });
    envelope(cross, 401, 'unauthenticated', 'Origin');
    const logout = await t.app.inject({ method: 'POST', url: '/console/api/logout', headers: { cookie: s.cookie } });
    envelope(logout, 401, 'unauthenticated', 'X-CSRF-Token');
    assert.equal(await count(), before, 'nothing was written');
  });

  test('the environment header is required and must be the session’s', async () => {
    const s = await signIn('admin@example.com');
    envelope(
      await v1(s, 'GET', '/v1/lists/blocklist/entries', undefined, { 'verity-environment': 'production' }),
      409,
      'conflict',
      'Verity-Environment',
    );
    const missing = await t.app.inject({
      method: 'GET',
      url: '/v1/lists/blocklist/entries',
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrf },
    });
    envelope(missing, 400, 'invalid_request', 'Verity-Environment');
    // Switching moves the session; sandbox data is not visible in production.
    const sw = await t.app.inject({
      method: 'POST',
      url: '/console/api/environment',
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrf },
      payload: { environment: 'production' },
    });
    assert.equal(sw.statusCode, 200, sw.body);
    envelope(await v1(s, 'GET', '/v1/lists/blocklist/entries'), 409, 'conflict', 'Verity-Environment');
    const prod = await v1({ ...s, environment: 'production' }, 'GET', '/v1/lists/blocklist/entries');
    assert.equal(prod.statusCode, 200, prod.body);
    assert.ok(!prod.json().data.some((e: { value: string }) => e.value === 'bad@x.io'));
  });

  test('an idle session expires (injected clock); logout ends a session at once', async () => {
    const s = await signIn('admin@example.com');
    assert.equal((await v1(s, 'GET', '/v1/lists/blocklist/entries')).statusCode, 200);
    now = new Date(now.getTime() + 31 * MIN);
    const e = envelope(await v1(s, 'GET', '/v1/lists/blocklist/entries'), 401, 'unauthenticated', null);
    assert.match(e.message, /inactivity/);

    const s2 = await signIn('admin@example.com');
    const out = await t.app.inject({ method: 'POST', url: '/console/api/logout', headers: { cookie: s2.cookie, 'x-csrf-token': s2.csrf } });
    assert.equal(out.statusCode, 204);
    assert.match(String(out.headers['set-cookie']), /Max-Age=0/);
    envelope(await v1(s2, 'GET', '/v1/lists/blocklist/entries'), 401, 'unauthenticated', null);
  });

  test('API keys work exactly as before, and an Authorization header wins over the cookie', async () => {
    const s = await signIn('viewer@example.com');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/lists/blocklist/entries',
      headers: { cookie: s.cookie, authorization: `Bearer ${tenant.sandboxKey}` },
      payload: { kind: 'email', value: 'key@x.io', reason: 'x' },
    });
    assert.equal(res.statusCode, 201, res.body);
    envelope(await t.call('GET', '/v1/lists/blocklist/entries', { key: 'sk_sandbox_' + 'A'.repeat(40) }), 401, 'unauthenticated');
  });
});

describe('console cookie over https', () => {
  test('PUBLIC_BASE_URL https: the cookie is Secure with the __Host- prefix, and a foreign Origin is refused', async () => {
    const https = await createTestApp({ config: { publicBaseUrl: 'https://verity.example' } });
    try {
      const o = await https.tenant();
      await createOperator(https.db, new Sealer(https.config.masterKey), {
        accountId: o.accountId,
        email: 'tls@example.com',
        password: PASSWORD,
        role: 'viewer',
        totp: false,
      });
      const res = await https.app.inject({
        method: 'POST',
        url: '/console/api/login',
        headers: { origin: 'https://verity.example' },
        payload: { email: 'tls@example.com', password: PASSWORD, environment: 'production' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(
        String(res.headers['set-cookie']),
        /^__Host-verity_console=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/,
      );
      const cookie = String(res.headers['set-cookie']).split(';')[0]!;
      const ok = await https.app.inject({
        method: 'GET',
        url: '/v1/lists/blocklist/entries',
        headers: { cookie, origin: 'https://verity.example', 'x-csrf-token': res.json().csrf_token, 'verity-environment': 'production' },
      });
      assert.equal(ok.statusCode, 200, ok.body);
      const cross = await https.app.inject({
        method: 'GET',
        url: '/v1/lists/blocklist/entries',
        headers: {
          cookie,
          origin: 'https://verity.example.evil.test',
          'x-csrf-token': res.json().csrf_token,
          'verity-environment': 'production',
        },
      });
      envelope(cross, 401, 'unauthenticated', 'Origin');
    } finally {
      await https.close();
    }
  });
});
