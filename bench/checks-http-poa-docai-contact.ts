// Latency of the proof-of-address, document-ai and contact endpoints through the whole HTTP stack
// (auth, validation, base64 decode, engine, sealing, transactions with usage/audit/outbox) next to
// the engine or provider call alone, so the HTTP overhead is visible. Calls alternate engine/HTTP.
// Contact runs against a local SMTP server and a local Twilio-shaped HTTP peer started here.
// Usage: npx tsx bench/checks-http-poa-docai-contact.ts [iterations=30]   (TEST_DATABASE_URL for PostgreSQL)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { SMTPServer } from 'smtp-server';
import { createTestApp } from '../test/helpers/test-app.js';
import { makePoaSample } from '../test/fixtures/poa/poa-dataset.js';
import { makeInvoice } from '../test/fixtures/poa/invoice-fixture.js';
import { layoutToPdf } from '../test/fixtures/poa/layout.js';
import { checkProofOfAddress } from '../src/engines/proof-of-address/index.js';
import { extractDocumentFields, type FieldSpec } from '../src/engines/document-ai/index.js';
import { createTesseractOcr } from '../src/engines/text/index.js';
import { SmtpEmailProvider, TwilioSmsProvider } from '../src/providers/messaging/index.js';
import { percentile } from './lib/stats.js';

const N = Number(process.argv[2] ?? 30);
const OCR_N = Math.max(3, Math.round(N / 5));

// Local peers for the contact channels.
const mails: string[] = [];
const smtp = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  disableReverseLookup: true,
  logger: false,
  onData(stream, _s, cb) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      mails.push(Buffer.concat(chunks).toString('utf8'));
      cb();
    });
  },
});
await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
const smtpPort = (smtp.server.address() as AddressInfo).port;
let smsCount = 0;
const twilio = createServer((req, res) => {
  req.resume();
  req.on('end', () =>
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid: `SM${++smsCount}`, status: 'queued' })),
  );
});
await new Promise<void>((r) => twilio.listen(0, '127.0.0.1', r));
const twilioUrl = `http://127.0.0.1:${(twilio.address() as AddressInfo).port}`;
Object.assign(process.env, {
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  SMTP_FROM: 'codes@verity.test',
  SMS_PROVIDER: 'twilio',
  TWILIO_ACCOUNT_SID: 'ACbench',
  TWILIO_AUTH_TOKEN: 'token',
  TWILIO_FROM: '+15005550006',
  TWILIO_BASE_URL: twilioUrl,
});

const t = await createTestApp();
const o = await t.tenant({ rateLimitPerMinute: 1_000_000 });
const ocr = createTesseractOcr();
const ageDays = (iso: string) => Math.floor((Date.now() - Date.parse(`${iso}T00:00:00Z`)) / 86_400_000);

const bill = await makePoaSample(7, 'pdf', 'utility_bill');
const scan = await makePoaSample(21, 'jpeg', 'bank_statement');
const invoice = await layoutToPdf(makeInvoice(5).layout);
const specs: FieldSpec[] = [
  { name: 'invoice_number', anchor: 'Invoice number', required: true },
  { name: 'invoice_date', anchor: 'Invoice date', type: 'date' },
  { name: 'total', anchor: 'Total due', type: 'amount' },
  { name: 'iban', type: 'iban' },
  { name: 'email', type: 'email' },
  { name: 'phone', anchor: 'Phone', type: 'phone' },
  { name: 'reference', pattern: 'Reference (INV-\\d+)' },
  { name: 'customer', region: { page: 1, x: 0.05, y: 0.15, w: 0.4, h: 0.06 } },
];
const poaBody = (s: typeof bill) => ({
  document: s.bytes.toString('base64'),
  subject_name: s.label.subjectName,
  max_age_days: ageDays(s.label.issueDate) + 30,
});
const email = new SmtpEmailProvider({ url: `smtp://127.0.0.1:${smtpPort}`, from: 'codes@verity.test' });
const sms = new TwilioSmsProvider({ accountSid: 'ACbench', authToken: 'token', from: '+15005550006', baseUrl: twilioUrl });
let seq = 0;
const nextEmail = () => `bench.${++seq}@example.com`;
const nextPhone = () => `+4474001${String(++seq % 100_000).padStart(5, '0')}`;

interface Case {
  name: string;
  n: number;
  engine: () => Promise<unknown>;
  http: () => Promise<{ statusCode: number; body: string }>;
}
const post = (url: string, body: unknown) => t.call('POST', url, { key: o.sandboxKey, body });
let lastCheck = '';
const cases: Case[] = [
  {
    name: 'proof-of-address, PDF text layer',
    n: N,
    engine: () => checkProofOfAddress(bill.bytes, { subjectName: bill.label.subjectName, mime: 'application/pdf' }),
    http: () => post('/v1/checks/proof-of-address', poaBody(bill)),
  },
  {
    name: 'proof-of-address, JPEG (OCR)',
    n: OCR_N,
    engine: () => checkProofOfAddress(scan.bytes, { subjectName: scan.label.subjectName, mime: 'image/jpeg', ocr }),
    http: () => post('/v1/checks/proof-of-address', poaBody(scan)),
  },
  {
    name: 'document-ai, invoice PDF, 8 fields',
    n: N,
    engine: () => extractDocumentFields(invoice, specs, { mime: 'application/pdf' }),
    http: () => post('/v1/checks/document-ai', { document: invoice.toString('base64'), fields: specs }),
  },
  {
    name: 'contact start, email (local SMTP)',
    n: N,
    engine: () => email.send({ to: nextEmail(), subject: 's', text: 'Your code is 123456' }),
    http: async () => {
      const r = await post('/v1/checks/contact', { channel: 'email', destination: nextEmail() });
      lastCheck = r.json().id;
      return r;
    },
  },
  {
    name: 'contact confirm (wrong code, then pending)',
    n: N,
    engine: async () => undefined,
    http: async () => {
      const r = await post('/v1/checks/contact', { channel: 'sms', destination: nextPhone() });
      lastCheck = r.json().id;
      const s = performance.now();
      const c = await post(`/v1/checks/contact/${lastCheck}/confirm`, { code: '000000' });
      confirmMs.push(performance.now() - s);
      return c;
    },
  },
  {
    name: 'contact start, SMS (local Twilio peer)',
    n: N,
    engine: () => sms.send({ to: nextPhone(), text: 'Your code is 123456' }),
    http: () => post('/v1/checks/contact', { channel: 'sms', destination: nextPhone() }),
  },
];
const confirmMs: number[] = [];

const pct = percentile;
const fmt = (x: number) => (x < 10 ? x.toFixed(1) : x.toFixed(0));

console.log(
  `db=${t.db.kind} iterations=${N} (OCR ${OCR_N}) load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log('| endpoint | n | engine/provider p50 / p99 ms | HTTP p50 / p99 ms |');
console.log('|---|---|---|---|');
for (const c of cases) {
  const eng: number[] = [];
  const http: number[] = [];
  confirmMs.length = 0;
  for (let i = 0; i < c.n + 2; i++) {
    let s = performance.now();
    await c.engine();
    const e = performance.now() - s;
    s = performance.now();
    const res = await c.http();
    const h = performance.now() - s;
    if (res.statusCode !== 200) throw new Error(`${c.name}: ${res.statusCode} ${res.body}`);
    if (i >= 2) {
      eng.push(e);
      http.push(h);
    } // two warm-up rounds
  }
  const engCol = c.name.startsWith('contact confirm') ? '–' : `${fmt(pct(eng, 50))} / ${fmt(pct(eng, 99))}`;
  const httpCol = c.name.startsWith('contact confirm')
    ? `${fmt(pct(confirmMs.slice(2), 50))} / ${fmt(pct(confirmMs.slice(2), 99))}`
    : `${fmt(pct(http, 50))} / ${fmt(pct(http, 99))}`;
  console.log(`| ${c.name} | ${c.n} | ${engCol} | ${httpCol} |`);
}
console.log(
  `load average after: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
email.close();
await ocr.close();
await t.close();
await new Promise<void>((r) => smtp.close(() => r()));
await new Promise<void>((r) => twilio.close(() => r()));
