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
 */
export function routeSecurityTests(name: string, getApp: () => TestApp, route: RouteUnderTest): void {
  const prepare = async () => {
    const t = getApp();
    const owner = await t.tenant();
    const id = route.create ? await route.create(t, owner) : null;
    return { t, owner, url: route.url(id), id };
  };

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
    // A write route gets its own module's read scope; a read route another module's scopes.
    const module = route.scope.split(':')[0]!;
    const other = route.scope.endsWith(':write')
      ? [route.scope.replace(/:write$/, ':read')]
      : ['usage', 'lists', 'webhooks'].filter((m) => m !== module).map((m) => `${m}:write`);
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
