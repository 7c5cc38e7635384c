import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TwilioSmsProvider } from './twilio-sms.js';
import { MessagingError } from './messaging-provider.js';
import { startVerification, confirmVerification } from '../../engines/contact/otp.js';
import { renderCodeMessage } from '../../engines/contact/destination.js';

interface Seen {
  method: string;
  url: string;
  auth: string;
  contentType: string;
  form: URLSearchParams;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('TwilioSmsProvider against a local HTTP server', () => {
  const seen: Seen[] = [];
  let server: Server;
  let baseUrl = '';
  const sid = 'AC0123456789abcdef0123456789abcdef';

  before(async () => {
    // Speaks the documented Twilio Messages API shape, including its error bodies.
    server = createServer(async (req, res) => {
      const form = new URLSearchParams(await readBody(req));
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        auth: req.headers.authorization ?? '',
        contentType: req.headers['content-type'] ?? '',
        form,
      });
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url !== `/2010-04-01/Accounts/${sid}/Messages.json`) return reply(404, { code: 20404, message: 'not found' });
      if (req.headers.authorization !== `Basic ${Buffer.from(`${sid}:tok`).toString('base64')}`)
        return reply(401, { code: 20003, message: 'Authenticate' });
      const to = form.get('To') ?? '';
      if (to === '+15005550001') return reply(400, { code: 21211, message: "The 'To' number is not a valid phone number." });
      if (to === '+15005550009') return reply(429, { code: 20429, message: 'Too Many Requests' });
      if (to === '+15005550010') return reply(503, { message: 'unavailable' });
      reply(201, {
        sid: `SM${seen.length.toString().padStart(32, '0')}`,
        status: 'queued',
        to,
        from: form.get('From'),
        body: form.get('Body'),
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('posts form-encoded To/From/Body with basic auth; the code in the body confirms', async () => {
    const provider = new TwilioSmsProvider({ accountSid: sid, authToken: 'tok', from: '+15005550006', baseUrl });
    const now = new Date('2026-03-01T09:00:00Z');
    const started = startVerification(null, { channel: 'sms', destination: '+14155552671', now, secret: 'k' });
    assert.ok(started.ok);
    const receipt = await provider.send({ to: '+14155552671', text: renderCodeMessage(started.code, 600).text });
    assert.match(receipt.providerMessageId, /^SM\d{32}$/);
    const req = seen.at(-1);
    assert.ok(req);
    assert.equal(req.method, 'POST');
    assert.equal(req.contentType, 'application/x-www-form-urlencoded');
    assert.equal(req.form.get('To'), '+14155552671');
    assert.equal(req.form.get('From'), '+15005550006');
    const code = /code is (\d{6})/.exec(req.form.get('Body') ?? '')?.[1];
    assert.ok(code);
    assert.equal(confirmVerification(started.state, code, now, 'k').outcome, 'verified');
  });

  test('classifies invalid number and bad auth as permanent; 429, 5xx and refused connection as transient', async () => {
    const provider = new TwilioSmsProvider({ accountSid: sid, authToken: 'tok', messagingServiceSid: 'MG1', baseUrl });
    const fail = (to: string, p = provider) =>
      p.send({ to, text: 'x' }).then(
        () => null,
        (e: unknown) => e as MessagingError,
      );
    const invalid = await fail('+15005550001');
    assert.equal(seen.at(-1)?.form.get('MessagingServiceSid'), 'MG1');
    assert.ok(invalid instanceof MessagingError);
    assert.deepEqual([invalid.kind, invalid.code], ['permanent', 'twilio_21211']);
    assert.equal((await fail('+15005550009'))?.kind, 'transient');
    assert.equal((await fail('+15005550010'))?.kind, 'transient');
    const wrongToken = new TwilioSmsProvider({ accountSid: sid, authToken: 'nope', from: '+15005550006', baseUrl });
    assert.deepEqual(
      [(await fail('+14155552671', wrongToken))?.kind, (await fail('+14155552671', wrongToken))?.code],
      ['permanent', 'auth_failed'],
    );
    const down = new TwilioSmsProvider({ accountSid: sid, authToken: 'tok', from: '+1', baseUrl: 'http://127.0.0.1:1' });
    assert.equal((await fail('+14155552671', down))?.kind, 'transient');
  });
});
