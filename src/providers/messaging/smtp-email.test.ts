import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { SmtpEmailProvider } from './smtp-email.js';
import { MessagingError } from './messaging-provider.js';
import { startVerification, confirmVerification } from '../../engines/contact/otp.js';
import { renderCodeMessage } from '../../engines/contact/destination.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
  user: string | undefined;
}

describe('SmtpEmailProvider against a local SMTP server', () => {
  const received: Received[] = [];
  let server: SMTPServer;
  let port = 0;

  before(async () => {
    server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      disableReverseLookup: true,
      authOptional: true,
      logger: false,
      onAuth(auth, _session, cb) {
        if (auth.username === 'verity' && auth.password === 's3cret') cb(null, { user: auth.username });
        else cb(new Error('Invalid username or password'));
      },
      onRcptTo(address, _session, cb) {
        if (address.address.startsWith('busy@')) return cb(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 450 }));
        if (address.address.startsWith('nobody@')) return cb(Object.assign(new Error('No such user'), { responseCode: 550 }));
        cb();
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
            user: session.user as string | undefined,
          });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });

  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('delivers the one-time code over SMTP with auth; the code on the wire confirms the verification', async () => {
    const provider = new SmtpEmailProvider({ url: `smtp://verity:s3cret@127.0.0.1:${port}`, from: 'no-reply@verity.test' });
    const now = new Date('2026-03-01T09:00:00Z');
    const started = startVerification(null, { channel: 'email', destination: 'alice@example.com', now, secret: 'k' });
    assert.ok(started.ok);
    const msg = renderCodeMessage(started.code, 600);
    const receipt = await provider.send({ to: 'alice@example.com', ...msg });
    provider.close();
    assert.equal(receipt.provider, 'smtp');
    const mail = received.at(-1);
    assert.ok(mail);
    assert.deepEqual(mail.to, ['alice@example.com']);
    assert.equal(mail.from, 'no-reply@verity.test');
    assert.equal(mail.user, 'verity');
    assert.match(mail.raw, /Subject: Verity verification code/);
    const codeOnWire = /verification code is (\d{6})/.exec(mail.raw)?.[1];
    assert.ok(codeOnWire);
    assert.ok(mail.raw.includes(receipt.providerMessageId.replace(/[<>]/g, '')));
    assert.equal(confirmVerification(started.state, codeOnWire, new Date(now.getTime() + 5000), 'k').outcome, 'verified');
  });

  test('classifies 4xx as transient, 5xx and bad credentials as permanent, refused connection as transient', async () => {
    const provider = new SmtpEmailProvider({ url: `smtp://verity:s3cret@127.0.0.1:${port}`, from: 'no-reply@verity.test' });
    const busy = await provider.send({ to: 'busy@example.com', text: 'x' }).catch((e: unknown) => e);
    const gone = await provider.send({ to: 'nobody@example.com', text: 'x' }).catch((e: unknown) => e);
    provider.close();
    assert.ok(busy instanceof MessagingError && gone instanceof MessagingError);
    assert.equal(busy.kind, 'transient');
    assert.equal(gone.kind, 'permanent');
    const badAuth = new SmtpEmailProvider({ url: `smtp://verity:wrong@127.0.0.1:${port}`, from: 'a@verity.test' });
    const auth = await badAuth.send({ to: 'alice@example.com', text: 'x' }).catch((e: unknown) => e);
    badAuth.close();
    assert.ok(auth instanceof MessagingError);
    assert.equal(auth.kind, 'permanent');
    const closed = new SmtpEmailProvider({ url: 'smtp://127.0.0.1:1', from: 'a@verity.test', timeoutMs: 2000 });
    const refused = await closed.send({ to: 'alice@example.com', text: 'x' }).catch((e: unknown) => e);
    closed.close();
    assert.ok(refused instanceof MessagingError);
    assert.equal(refused.kind, 'transient');
  });
});
