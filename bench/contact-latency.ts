/**
 * Contact verification latency: the pure OTP engine, destination checks, and the two providers over
 * real wire protocols to local peers (smtp-server and a node:http Twilio-shaped endpoint).
 *
 *   npx tsx bench/contact-latency.ts [--n=300]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { confirmVerification, startVerification } from '../src/engines/contact/otp.js';
import { normalizeDestination, renderCodeMessage } from '../src/engines/contact/destination.js';
import { SmtpEmailProvider } from '../src/providers/messaging/smtp-email.js';
import { TwilioSmsProvider } from '../src/providers/messaging/twilio-sms.js';
import { argNumber, LATENCY_HEADER, latencyRow } from './poa-stats.js';

const n = argNumber('n', 300);
const secret = 'bench-secret';
const t = {
  start: [] as number[],
  confirm: [] as number[],
  phone: [] as number[],
  email: [] as number[],
  smtp: [] as number[],
  sms: [] as number[],
};
const time = async <T>(bucket: number[], f: () => Promise<T> | T): Promise<T> => {
  const t0 = performance.now();
  const r = await f();
  bucket.push(performance.now() - t0);
  return r;
};

let delivered = 0;
const smtp = new SMTPServer({
  disabledCommands: ['STARTTLS'],
  authOptional: true,
  logger: false,
  disableReverseLookup: true,
  onData(stream, _s, cb) {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      delivered++;
      cb();
    });
  },
});
await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
const http = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ sid: `SM${Date.now()}`, status: 'queued' }));
  });
});
await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
const email = new SmtpEmailProvider({ url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, from: 'otp@verity.test' });
const sms = new TwilioSmsProvider({
  accountSid: 'ACbench',
  authToken: 'x',
  from: '+15005550006',
  baseUrl: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
});

for (let i = 0; i < n; i++) {
  const now = new Date(Date.UTC(2026, 0, 1, 0, 0, i));
  const phone = await time(t.phone, () => normalizeDestination('sms', `+44 7400 1${String(i % 100000).padStart(5, '0')}`));
  await time(t.email, () => normalizeDestination('email', `user${i}@example.com`));
  if (!phone.ok || !phone.normalized) throw new Error(`bench number refused: ${phone.reason}`);
  const destination = phone.normalized;
  const started = await time(t.start, () => startVerification(null, { channel: 'sms', destination, now, secret }));
  if (!started.ok) throw new Error('refused');
  const r = await time(t.confirm, () => confirmVerification(started.state, started.code, now, secret));
  if (r.outcome !== 'verified') throw new Error('not verified');
  if (i < Math.min(n, 100)) {
    const msg = renderCodeMessage(started.code, 600);
    await time(t.smtp, () => email.send({ to: `user${i}@example.com`, ...msg }));
    await time(t.sms, () => sms.send({ to: destination, text: msg.text }));
  }
}
email.close();
await new Promise<void>((r) => smtp.close(() => r()));
await new Promise<void>((r) => http.close(() => r()));

console.log(LATENCY_HEADER);
console.log(latencyRow('startVerification (code + HMAC + limits)', t.start));
console.log(latencyRow('confirmVerification (HMAC + constant-time compare)', t.confirm));
console.log(latencyRow('normalizeDestination sms (libphonenumber max metadata)', t.phone));
console.log(latencyRow('normalizeDestination email (no MX)', t.email));
console.log(latencyRow('SmtpEmailProvider.send to local smtp-server (new connection each)', t.smtp));
console.log(latencyRow('TwilioSmsProvider.send to local HTTP peer', t.sms));
console.log(`\nmessages received by the local SMTP server: ${delivered}`);
