import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { contactConfig } from '../../src/modules/checks/contact/settings.js';
import { loadSection } from '../../src/platform/config-schema.js';
import { purgeContactHistory } from '../../src/modules/checks/contact/repository.js';
import { ConfigError } from '../../src/config.js';

/** A local SMTP peer: keeps every mail; `busy.…` gets a 450 (transient), `nobody.…` a 550 (permanent). */
async function startSmtp(): Promise<{ server: SMTPServer; port: number; mails: { to: string[]; raw: string }[] }> {
  const mails: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    disableReverseLookup: true,
    logger: false,
    onRcptTo(address, _s, cb) {
      if (address.address.startsWith('busy.')) return cb(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 450 }));
      if (address.address.startsWith('nobody.')) return cb(Object.assign(new Error('No such user'), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.server.address() as AddressInfo).port, mails };
}

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: TestApp;
before(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'codes@verity.test' } });
});
after(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
});

let n = 0;
const address = (local = 'person') => `${local}.${process.pid}.${++n}@example.com`;
const mailsTo = (to: string) => smtp.mails.filter((m) => m.to.includes(to.toLowerCase()));
const codeIn = (raw: string) => /verification code is (\d{6})/.exec(raw)?.[1];
const start = (tt: TestApp, o: Tenant, destination: string, headers?: Record<string, string>) =>
  tt.call('POST', '/v1/checks/contact', {
    key: o.sandboxKey,
    body: { channel: 'email', destination, subject_reference: 'cus_c1' },
    headers,
  });
const confirm = (tt: TestApp, o: Tenant, id: string, code: string) =>
  tt.call('POST', `/v1/checks/contact/${id}/confirm`, { key: o.sandboxKey, body: { code } });
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
const makeCheck = async (_t: TestApp, o: Tenant) => (await start(t, o, address('owner'))).json().id as string;

routeSecurityTests('startContactCheck', () => t, {
  method: 'POST',
  url: () => '/v1/checks/contact',
  scope: 'checks:write',
  body: { channel: 'email', destination: 'someone@example.com' },
  malformed: { body: { channel: 'fax', destination: 'someone@example.com' }, field: 'channel' },
});
routeSecurityTests('confirmContactCheck', () => t, {
  method: 'POST',
  url: (id) => `/v1/checks/contact/${id}/confirm`,
  scope: 'checks:write',
  create: makeCheck,
  body: { code: '123456' },
  malformed: { body: { code: 'abc' }, field: 'code' },
});
routeSecurityTests('resendContactCheck', () => t, {
  method: 'POST',
  url: (id) => `/v1/checks/contact/${id}/resend`,
  scope: 'checks:write',
  create: makeCheck,
});

test('email end to end: the code from the received mail confirms; a wrong one costs an attempt; event, audit, billing', async () => {
  const o = await t.tenant();
  const to = address();
  const res = await start(t, o, to.replace('@example.com', '@EXAMPLE.com'));
  assert.equal(res.statusCode, 200, res.body);
  const c = res.json();
  assert.equal(c.type, 'contact');
  assert.equal(c.status, 'pending');
  assert.equal(c.completed_at, null);
  assert.equal(c.result.verification_id, c.id);
  assert.equal(c.result.channel, 'email');
  assert.equal(c.result.destination, to, 'domain lower-cased');
  assert.equal(c.result.attempts_left, 5);
  assert.equal(c.result.disposable_domain, false);
  assert.ok(Date.parse(c.result.expires_at) - Date.now() > 590_000);
  const mail = mailsTo(to);
  assert.equal(mail.length, 1);
  assert.match(mail[0]!.raw, /From: codes@verity\.test/);
  const code = codeIn(mail[0]!.raw)!;
  assert.ok(code);

  // The code is stored only as a keyed hash inside sealed state: neither it nor the address appears in the rows.
  const [v] = await t.db.query<Record<string, unknown>>('SELECT * FROM contact_verifications WHERE id = $1', [c.id]);
  assert.equal(v!.status, 'pending');
  assert.ok(!JSON.stringify(v).includes(code) && !JSON.stringify(v).includes(to));

  const bad = (await confirm(t, o, c.id, wrong(code))).json();
  assert.equal(bad.status, 'pending');
  assert.deepEqual(bad.reasons, ['invalid_code']);
  assert.equal(bad.result.attempts_left, 4);

  const ok = (await confirm(t, o, c.id, `${code.slice(0, 3)} ${code.slice(3)}`)).json();
  assert.equal(ok.status, 'passed');
  assert.equal(ok.score, 1);
  assert.ok(ok.completed_at);
  assert.ok(ok.result.verified_at);
  assert.equal(ok.signals.find((s: { name: string }) => s.name === 'code_match').passed, true);
  assert.deepEqual((await t.call('GET', `/v1/checks/${c.id}`, { key: o.sandboxKey })).json().status, 'passed');

  const events = await t.db.query<{ type: string; data: { channel: string; subject_reference: string } }>(
    'SELECT type, data FROM events WHERE resource_id = $1 ORDER BY seq',
    [c.id],
  );
  assert.deepEqual(
    events.map((e) => e.type),
    ['check.completed', 'contact.verified'],
  );
  assert.equal(events[1]!.data.channel, 'email');
  assert.equal(events[1]!.data.subject_reference, 'cus_c1');
  const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1 ORDER BY id', [c.id]);
  assert.deepEqual(
    audit.map((a) => a.action),
    ['check.created', 'check.updated', 'check.updated'],
  );
  const usage = (await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json();
  assert.deepEqual(usage.modules, [{ module: 'checks', count: 1, operations: [{ operation: 'contact', count: 1 }] }]);

  // A passed check stays passed whatever is sent afterwards, and cannot be resent.
  assert.equal((await confirm(t, o, c.id, wrong(code))).json().status, 'passed');
  assert.equal((await t.call('POST', `/v1/checks/contact/${c.id}/resend`, { key: o.sandboxKey })).statusCode, 409);
});

test('five wrong codes fail the check; the right code after that does not revive it', async () => {
  const o = await t.tenant();
  const to = address();
  const c = (await start(t, o, to)).json();
  const code = codeIn(mailsTo(to)[0]!.raw)!;
  const left: number[] = [];
  let last;
  for (let i = 0; i < 5; i++) {
    last = (await confirm(t, o, c.id, wrong(code))).json();
    left.push(last.result.attempts_left);
  }
  assert.deepEqual(left, [4, 3, 2, 1, 0]);
  assert.equal(last.status, 'failed');
  assert.deepEqual(last.reasons, ['too_many_attempts']);
  assert.equal((await confirm(t, o, c.id, code)).json().status, 'failed');
  const [ev] = await t.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM events WHERE resource_id = $1 AND type = 'contact.verified'",
    [c.id],
  );
  assert.equal(ev!.n, 0);
});

test('disposable domains are flagged but sent; bad syntax is 400 destination; a channel without provider is 422', async () => {
  const o = await t.tenant();
  const throwaway = `someone${++n}@mailinator.com`;
  const d = (await start(t, o, throwaway)).json();
  assert.equal(d.result.disposable_domain, true);
  assert.equal(d.signals.find((s: { name: string }) => s.name === 'email_disposable').passed, false);
  assert.equal(mailsTo(throwaway).length, 1);
  for (const bad of ['not-an-address', 'a@b', 'two@@example.com']) {
    const res = await start(t, o, bad);
    assert.equal(res.statusCode, 400, bad);
    assert.equal(res.json().error.field, 'destination');
  }
  // Production without an SMS provider is 422 naming what to set (a sandbox key gets the sandbox channel).
  const sms = await t.call('POST', '/v1/checks/contact', { key: o.productionKey, body: { channel: 'sms', destination: '+447400123456' } });
  assert.equal(sms.statusCode, 422);
  assert.equal(sms.json().error.code, 'check_unavailable');
  assert.match(sms.json().error.message, /TWILIO_ACCOUNT_SID/);
  const usage = (await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json();
  assert.equal(usage.modules[0].count, 1);
});

test('an idempotent replay of start sends one mail and bills once', async () => {
  const o = await t.tenant();
  const to = address();
  const headers = { 'idempotency-key': `contact-${to}` };
  const first = await start(t, o, to, headers);
  const second = await start(t, o, to, headers);
  assert.equal(first.statusCode, 200);
  assert.equal(second.statusCode, 200);
  assert.equal(second.headers['idempotent-replayed'], 'true');
  assert.equal(second.body, first.body);
  assert.equal(mailsTo(to).length, 1);
  const usage = (await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json();
  assert.equal(usage.modules[0].count, 1);
});

test('per-destination limit: the fourth code to one address in ten minutes is 429 with Retry-After', async () => {
  const o = await t.tenant();
  const to = address();
  for (let i = 0; i < 3; i++) assert.equal((await start(t, o, to)).statusCode, 200);
  const res = await start(t, o, to);
  assert.equal(res.statusCode, 429);
  assert.equal(res.json().error.code, 'rate_limited');
  assert.equal(res.json().error.field, 'destination');
  const retry = Number(res.headers['retry-after']);
  assert.ok(retry > 500 && retry <= 600, String(retry));
  assert.equal(mailsTo(to).length, 3);
  // Another tenant's limit is its own.
  assert.equal((await start(t, await t.tenant(), to)).statusCode, 200);
});

test('provider failures: 4xx from SMTP is 422 with nothing stored, billed or counted, and the key is free again; 550 is 400', async () => {
  const o = await t.tenant();
  const busy = address('busy');
  const headers = { 'idempotency-key': `busy-${busy}` };
  for (let i = 0; i < 4; i++) {
    const res = await start(t, o, busy, headers);
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().error.code, 'check_unavailable');
  }
  const rows = await t.db.query<{ n: number }>(
    'SELECT (SELECT count(*) FROM checks WHERE account_id = $1)::int + (SELECT count(*) FROM contact_sends WHERE account_id = $1)::int + (SELECT count(*) FROM contact_verifications WHERE account_id = $1)::int AS n',
    [o.accountId],
  );
  assert.equal(rows[0]!.n, 0);
  assert.deepEqual((await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json().modules, []);
  const gone = await start(t, o, address('nobody'));
  assert.equal(gone.statusCode, 400);
  assert.equal(gone.json().error.field, 'destination');
});

describe('with a 1-second code lifetime and no resend cooldown', () => {
  let short: TestApp;
  before(async () => {
    short = await createTestApp({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SMTP_FROM: 'codes@verity.test',
        CONTACT_CODE_TTL_SECONDS: '1',
        CONTACT_RESEND_COOLDOWN_SECONDS: '0',
      },
    });
  });
  after(() => short.close());

  test('an expired code fails the check', async () => {
    const o = await short.tenant();
    const to = address();
    const c = (await start(short, o, to)).json();
    const code = codeIn(mailsTo(to)[0]!.raw)!;
    await new Promise((r) => setTimeout(r, 1100));
    const res = (await confirm(short, o, c.id, code)).json();
    assert.equal(res.status, 'failed');
    assert.deepEqual(res.reasons, ['code_expired']);
    const [ev] = await short.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM events WHERE resource_id = $1 AND type = 'check.completed'",
      [c.id],
    );
    assert.equal(ev!.n, 1);
  });

  test('a resend replaces the code (the old one stops working), is not billed, and is limited to three sends', async () => {
    const o = await short.tenant();
    const to = address();
    const c = (await start(short, o, to)).json();
    const first = codeIn(mailsTo(to)[0]!.raw)!;
    const again = await short.call('POST', `/v1/checks/contact/${c.id}/resend`, { key: o.sandboxKey });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().result.sends, 2);
    const second = codeIn(mailsTo(to)[1]!.raw)!;
    if (second !== first) assert.equal((await confirm(short, o, c.id, first)).json().result.attempts_left, 4);
    assert.equal((await confirm(short, o, c.id, second)).json().status, 'passed');
    assert.deepEqual((await short.call('GET', '/v1/usage', { key: o.sandboxKey })).json().modules[0].count, 1);
    const c2 = (await start(short, o, address())).json();
    for (let i = 0; i < 2; i++)
      assert.equal((await short.call('POST', `/v1/checks/contact/${c2.id}/resend`, { key: o.sandboxKey })).statusCode, 200);
    assert.equal((await short.call('POST', `/v1/checks/contact/${c2.id}/resend`, { key: o.sandboxKey })).statusCode, 409);
  });
});

test('settings are validated with every problem named', () => {
  assert.throws(
    () =>
      loadSection(contactConfig, {
        SMTP_URL: 'http://x',
        SMS_PROVIDER: 'twilio',
        CONTACT_CODE_TTL_SECONDS: '0',
        CONTACT_DEFAULT_COUNTRY: 'gb',
      }),
    (e: unknown) => {
      const p = (e as ConfigError).problems.join('\n');
      return (
        e instanceof ConfigError &&
        /SMTP_URL/.test(p) &&
        /TWILIO_ACCOUNT_SID/.test(p) &&
        /CONTACT_CODE_TTL_SECONDS/.test(p) &&
        /CONTACT_DEFAULT_COUNTRY/.test(p)
      );
    },
  );
  const s = loadSection(contactConfig, {
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: 'AC1',
    TWILIO_AUTH_TOKEN: 't',
    TWILIO_FROM: '+15005550006',
  });
  assert.equal(s.sms?.baseUrl, 'https://api.twilio.com');
  assert.equal(s.smtp, null);
  assert.equal(s.ttlSeconds, 600);
});

test('hourly purge drops send history past the longest window and reservations cut off by a crash', async () => {
  const o = await t.tenant();
  const live = (await start(t, o, address())).json();
  await t.db.query(
    "INSERT INTO contact_sends (account_id, environment, destination_hash, verification_id, sent_at) VALUES ($1, 'sandbox', 'h', 'chk_old', now() - interval '3 days')",
    [o.accountId],
  );
  await t.db.query(
    "INSERT INTO contact_verifications (id, account_id, environment, channel, destination_hash, status, state_sealed, expires_at, created_at) VALUES ('chk_stuck', $1, 'sandbox', 'email', 'h', 'sending', 'v1.x', now(), now() - interval '2 days')",
    [o.accountId],
  );
  await purgeContactHistory(t.db);
  const sends = await t.db.query<{ verification_id: string }>('SELECT verification_id FROM contact_sends WHERE account_id = $1', [
    o.accountId,
  ]);
  assert.deepEqual(
    sends.map((r) => r.verification_id),
    [live.id],
  );
  const rows = await t.db.query<{ id: string }>('SELECT id FROM contact_verifications WHERE account_id = $1', [o.accountId]);
  assert.deepEqual(
    rows.map((r) => r.id),
    [live.id],
  );
});
