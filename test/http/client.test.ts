import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { Verity, VerityConnectionError, VerityError, backoffMs, retryAfterMs } from '../../src/sdk/client.js';

/**
 * verity/client against the real app on a loopback port (typed calls, the error envelope, no retry of
 * 400 and 409), and against a local peer that answers 503 or 429 first (retried with the same
 * Idempotency-Key, Retry-After honoured) or drops the connection (retried for idempotent requests only).
 */

describe('against the app', () => {
  let t: TestApp;
  let tenant: Tenant;
  let baseUrl: string;
  const seen: string[] = [];
  const counting: typeof fetch = (input, init) => {
    seen.push(`${init?.method} ${new URL(String(input)).pathname}`);
    return fetch(input, init);
  };
  before(async () => {
    t = await createTestApp();
    tenant = await t.tenant();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  test('typed calls by operationId, by method and path, and through a namespace', async () => {
    const verity = new Verity({ apiKey: tenant.sandboxKey, baseUrl });
    const made = await verity.request('createApiKey', { body: { name: 'from the client', scopes: ['usage:read'] } });
    assert.match(made.secret, /^sk_sandbox_/);
    const same = await verity.request('GET', '/v1/api-keys/{id}', { path: { id: made.id } });
    assert.equal(same.display, made.display);
    const page = await verity.apiKeys.listApiKeys({ query: { limit: 1 } });
    assert.equal(page.data.length, 1);
    assert.equal(page.data[0]!.id, made.id);
    assert.ok(page.next_cursor);
    // The new key works through the client too.
    const usage = new Verity({ apiKey: made.secret, baseUrl });
    assert.ok(await usage.request('GET', '/v1/usage'));
  });

  test('a 400 is a VerityError with code, field and request id, sent once', async () => {
    const verity = new Verity({ apiKey: tenant.sandboxKey, baseUrl, fetch: counting, retryBaseMs: 1 });
    seen.length = 0;
    const err = await verity.request('createApiKey', { body: { name: 'bad', scopes: ['nope:read'] } }).catch((e: unknown) => e);
    assert.ok(err instanceof VerityError, String(err));
    assert.equal(err.status, 400);
    assert.equal(err.code, 'invalid_request');
    assert.equal(err.field, 'scopes');
    assert.match(err.requestId ?? '', /^req_/);
    assert.equal(err.envelope?.error.field, 'scopes');
    assert.deepEqual(seen, ['POST /v1/api-keys']);
  });

  test('a 409 is not retried', async () => {
    const own = await new Verity({ apiKey: tenant.sandboxKey, baseUrl }).request('createApiKey', {
      body: { name: 'self', scopes: ['api_keys:write'] },
    });
    const verity = new Verity({ apiKey: own.secret, baseUrl, fetch: counting, retryBaseMs: 1 });
    seen.length = 0;
    const err = await verity.apiKeys.revokeApiKey({ path: { id: own.id } }).catch((e: unknown) => e);
    assert.ok(err instanceof VerityError);
    assert.equal(err.status, 409);
    assert.equal(seen.length, 1);
  });
});

describe('retries against a local peer', () => {
  let peer: Server;
  let baseUrl: string;
  let script: ((req: IncomingMessage, res: ServerResponse) => void)[] = [];
  const got: { method: string; url: string; key: string | undefined; body: string; at: number }[] = [];
  before(async () => {
    peer = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        got.push({ method: req.method!, url: req.url!, key: req.headers['idempotency-key'] as string | undefined, body, at: Date.now() });
        (script.shift() ?? ((_q, r) => r.writeHead(500).end()))(req, res);
      });
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => peer.close(() => resolve())));
  const reset = (...steps: typeof script) => {
    script = steps;
    got.length = 0;
  };
  const json =
    (status: number, body: unknown, headers: Record<string, string> = {}) =>
    (_q: IncomingMessage, r: ServerResponse) =>
      r.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const envelope = (code: string, field: string | null = null) => ({ error: { code, message: code, field, request_id: 'req_peer' } });
  const created = { id: 'key_1', object: 'api_key', secret: 'sk_sandbox_x' };
  const client = (o: Partial<ConstructorParameters<typeof Verity>[0]> = {}) =>
    new Verity({ apiKey: 'sk_sandbox_' + 'A'.repeat(40), baseUrl, retryBaseMs: 1, ...o });

  test('503 then 201: the POST is retried with the same Idempotency-Key and body', async () => {
    reset(json(503, envelope('service_unavailable')), json(201, created));
    const r = await client().request('createApiKey', { body: { name: 'n', scopes: ['usage:read'] } });
    assert.equal(r.id, 'key_1');
    assert.equal(got.length, 2);
    assert.ok(got[0]!.key && got[0]!.key.length >= 16);
    assert.equal(got[1]!.key, got[0]!.key);
    assert.equal(got[1]!.body, got[0]!.body);
  });

  test('429 with Retry-After: waits that long, then retries with the same key; a key of the caller’s own is used', async () => {
    reset(json(429, envelope('rate_limited'), { 'retry-after': '1' }), json(201, created));
    await client().request('createApiKey', { body: { name: 'n', scopes: ['usage:read'] }, idempotencyKey: 'mine-1' });
    assert.deepEqual(
      got.map((g) => g.key),
      ['mine-1', 'mine-1'],
    );
    assert.ok(got[1]!.at - got[0]!.at >= 900, `waited ${got[1]!.at - got[0]!.at} ms`);
  });

  test('400 and 409 are never retried; 5xx gives up after maxRetries with the envelope', async () => {
    for (const status of [400, 409]) {
      reset(json(status, envelope(status === 400 ? 'invalid_request' : 'conflict', 'scopes')), json(201, created));
      const err = await client()
        .request('createApiKey', { body: { name: 'n', scopes: ['usage:read'] } })
        .catch((e: unknown) => e);
      assert.ok(err instanceof VerityError);
      assert.equal(err.status, status);
      assert.equal(err.field, 'scopes');
      assert.equal(got.length, 1, `${status} sent once`);
    }
    reset(json(502, envelope('internal_error')), json(503, envelope('internal_error')), json(500, envelope('internal_error')));
    const err = await client({ maxRetries: 2 })
      .request('GET', '/v1/api-keys')
      .catch((e: unknown) => e);
    assert.ok(err instanceof VerityError);
    assert.equal(err.status, 500);
    assert.equal(got.length, 3);
    assert.equal(got[0]!.key, undefined, 'a GET carries no Idempotency-Key');
  });

  test('a dropped connection is retried for a GET and a POST, never for a PATCH', async () => {
    const drop = (_q: IncomingMessage, r: ServerResponse) => r.socket?.destroy();
    reset(drop, json(200, { data: [], next_cursor: null }));
    assert.deepEqual(await client().request('listApiKeys'), { data: [], next_cursor: null });
    assert.equal(got.length, 2);
    reset(drop, json(201, created));
    await client().request('createApiKey', { body: { name: 'n', scopes: ['usage:read'] } });
    assert.equal(got[1]!.key, got[0]!.key);
    reset(drop, json(200, {}));
    const err = await client()
      .request('PATCH', '/v1/webhooks/{id}', { path: { id: 'wh_1' }, body: { enabled: false } })
      .catch((e: unknown) => e);
    assert.ok(err instanceof VerityConnectionError, String(err));
    assert.equal(got.length, 1);
  });

  test('a slow answer times out and is retried', async () => {
    reset(
      (_q, r) => setTimeout(() => r.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 500),
      json(200, { data: [], next_cursor: null }),
    );
    const r = await client({ timeoutMs: 100 }).request('listApiKeys');
    assert.deepEqual(r, { data: [], next_cursor: null });
  });
});

test('Retry-After in seconds or as a date; backoff grows and stays under its cap', () => {
  assert.equal(retryAfterMs('2'), 2000);
  assert.equal(retryAfterMs(new Date(Date.now() + 5000).toUTCString(), Date.now()) !== null, true);
  assert.equal(retryAfterMs('soon'), null);
  assert.equal(retryAfterMs(null), null);
  assert.equal(
    backoffMs(3, 100, 10_000, () => 0.999),
    799,
  );
  assert.equal(
    backoffMs(10, 100, 1000, () => 0.5),
    500,
  );
  assert.equal(
    backoffMs(0, 100, 1000, () => 0),
    0,
  );
});
