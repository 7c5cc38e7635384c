import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { lookup } from 'node:dns/promises';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { WebhookDispatcher } from '../../src/modules/webhooks/dispatcher.js';
import { Sealer } from '../../src/platform/crypto.js';
import { checkResolvedHost, checkDestinationUrl } from '../../src/platform/net-guard.js';
import { loadConfig } from '../../src/config.js';

/**
 * The webhook guard under the default configuration (no NODE_ENV, no WEBHOOK_* variables): production
 * destinations reach only public https addresses; sandbox ones may reach loopback and private networks;
 * link-local and metadata addresses are refused for both. Refusals are checked without connecting
 * anywhere but loopback: no test sends traffic to any other address.
 */
let t: TestApp;
let rx: WebhookReceiver;
before(async () => {
  const defaults = loadConfig({ MASTER_KEY: '11'.repeat(32), LOG_LEVEL: 'silent' });
  t = await createTestApp({ config: { webhooks: defaults.webhooks } });
  rx = await new WebhookReceiver().start();
});
after(async () => {
  await rx.close();
  await t.close();
});

const create = (key: string, url: string) => t.call('POST', '/v1/webhooks', { key, body: { url, event_types: ['*'] } });

test('the defaults guard production whatever NODE_ENV says', () => {
  for (const env of [{}, { NODE_ENV: 'development' }, { NODE_ENV: 'production' }]) {
    const c = loadConfig({ MASTER_KEY: '11'.repeat(32), ...env });
    assert.equal(c.webhooks.allowPrivateNetworks, false, JSON.stringify(env));
    assert.equal(c.webhooks.requireHttps, true, JSON.stringify(env));
  }
});

test('production keys: loopback, private, metadata and plain http are refused when saved', async () => {
  const o = await t.tenant();
  for (const url of [
    rx.url,
    'https://127.0.0.1/hook',
    'https://10.1.2.3/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::ffff:169.254.169.254]/x',
    'https://[::1]/x',
    'https://localhost/x',
    'http://hooks.example.org/x',
  ]) {
    const res = await create(o.productionKey, url);
    assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
    assert.equal(res.json().error.field, 'url');
  }
  assert.equal((await create(o.productionKey, 'https://hooks.example.org/x')).statusCode, 201);
});

test('sandbox keys may use a local receiver over http, never link-local or metadata', async () => {
  const o = await t.tenant();
  assert.equal((await create(o.sandboxKey, rx.url)).statusCode, 201);
  for (const url of ['http://169.254.169.254/latest/meta-data', 'http://[fe80::1]/x', 'http://0.0.0.0/x']) {
    const res = await create(o.sandboxKey, url);
    assert.equal(res.statusCode, 400, url);
  }
});

test('a name that resolves only to loopback is refused when a production destination is saved', async () => {
  const resolveTo = (addrs: string[]) => async () => addrs;
  assert.match(
    (await checkResolvedHost('https://internal.example.test/x', false, resolveTo(['127.0.0.1'])))!,
    /resolves only to addresses/,
  );
  assert.match(
    (await checkResolvedHost('https://meta.example.test/x', true, resolveTo(['169.254.169.254'])))!,
    /resolves only/,
    'metadata even where private networks are allowed',
  );
  assert.equal(await checkResolvedHost('https://hooks.example.test/x', false, resolveTo(['93.184.216.34'])), null);
  assert.equal(
    await checkResolvedHost('https://nowhere.example.test/x', false, async () => Promise.reject(new Error('ENOTFOUND'))),
    null,
    'an unresolvable name waits for the connection-time guard',
  );
  // The machine's own name resolves through /etc/hosts, usually to a loopback address.
  const own = hostname();
  const addrs = (await lookup(own, { all: true }).catch(() => [])).map((a) => a.address);
  if (addrs.length && addrs.every((a) => /^127\.|^::1$/.test(a))) {
    const o = await t.tenant();
    const res = await create(o.productionKey, `https://${own}/hook`);
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().error.message, /resolves only/);
  }
  assert.equal(
    checkDestinationUrl('https://169.254.169.254/', { requireHttps: true, allowPrivateNetworks: true })?.includes('link-local'),
    true,
  );
});

test('delivery to a production destination that points at loopback is refused at connection time, and no response body is kept', async () => {
  const o = await t.tenant();
  const d = (await create(o.productionKey, 'https://hooks.example.org/x')).json();
  // As if DNS had changed since the destination was saved: it now points at a loopback receiver.
  await t.db.query('UPDATE webhook_destinations SET url = $2 WHERE id = $1', [d.id, rx.url]);
  rx.behaviour = () => ({ status: 200 });
  const before = rx.received.length;
  const ev = (await t.call('POST', `/v1/webhooks/${d.id}/test`, { key: o.productionKey })).json().event_id;
  const dispatcher = new WebhookDispatcher({
    db: t.db,
    sealer: new Sealer(t.config.masterKey),
    config: { ...t.config.webhooks, retryScheduleSeconds: [60] },
    workerId: 'guard-test',
  });
  await dispatcher.drain();
  assert.equal(rx.received.length, before, 'nothing reached the receiver');
  const del = (await t.call('GET', `/v1/webhook-deliveries?event_id=${ev}`, { key: o.productionKey })).json().data[0];
  assert.match(del.attempt_log[0].error, /address_not_allowed/);
  assert.equal(del.attempt_log[0].response_excerpt, null);
});
