import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestApp, Tenant } from './test-app.js';

export interface RouteUnderTest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  /** Builds the URL; for routes on one resource, `create` makes it in the owner tenant first. */
  url: (resourceId: string | null) => string;
  scope: string;
  body?: unknown;
  /** Creates a resource with the owner's sandbox key and returns its id (for resource routes). */
  create?: (t: TestApp, owner: Tenant) => Promise<string>;
  /** A body that fails validation, and the field the error must name. */
  malformed?: { body: unknown; field: string };
}

/**
 * The checks every authenticated route must pass: 401 without or with a bad key, 403 without its
 * scope (naming it), 404 for another tenant's or another environment's resource, 400 with field for a bad body.
 *
 * The first argument is the operation's operationId, as a string literal:
 * `test/http/route-security-coverage.test.ts` reads the literals of every call and checks that each
 * API-key operation of the OpenAPI document has its call, and the first case below checks that the
 * route tested is that operation, so the list can neither miss an operation nor name the wrong one.
 */
export function routeSecurityTests(operationId: string, getApp: () => TestApp, route: RouteUnderTest): void {
  const name = operationId;
  // One owner and one resource per operation, made by the first case that needs them: every case
  // below is a refusal, which writes nothing (a refusal that wrote would show in the next case).
  let prepared: Promise<{ t: TestApp; owner: Tenant; url: string; id: string | null }> | null = null;
  const prepare = () =>
    (prepared ??= (async () => {
      const t = getApp();
      const owner = await t.tenant();
      const id = route.create ? await route.create(t, owner) : null;
      return { t, owner, url: route.url(id), id };
    })());

  test(`${name}: ${route.method} ${route.url('{id}')} is operation ${operationId}`, async () => {
    assert.equal(operationAt(await openApiOf(getApp()), route.method, route.url('x').split('?')[0]!), operationId);
  });

  test(`${name}: missing key → 401 unauthenticated`, async () => {
    const { t, url } = await prepare();
    const res = await t.call(route.method, url, { body: route.body });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error.code, 'unauthenticated');
    assert.ok(res.json().error.request_id);
  });

  test(`${name}: unknown, malformed or revoked key → 401`, async () => {
    const { t, url } = await prepare();
    for (const key of ['sk_sandbox_' + 'A'.repeat(40), 'not-a-key']) {
      const res = await t.call(route.method, url, { key, body: route.body });
      assert.equal(res.statusCode, 401, key);
    }
    const res = await t.call(route.method, url, { headers: { authorization: 'Basic abc' }, body: route.body });
    assert.equal(res.statusCode, 401);
  });

  test(`${name}: key without ${route.scope} → 403 insufficient_scope naming it`, async () => {
    const { t, owner, url } = await prepare();
    // A write route gets its own module's read scope; a read route another module's scopes; a route
    // under an extra scope (rules:publish) its own module's write scope.
    const module = route.scope.split(':')[0]!;
    const other = route.scope.endsWith(':write')
      ? [route.scope.replace(/:write$/, ':read')]
      : route.scope.endsWith(':read')
        ? ['usage', 'lists', 'webhooks'].filter((m) => m !== module).map((m) => `${m}:write`)
        : [`${module}:write`];
    const key = await owner.keyWith(other);
    const res = await t.call(route.method, url, { key, body: route.body });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().error.code, 'insufficient_scope');
    assert.match(res.json().error.message, new RegExp(route.scope.replace(':', ':')));
  });

  if (route.create) {
    test(`${name}: another tenant's resource → 404 not_found`, async () => {
      const { t, url } = await prepare();
      const stranger = await t.tenant();
      const res = await t.call(route.method, url, { key: stranger.sandboxKey, body: route.body });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().error.code, 'not_found');
    });
    test(`${name}: the same account's other environment → 404 not_found`, async () => {
      const { t, owner, url } = await prepare();
      const res = await t.call(route.method, url, { key: owner.productionKey, body: route.body });
      assert.equal(res.statusCode, 404);
    });
  }

  if (route.malformed) {
    const bad = route.malformed;
    test(`${name}: malformed body → 400 invalid_request with field ${bad.field}`, async () => {
      const { t, owner, url } = await prepare();
      const res = await t.call(route.method, url, { key: owner.sandboxKey, body: bad.body });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error.code, 'invalid_request');
      assert.equal(res.json().error.field, bad.field);
    });
  }
}

type OpenApiPaths = { paths: Record<string, Record<string, { operationId?: string }>> };

/** The app's OpenAPI document, fetched once per app (it is the same for every operation checked). */
const documents = new WeakMap<TestApp, Promise<OpenApiPaths>>();
function openApiOf(t: TestApp): Promise<OpenApiPaths> {
  let doc = documents.get(t);
  if (!doc) {
    doc = t.app.inject({ method: 'GET', url: '/openapi.json' }).then((r) => r.json() as OpenApiPaths);
    documents.set(t, doc);
  }
  return doc;
}

/** The operationId serving `method path`: the matching path template with the fewest parameters (literal segments win). */
export function operationAt(doc: OpenApiPaths, method: string, path: string): string | undefined {
  const matches = Object.entries(doc.paths)
    .filter(([template, ops]) => ops[method.toLowerCase()] && templateRegExp(template).test(path))
    .sort(([a], [b]) => a.split('{').length - b.split('{').length);
  return matches[0]?.[1][method.toLowerCase()]?.operationId;
}

function templateRegExp(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
}

export interface CaptureRouteUnderTest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  /** Makes a session in the owner's tenant and returns its session token (the route's credential). */
  session: (t: TestApp, owner: Tenant) => Promise<{ id: string; session_token: string }>;
  body?: Buffer;
  contentType?: string;
  /** A URL whose parameter fails validation, and the field the error must name. */
  malformed?: { url: string; field: string };
}

/**
 * The shared cases of the capture API (the session token is its credential, not an API key): 401
 * without a token, with an unknown or malformed one, with another scheme, with an API key of the
 * session's own account, and with the token of a deleted session; 400 with field for a bad parameter.
 * The capture routes serve one session, named by the token, so there is no other tenant's id to try.
 * The coverage test requires a call for every sessionToken operation, as for API-key operations.
 */
export function captureSecurityTests(operationId: string, getApp: () => TestApp, route: CaptureRouteUnderTest): void {
  const send = (t: TestApp, url: string, authorization: string | null) =>
    t.app.inject({
      method: route.method,
      url,
      headers: {
        ...(authorization ? { authorization } : {}),
        ...(route.body ? { 'content-type': route.contentType ?? 'application/octet-stream' } : {}),
      },
      ...(route.body ? { payload: route.body } : {}),
    });
  const unauthenticated = (res: { statusCode: number; json(): { error: { code: string } } }, what: string) => {
    assert.equal(res.statusCode, 401, what);
    assert.equal(res.json().error.code, 'unauthenticated', what);
  };

  test(`${operationId}: ${route.method} ${route.url} is operation ${operationId}`, async () => {
    assert.equal(operationAt(await openApiOf(getApp()), route.method, route.url), operationId);
  });

  test(`${operationId}: no token, an unknown, malformed or other-scheme token, or an API key → 401`, async () => {
    const t = getApp();
    const owner = await t.tenant();
    await route.session(t, owner); // the account has a live session: the refusals are not for want of one
    unauthenticated(await send(t, route.url, null), 'no token');
    for (const auth of [`Bearer vst_${'A'.repeat(43)}`, 'Bearer not-a-token', 'Basic abc'])
      unauthenticated(await send(t, route.url, auth), auth);
    for (const key of [owner.sandboxKey, owner.productionKey]) unauthenticated(await send(t, route.url, `Bearer ${key}`), 'an API key');
  });

  test(`${operationId}: the token of a deleted session → 401`, async () => {
    const t = getApp();
    const owner = await t.tenant();
    const s = await route.session(t, owner);
    assert.equal((await t.call('DELETE', `/v1/verifications/${s.id}`, { key: owner.sandboxKey })).statusCode, 200);
    unauthenticated(await send(t, route.url, `Bearer ${s.session_token}`), 'a deleted session');
  });

  if (route.malformed) {
    const bad = route.malformed;
    test(`${operationId}: malformed parameter → 400 invalid_request with field ${bad.field}`, async () => {
      const t = getApp();
      const s = await route.session(t, await t.tenant());
      const res = await send(t, bad.url, `Bearer ${s.session_token}`);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().error.code, 'invalid_request');
      assert.equal(res.json().error.field, bad.field);
    });
  }
}
