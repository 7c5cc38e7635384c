import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';

let t: TestApp;
let tenant: Tenant;
before(async () => {
  t = await createTestApp();
  tenant = await t.tenant();
});
after(() => t.close());

const err = (res: { json(): unknown }) => (res.json() as { error: { code: string; message: string; field: string | null } }).error;

test('a NUL character in a path id, a query value or a body string is a 400 naming the field', async () => {
  let res = await t.call('GET', `/v1/webhooks/${encodeURIComponent('wh_\u0000')}`, { key: tenant.sandboxKey });
  assert.equal(res.statusCode, 400);
  assert.equal(err(res).field, 'id');
  res = await t.call('GET', '/v1/verifications?status=%00', { key: tenant.sandboxKey });
  assert.equal(res.statusCode, 400);
  assert.equal(err(res).field, 'status');
  res = await t.call('POST', '/v1/lists/blocklist/entries', {
    key: tenant.sandboxKey,
    body: { kind: 'email', value: 'a\u0000@example.org', reason: 'x' },
  });
  assert.equal(res.statusCode, 400);
  assert.equal(err(res).field, 'value');
  assert.match(err(res).message, /NUL/);
});

test('__proto__ in a body is refused by name, not as "not valid JSON"', async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/lists/blocklist/entries',
    headers: { authorization: `Bearer ${tenant.sandboxKey}`, 'content-type': 'application/json' },
    payload: '{"kind":"email","value":"a@example.org","__proto__":{"admin":true}}',
  });
  assert.equal(res.statusCode, 400);
  assert.equal(err(res).field, 'body');
  assert.match(err(res).message, /__proto__/);
});

test('a value outside a choice lists the allowed values', async () => {
  const res = await t.call('POST', '/v1/lists/blocklist/entries', {
    key: tenant.sandboxKey,
    body: { kind: 'nonsense', value: 'x', reason: 'y' },
  });
  assert.equal(res.statusCode, 400);
  assert.equal(err(res).field, 'kind');
  assert.match(err(res).message, /must be one of: .*email/);
  assert.doesNotMatch(err(res).message, /equal to constant/);
});

test('an unknown country code is a 400, a known one passes validation', async () => {
  const base = { journey: 'kyc_standard', subject: { type: 'individual', reference: 'cust_1' } };
  let res = await t.call('POST', '/v1/verifications', {
    key: tenant.sandboxKey,
    body: { ...base, subject: { ...base.subject, country: 'QQ' } },
  });
  assert.equal(res.statusCode, 400);
  assert.equal(err(res).field, 'subject.country');
  assert.match(err(res).message, /ISO 3166-1/);
  res = await t.call('POST', '/v1/checks/screening', { key: tenant.sandboxKey, body: { name: 'Jane Doe', country: 'Atlantis' } });
  assert.equal(res.statusCode, 400);
  assert.equal(err(res).field, 'country');
  res = await t.call('POST', '/v1/checks/screening', { key: tenant.sandboxKey, body: { name: 'Jane Doe', country: 'Germany' } });
  assert.equal(res.statusCode, 200);
});

test('an operation without a body refuses one, but accepts none or {}', async () => {
  const wh = await t.call('POST', '/v1/webhooks', {
    key: tenant.sandboxKey,
    body: { url: 'https://example.org/hook', event_types: ['verification.completed'] },
  });
  assert.equal(wh.statusCode, 201, wh.body);
  const id = (wh.json() as { id: string }).id;
  let res = await t.call('POST', `/v1/webhooks/${id}/test`, { key: tenant.sandboxKey, body: { event: 'verification.completed' } });
  assert.equal(res.statusCode, 400);
  assert.equal(err(res).field, 'body');
  res = await t.call('POST', `/v1/webhooks/${id}/test`, { key: tenant.sandboxKey, body: {} });
  assert.equal(res.statusCode, 202, res.body);
});

test('an unknown route answers 404 in the envelope with the rate-limit headers, with or without a key', async () => {
  for (const key of [tenant.sandboxKey, null]) {
    const res = await t.call('GET', '/v1/no-such-thing', { key });
    assert.equal(res.statusCode, 404);
    assert.equal(err(res).code, 'not_found');
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
      assert.ok(res.headers[h], `${h} (key: ${key ? 'yes' : 'no'})`);
  }
});

test('a date-time with a leap second (23:59:60) is a 400 naming the field, not a 500', async () => {
  // RFC 3339 allows second 60 and the JSON Schema format passed it; JavaScript's Date cannot hold it, so the
  // list entry's expiry and the rules sample's time used to fail after validation.
  let res = await t.call('POST', '/v1/lists/blocklist/entries', {
    key: tenant.sandboxKey,
    body: { kind: 'email', value: 'leap@example.org', reason: 'x', expires_at: '2030-06-30T23:59:60Z' },
  });
  assert.equal(res.statusCode, 400);
  assert.equal(err(res).field, 'expires_at');
  res = await t.call('POST', '/v1/transactions', {
    key: tenant.sandboxKey,
    body: {
      reference: 'leap-1',
      occurred_at: '2016-12-31T23:59:60Z',
      amount: '1.00',
      currency: 'EUR',
      direction: 'out',
      type: 'transfer',
      subject: { reference: 'cust-leap' },
    },
  });
  assert.equal(res.statusCode, 400);
  assert.equal(err(res).field, 'occurred_at');
  res = await t.call('POST', '/v1/rules/validate', {
    key: tenant.sandboxKey,
    body: { expression: 'true', sample: { tx: { amount: '1', currency: 'EUR', occurred_at: '2016-12-31T23:59:60Z' } } },
  });
  assert.equal(res.statusCode, 400);
  assert.equal(err(res).field, 'sample.tx.occurred_at');
});

test('a rules sample amount with more digits than a decimal holds is a 400 naming it, not a 500', async () => {
  // The pattern allows 30 integer and 18 fraction digits; the engine's decimals hold 30 digits in all.
  const amount = `${'9'.repeat(30)}.5`;
  let res = await t.call('POST', '/v1/rules/validate', {
    key: tenant.sandboxKey,
    body: { expression: 'true', sample: { tx: { amount, currency: 'EUR', occurred_at: '2026-01-31T12:00:00Z' } } },
  });
  assert.equal(res.statusCode, 400);
  assert.equal(err(res).field, 'sample.tx.amount');
  res = await t.call('POST', '/v1/rules/validate', {
    key: tenant.sandboxKey,
    body: {
      expression: 'true',
      sample: { tx: { amount: '1', currency: 'EUR', occurred_at: '2026-01-31T12:00:00Z', balance_before: `-${'1'.repeat(25)}.123456` } },
    },
  });
  assert.equal(res.statusCode, 400);
  assert.equal(err(res).field, 'sample.tx.balance_before');
});
