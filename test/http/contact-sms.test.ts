import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'test-auth-token';
const FROM = '+15005550006';
/** Numbers the peer treats specially: a 503 (transient) and Twilio error 21211 (invalid To, permanent). */
const DOWN = '+447400123666';
const REFUSED = '+447400123777';

interface Sms {
  to: string;
  from: string;
  body: string;
}

/**
 * A local peer speaking the Twilio Messages API shape: POST /2010-04-01/Accounts/{sid}/Messages.json,
 * HTTP basic auth, form-encoded To/From/Body, 201 with a message resource; refuses anything else.
 */
async function startTwilioPeer(): Promise<{ server: Server; url: string; sent: Sms[]; refusals: string[] }> {
  const sent: Sms[] = [];
  const refusals: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const expectedAuth = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
      if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${SID}/Messages.json`) {
        refusals.push(`path ${req.url}`);
        return reply(404, { code: 20404, message: 'not found' });
      }
      if (req.headers.authorization !== expectedAuth) {
        refusals.push('auth');
        return reply(401, { code: 20003, message: 'Authenticate' });
      }
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
        refusals.push('content-type');
        return reply(400, { code: 21000 });
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const to = form.get('To') ?? '';
      if (!/^\+[1-9]\d{6,14}$/.test(to) || form.get('From') !== FROM || !form.get('Body')) {
        refusals.push('form');
        return reply(400, { code: 21604, message: 'bad form' });
      }
      if (to === DOWN) return reply(503, { code: 20500, message: 'Service unavailable' });
      if (to === REFUSED) return reply(400, { code: 21211, message: "The 'To' number is not a valid phone number." });
      sent.push({ to, from: form.get('From')!, body: form.get('Body')! });
      reply(201, { sid: `SM${String(sent.length).padStart(32, '0')}`, status: 'queued', to });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent, refusals };
}

let peer: Awaited<ReturnType<typeof startTwilioPeer>>;
let t: TestApp;
before(async () => {
  peer = await startTwilioPeer();
  t = await createTestApp({
    env: {
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM: FROM,
      TWILIO_BASE_URL: peer.url,
      CONTACT_DEFAULT_COUNTRY: 'GB',
    },
  });
});
after(async () => {
  await t.close();
  await new Promise<void>((resolve) => peer.server.close(() => resolve()));
});

const start = (o: Tenant, destination: string) =>
  t.call('POST', '/v1/checks/contact', { key: o.sandboxKey, body: { channel: 'sms', destination } });
const confirm = (o: Tenant, id: string, code: string) =>
  t.call('POST', `/v1/checks/contact/${id}/confirm`, { key: o.sandboxKey, body: { code } });
const smsTo = (to: string) => peer.sent.filter((s) => s.to === to);
let n = 100;
const mobile = () => `+4474001${String(++n).padStart(5, '0')}`;

test('SMS end to end through the Twilio-shaped API: national number normalised, code from the message confirms', async () => {
  const o = await t.tenant();
  const res = await start(o, '07400 123456');
  assert.equal(res.statusCode, 200, res.body);
  const c = res.json();
  assert.equal(c.result.destination, '+447400123456');
  assert.equal(c.result.channel, 'sms');
  assert.equal(c.result.provider, 'twilio');
  assert.match(c.result.provider_message_id, /^SM/);
  assert.equal(c.result.disposable_domain, undefined);
  const sms = smsTo('+447400123456');
  assert.equal(sms.length, 1);
  assert.equal(sms[0]!.from, FROM);
  const code = /code is (\d{6})/.exec(sms[0]!.body)?.[1];
  assert.ok(code);
  const ok = (await confirm(o, c.id, code)).json();
  assert.equal(ok.status, 'passed');
  const [ev] = await t.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM events WHERE resource_id = $1 AND type = 'contact.verified'",
    [c.id],
  );
  assert.equal(ev!.n, 1);
  assert.deepEqual(peer.refusals, []);
});

test('numbers that are invalid or cannot take SMS are 400 destination and nothing is sent', async () => {
  const o = await t.tenant();
  const before = peer.sent.length;
  for (const bad of ['+1 415 555 267', '+44 909 879 0000', 'call me', '+44 12']) {
    const res = await start(o, bad);
    assert.equal(res.statusCode, 400, bad);
    assert.equal(res.json().error.field, 'destination');
  }
  const refused = await start(o, REFUSED);
  assert.equal(refused.statusCode, 400);
  assert.equal(refused.json().error.field, 'destination');
  assert.match(refused.json().error.message, /twilio_21211/);
  assert.equal(peer.sent.length, before);
});

test('a 5xx from the SMS provider is 422 check_unavailable, with nothing stored, billed or counted', async () => {
  const o = await t.tenant();
  for (let i = 0; i < 4; i++) {
    const res = await start(o, DOWN);
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().error.code, 'check_unavailable');
  }
  const [rows] = await t.db.query<{ n: number }>(
    'SELECT ((SELECT count(*) FROM checks WHERE account_id = $1) + (SELECT count(*) FROM contact_sends WHERE account_id = $1) + (SELECT count(*) FROM contact_verifications WHERE account_id = $1))::int AS n',
    [o.accountId],
  );
  assert.equal(rows!.n, 0);
  assert.deepEqual((await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json().modules, []);
});

test('SMS pumping: a fourth code to one number within ten minutes is 429 with Retry-After; other numbers still go', async () => {
  const o = await t.tenant();
  const to = mobile();
  for (let i = 0; i < 3; i++) assert.equal((await start(o, to)).statusCode, 200);
  const res = await start(o, to);
  assert.equal(res.statusCode, 429);
  assert.ok(Number(res.headers['retry-after']) > 0);
  assert.equal(smsTo(to).length, 3);
  assert.equal((await start(o, mobile())).statusCode, 200);
});

test('concurrent starts to one number cannot pass the limit together', async () => {
  const o = await t.tenant();
  const to = mobile();
  const results = await Promise.all(Array.from({ length: 6 }, () => start(o, to)));
  const codes = results.map((r) => r.statusCode).sort();
  assert.deepEqual(codes, [200, 200, 200, 429, 429, 429]);
  assert.equal(smsTo(to).length, 3);
});

test('two concurrent starts with one Idempotency-Key send one SMS and bill once', async () => {
  const o = await t.tenant();
  const to = mobile();
  const headers = { 'idempotency-key': `dup-${to}` };
  const call = () => t.call('POST', '/v1/checks/contact', { key: o.sandboxKey, body: { channel: 'sms', destination: to }, headers });
  const [a, b] = await Promise.all([call(), call()]);
  const statuses = [a.statusCode, b.statusCode].sort();
  // The loser either finds the key still claimed (409, retry later) or, if the winner already settled, the replay.
  assert.ok(
    JSON.stringify(statuses) === '[200,409]' || (statuses[0] === 200 && statuses[1] === 200 && a.body === b.body),
    JSON.stringify(statuses),
  );
  assert.equal(smsTo(to).length, 1);
  const replay = await call();
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(smsTo(to).length, 1);
  assert.equal((await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json().modules[0].count, 1);
});
