import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { WebhookDispatcher } from '../../src/modules/webhooks/dispatcher.js';
import { Sealer } from '../../src/platform/crypto.js';

let t: TestApp;
let rx: WebhookReceiver;
/** Receives the security cases' deliveries, so their kept-alive sockets never touch rx's. */
let sink: WebhookReceiver;
let dispatcher: WebhookDispatcher;
before(async () => {
  t = await createTestApp({ config: {} });
  t.config.webhooks = {
    ...t.config.webhooks,
    retryScheduleSeconds: [0.05, 0.05, 0.05],
    timeoutMs: 300,
    disableAfterHours: 0,
    disableMinFailures: 6,
    allowPrivateNetworks: true,
    requireHttps: false,
  };
  dispatcher = new WebhookDispatcher({
    db: t.db,
    sealer: new Sealer(t.config.masterKey),
    config: t.config.webhooks,
    workerId: 'test-worker',
  });
  rx = await new WebhookReceiver().start();
  sink = await new WebhookReceiver().start();
});
after(async () => {
  await rx.close();
  await sink.close();
  await t.close();
});

async function destination(owner: Tenant, body: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/v1/webhooks', { key: owner.sandboxKey, body: { url: rx.url, event_types: ['*'], ...body } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { id: string; secret: string };
}

/** Runs the dispatcher until nothing is due, waiting out short retry delays. */
async function settle(ms = 400) {
  const end = Date.now() + ms;
  do {
    await dispatcher.drain();
    await new Promise((r) => setTimeout(r, 60));
  } while (Date.now() < end);
  await dispatcher.drain();
}

describe('destinations', () => {
  routeSecurityTests('createWebhookDestination', () => t, {
    method: 'POST',
    url: () => '/v1/webhooks',
    scope: 'webhooks:write',
    body: { url: 'https://hooks.example.org/x', event_types: ['*'] },
    malformed: { body: { url: 'https://hooks.example.org/x', event_types: [] }, field: 'event_types' },
  });
  routeSecurityTests('getWebhookDestination', () => t, {
    method: 'GET',
    url: (id) => `/v1/webhooks/${id}`,
    scope: 'webhooks:read',
    create: async (tt, o) =>
      (
        await tt.call('POST', '/v1/webhooks', { key: o.sandboxKey, body: { url: 'https://hooks.example.org/x', event_types: ['*'] } })
      ).json().id,
  });
  routeSecurityTests('rotateWebhookSecret', () => t, {
    method: 'POST',
    url: (id) => `/v1/webhooks/${id}/rotate-secret`,
    scope: 'webhooks:write',
    body: {},
    create: async (tt, o) =>
      (
        await tt.call('POST', '/v1/webhooks', { key: o.sandboxKey, body: { url: 'https://hooks.example.org/x', event_types: ['*'] } })
      ).json().id,
  });
  const makeDestination = async (tt: TestApp, o: Tenant) =>
    (await tt.call('POST', '/v1/webhooks', { key: o.sandboxKey, body: { url: 'https://hooks.example.org/x', event_types: ['*'] } })).json()
      .id as string;
  routeSecurityTests('listWebhookDestinations', () => t, { method: 'GET', url: () => '/v1/webhooks', scope: 'webhooks:read' });
  routeSecurityTests('updateWebhookDestination', () => t, {
    method: 'PATCH',
    url: (id) => `/v1/webhooks/${id}`,
    scope: 'webhooks:write',
    body: { event_types: ['*'] },
    create: makeDestination,
    malformed: { body: { event_types: [] }, field: 'event_types' },
  });
  routeSecurityTests('deleteWebhookDestination', () => t, {
    method: 'DELETE',
    url: (id) => `/v1/webhooks/${id}`,
    scope: 'webhooks:write',
    create: makeDestination,
  });
  routeSecurityTests('sendWebhookTest', () => t, {
    method: 'POST',
    url: (id) => `/v1/webhooks/${id}/test`,
    scope: 'webhooks:write',
    create: makeDestination,
  });
  routeSecurityTests('listWebhookDeliveries', () => t, { method: 'GET', url: () => '/v1/webhook-deliveries', scope: 'webhooks:read' });
  routeSecurityTests('listEvents', () => t, { method: 'GET', url: () => '/v1/events', scope: 'webhooks:read' });
  routeSecurityTests('getEvent', () => t, {
    method: 'GET',
    url: (id) => `/v1/events/${id}`,
    scope: 'webhooks:read',
    create: async (tt, o) =>
      (await tt.call('POST', `/v1/webhooks/${await makeDestination(tt, o)}/test`, { key: o.sandboxKey })).json().event_id,
  });

  test('the secret is shown once, stored sealed, and never returned again', async () => {
    const owner = await t.tenant();
    const d = await destination(owner);
    assert.match(d.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    const got = (await t.call('GET', `/v1/webhooks/${d.id}`, { key: owner.sandboxKey })).json();
    assert.equal(got.secret, undefined);
    const list = (await t.call('GET', '/v1/webhooks', { key: owner.sandboxKey })).json();
    assert.equal(list.data.length, 1);
    const [row] = await t.db.query<{ secret_sealed: string }>('SELECT secret_sealed FROM webhook_destinations WHERE id = $1', [d.id]);
    assert.ok(!row!.secret_sealed.includes(d.secret.slice(6)));
  });

  test('unknown event types, credentials in the URL and non-URLs are refused with the field named', async () => {
    const owner = await t.tenant();
    let res = await t.call('POST', '/v1/webhooks', {
      key: owner.sandboxKey,
      body: { url: rx.url, event_types: ['verification.teleported'] },
    });
    assert.equal(res.json().error.field, 'event_types[0]');
    res = await t.call('POST', '/v1/webhooks', {
      key: owner.sandboxKey,
      body: { url: 'https://u:p@hooks.example.org/', event_types: ['*'] },
    });
    assert.equal(res.json().error.field, 'url');
    res = await t.call('POST', '/v1/webhooks', { key: owner.sandboxKey, body: { url: 'not a url', event_types: ['*'] } });
    assert.equal(res.json().error.field, 'url');
  });

  test('production rules: https only, and no loopback or private addresses unless the operator allows them', async () => {
    const strict = await createTestApp({ config: { webhooks: { ...t.config.webhooks, requireHttps: true, allowPrivateNetworks: false } } });
    try {
      const owner = await strict.tenant();
      let res = await strict.call('POST', '/v1/webhooks', {
        key: owner.productionKey,
        body: { url: 'http://hooks.example.org/', event_types: ['*'] },
      });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error.field, 'url');
      res = await strict.call('POST', '/v1/webhooks', {
        key: owner.productionKey,
        body: { url: 'https://169.254.169.254/latest', event_types: ['*'] },
      });
      assert.equal(res.statusCode, 400);
      res = await strict.call('POST', '/v1/webhooks', {
        key: owner.productionKey,
        body: { url: 'https://hooks.example.org/', event_types: ['*'] },
      });
      assert.equal(res.statusCode, 201);
    } finally {
      await strict.close();
    }
  });

  test('update and delete are audited with a diff', async () => {
    const owner = await t.tenant();
    const d = await destination(owner);
    const res = await t.call('PATCH', `/v1/webhooks/${d.id}`, {
      key: owner.sandboxKey,
      body: { event_types: ['webhook.test'], description: 'ops' },
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().event_types, ['webhook.test']);
    const [audit] = await t.db.query<{ diff: Record<string, { before: unknown; after: unknown }> }>(
      "SELECT diff FROM audit_events WHERE resource_id = $1 AND action = 'webhook_destination.updated'",
      [d.id],
    );
    assert.deepEqual(audit!.diff.event_types, { before: ['*'], after: ['webhook.test'] });
    assert.equal((await t.call('DELETE', `/v1/webhooks/${d.id}`, { key: owner.sandboxKey })).statusCode, 200);
    assert.equal((await t.call('GET', `/v1/webhooks/${d.id}`, { key: owner.sandboxKey })).statusCode, 404);
  });
});

describe('delivery', () => {
  test('a test event arrives signed, with id and timestamp headers, and the attempt is recorded', async () => {
    const owner = await t.tenant();
    const d = await destination(owner);
    rx.secrets = [d.secret];
    rx.behaviour = () => ({ status: 200 });
    const before = rx.received.length;
    const sent = await t.call('POST', `/v1/webhooks/${d.id}/test`, { key: owner.sandboxKey });
    assert.equal(sent.statusCode, 202);
    await settle(100);
    const got = rx.received.slice(before).find((r) => r.event?.id === sent.json().event_id)!;
    assert.ok(got, 'delivered');
    assert.equal(got.verified, true);
    assert.equal(got.event!.type, 'webhook.test');
    assert.equal(got.event!.environment, 'sandbox');
    assert.equal(got.headers['verity-event-id'], sent.json().event_id);
    assert.match(String(got.headers['verity-signature']), /^[0-9a-f]{64}$/);
    assert.ok(Math.abs(Number(got.headers['verity-timestamp']) - Date.now() / 1000) < 30);
    const deliveries = (await t.call('GET', `/v1/webhook-deliveries?event_id=${sent.json().event_id}`, { key: owner.sandboxKey })).json();
    assert.equal(deliveries.data.length, 1);
    assert.equal(deliveries.data[0].state, 'succeeded');
    // The receiver answers 200 at once; only the test's 300 ms timeout on a loaded machine can make an earlier
    // attempt fail (then it is recorded as a timeout without a status, and retried).
    const log = deliveries.data[0].attempt_log as { status_code: number | null; error: string | null; response_excerpt: string }[];
    const last = log[log.length - 1]!;
    assert.equal(last.status_code, 200);
    assert.match(last.response_excerpt, /received #/);
    for (const earlier of log.slice(0, -1)) {
      assert.equal(earlier.status_code, null);
      assert.ok(earlier.error);
    }
  });

  test('500s and timeouts are retried with backoff until a 2xx; every attempt is recorded', async () => {
    const owner = await t.tenant();
    const d = await destination(owner);
    rx.secrets = [d.secret];
    const start = rx.received.length;
    rx.behaviour = (n) => (n - start === 1 ? { status: 500 } : n - start === 2 ? { delayMs: 1000 } : { status: 204 });
    const ev = (await t.call('POST', `/v1/webhooks/${d.id}/test`, { key: owner.sandboxKey })).json().event_id;
    await settle(2500);
    const del = (await t.call('GET', `/v1/webhook-deliveries?event_id=${ev}`, { key: owner.sandboxKey })).json().data[0];
    assert.equal(del.state, 'succeeded', JSON.stringify(del));
    assert.equal(del.attempts, 3);
    assert.deepEqual(
      del.attempt_log.map((a: { status_code: number | null }) => a.status_code),
      [500, null, 204],
    );
    assert.match(del.attempt_log[1].error, /timeout/);
    const stamps = rx.received.slice(start).filter((r) => r.event?.id === ev);
    assert.ok(stamps.every((r) => r.verified));
    assert.equal(new Set(stamps.map((r) => r.event!.delivery.attempt)).size, stamps.length, 'each attempt is numbered');
  });

  test('redirects are not followed', async () => {
    const owner = await t.tenant();
    const d = await destination(owner);
    rx.secrets = [d.secret];
    rx.behaviour = () => ({ status: 302, headers: { location: 'http://169.254.169.254/' } });
    const ev = (await t.call('POST', `/v1/webhooks/${d.id}/test`, { key: owner.sandboxKey })).json().event_id;
    await settle(100);
    const del = (await t.call('GET', `/v1/webhook-deliveries?event_id=${ev}`, { key: owner.sandboxKey })).json().data[0];
    assert.equal(del.attempt_log[0].status_code, 302);
    assert.match(del.attempt_log[0].error, /redirect_not_followed/);
    rx.behaviour = () => ({ status: 200 });
    await settle(300);
  });

  test('during a secret rotation both secrets sign; after the overlap only the new one', async () => {
    const owner = await t.tenant();
    const d = await destination(owner);
    rx.behaviour = () => ({ status: 200 });
    const rotated = (
      await t.call('POST', `/v1/webhooks/${d.id}/rotate-secret`, { key: owner.sandboxKey, body: { overlap_hours: 1 } })
    ).json();
    assert.notEqual(rotated.secret, d.secret);
    assert.ok(rotated.previous_secret_expires_at);
    for (const secrets of [[d.secret], [rotated.secret]]) {
      rx.secrets = secrets;
      const ev = (await t.call('POST', `/v1/webhooks/${d.id}/test`, { key: owner.sandboxKey })).json().event_id;
      await settle(50);
      const got = rx.received.find((r) => r.event?.id === ev)!;
      assert.equal(got.verified, true, `verified with ${secrets[0] === d.secret ? 'old' : 'new'} secret`);
      assert.equal(String(got.headers['verity-signature']).split(',').length, 2);
    }
    await t.db.query("UPDATE webhook_destinations SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1", [d.id]);
    rx.secrets = [d.secret];
    const ev = (await t.call('POST', `/v1/webhooks/${d.id}/test`, { key: owner.sandboxKey })).json().event_id;
    await settle(50);
    const got = rx.received.find((r) => r.event?.id === ev)!;
    assert.equal(got.verified, false, 'the old secret no longer signs');
    assert.equal(String(got.headers['verity-signature']).split(',').length, 1);
  });

  test('a destination that keeps failing is disabled, and an event tells the other destinations', async () => {
    const owner = await t.tenant();
    const bad = await t.call('POST', '/v1/webhooks', {
      key: owner.sandboxKey,
      body: { url: rx.url.replace('/hook', '/bad'), event_types: ['*'] },
    });
    const good = await destination(owner, { event_types: ['webhook_destination.disabled'] });
    rx.secrets = [good.secret];
    rx.behaviour = (_n, body) => (body.includes('"webhook.test"') ? { status: 503 } : { status: 200 });
    for (let i = 0; i < 2; i++) await t.call('POST', `/v1/webhooks/${bad.json().id}/test`, { key: owner.sandboxKey });
    await settle(1500);
    const dest = (await t.call('GET', `/v1/webhooks/${bad.json().id}`, { key: owner.sandboxKey })).json();
    assert.equal(dest.enabled, false);
    assert.match(dest.disabled_reason, /consecutive failed deliveries/);
    const notice = rx.received.find(
      (r) =>
        r.event?.type === 'webhook_destination.disabled' && (r.event.data as { destination_id: string }).destination_id === bad.json().id,
    );
    assert.ok(notice?.verified, 'the disable notice reached the healthy destination, signed');
    const reenabled = await t.call('PATCH', `/v1/webhooks/${bad.json().id}`, { key: owner.sandboxKey, body: { enabled: true } });
    assert.equal(reenabled.json().consecutive_failures, 0);
    rx.behaviour = () => ({ status: 200 });
  });

  test('redelivery sends the same event again as a new delivery', async () => {
    const owner = await t.tenant();
    const d = await destination(owner);
    rx.secrets = [d.secret];
    rx.behaviour = () => ({ status: 200 });
    const ev = (await t.call('POST', `/v1/webhooks/${d.id}/test`, { key: owner.sandboxKey })).json().event_id;
    await settle(50);
    const first = (await t.call('GET', `/v1/webhook-deliveries?destination_id=${d.id}`, { key: owner.sandboxKey })).json().data[0];
    const again = await t.call('POST', `/v1/webhook-deliveries/${first.id}/redeliver`, { key: owner.sandboxKey });
    assert.equal(again.statusCode, 201);
    assert.equal(again.json().redelivery_of, first.id);
    await settle(50);
    assert.equal(rx.received.filter((r) => r.event?.id === ev).length, 2, 'the receiver deduplicates by event id');
    const event = (await t.call('GET', `/v1/events/${ev}`, { key: owner.sandboxKey })).json();
    assert.equal(event.type, 'webhook.test');
    const other = await t.tenant();
    assert.equal((await t.call('GET', `/v1/events/${ev}`, { key: other.sandboxKey })).statusCode, 404);
    assert.equal((await t.call('POST', `/v1/webhook-deliveries/${first.id}/redeliver`, { key: other.sandboxKey })).statusCode, 404);
  });
});

// Last in the file: these deliver to the sink, and nothing of theirs may overlap the delivery tests' timing.
describe('deliveries: shared security cases', () => {
  /** A delivery of a test event to the local sink (the dispatcher fans the event out into it). */
  const makeDelivery = async (tt: TestApp, o: Tenant) => {
    const d = (await tt.call('POST', '/v1/webhooks', { key: o.sandboxKey, body: { url: sink.url, event_types: ['*'] } })).json().id;
    await tt.call('POST', `/v1/webhooks/${d}/test`, { key: o.sandboxKey });
    for (let i = 0; i < 100; i++) {
      await dispatcher.drain();
      const page = (await tt.call('GET', `/v1/webhook-deliveries?destination_id=${d}`, { key: o.sandboxKey })).json();
      // Finished (succeeded or failed) before it is used, so no retry of it competes with later tests' deliveries.
      if (page.data[0] && ['succeeded', 'failed', 'cancelled'].includes(page.data[0].state)) return page.data[0].id as string;
      await new Promise((r) => setTimeout(r, 60));
    }
    throw new Error('the test event was not delivered to a final state');
  };
  routeSecurityTests('getWebhookDelivery', () => t, {
    method: 'GET',
    url: (id) => `/v1/webhook-deliveries/${id}`,
    scope: 'webhooks:read',
    create: makeDelivery,
  });
  routeSecurityTests('redeliverWebhook', () => t, {
    method: 'POST',
    url: (id) => `/v1/webhook-deliveries/${id}/redeliver`,
    scope: 'webhooks:write',
    create: makeDelivery,
  });
});
