import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** No SMTP and no SMS provider configured: the sandbox still exercises contact checks; production says what to set. */
let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

test('sandbox keys get the sandbox channel: nothing is sent, the code is 000000, limits and attempts are real', async () => {
  const o = await t.tenant();
  for (const [channel, destination] of [
    ['email', 'jane@example.org'],
    ['sms', '+447400123456'],
  ] as const) {
    const start = await t.call('POST', '/v1/checks/contact', { key: o.sandboxKey, body: { channel, destination } });
    assert.equal(start.statusCode, 200, start.body);
    const c = start.json();
    assert.equal(c.status, 'pending');
    assert.equal(c.result.provider, 'sandbox');
    const wrong = (await t.call('POST', `/v1/checks/contact/${c.id}/confirm`, { key: o.sandboxKey, body: { code: '123456' } })).json();
    assert.equal(wrong.status, 'pending');
    assert.equal(wrong.result.attempts_left, c.result.attempts_left - 1);
    const ok = (await t.call('POST', `/v1/checks/contact/${c.id}/confirm`, { key: o.sandboxKey, body: { code: '000000' } })).json();
    assert.equal(ok.status, 'passed', JSON.stringify(ok));
  }
});

test('production without a channel is 422 naming what to set; a malformed destination is 400 first', async () => {
  const o = await t.tenant();
  const res = await t.call('POST', '/v1/checks/contact', {
    key: o.productionKey,
    body: { channel: 'email', destination: 'jane@example.org' },
  });
  assert.equal(res.statusCode, 422);
  assert.equal(res.json().error.code, 'check_unavailable');
  assert.match(res.json().error.message, /SMTP_URL/);
  const bad = await t.call('POST', '/v1/checks/contact', { key: o.productionKey, body: { channel: 'email', destination: 'not-an-email' } });
  assert.equal(bad.statusCode, 400, bad.body);
  assert.equal(bad.json().error.field, 'destination');
});
