// The TRP client against a local peer on 127.0.0.1 answering with the shared fixtures' shapes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { classifyStatus, createTrpClient, parseInquiry, TrpClientError, type TrpInquiry } from './index.js';

const dir = fileURLToPath(new URL('../../../../shared/data/travel_rule/trisa_openvasp_trp/', import.meta.url));
const skip = existsSync(dir) ? false : 'needs ../shared/data/travel_rule (not in a bare clone)';
const fixture = (f: string) => (skip ? '{}' : readFileSync(dir + f, 'utf8'));

interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}
const seen: Seen[] = [];
let server: Server;
let base = '';

before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '';
      seen.push({ path, headers: req.headers, body });
      const id = String(req.headers['request-identifier'] ?? '');
      const reply = (status: number, text: string, echo = id) => {
        res.writeHead(status, { 'content-type': 'application/json', 'api-version': '3.1.0', 'request-identifier': echo });
        res.end(text);
      };
      if (path === '/transfers/approve') return reply(200, fixture('client/approved.json'));
      if (path === '/transfers/reject') return reply(200, fixture('client/rejected.json'));
      if (path === '/transfers/ack') return reply(200, fixture('client/acknowledged.json'));
      if (path === '/transfers/busy') return reply(503, 'try later');
      if (path === '/transfers/limited') return reply(429, 'slow down');
      if (path === '/transfers/bad') return reply(400, 'must specify api version header 3.1.0');
      if (path === '/transfers/garbage') return reply(200, '{"approved":');
      if (path === '/transfers/wrong-id') return reply(200, fixture('client/rejected.json'), 'someone-else');
      if (path === '/transfers/slow') return void setTimeout(() => reply(200, fixture('client/approved.json')), 3000).unref();
      if (path.startsWith('/callback/')) return reply(204, '');
      if (path === '/identity') return reply(200, fixture('client/identity.json'));
      if (path === '/version') return reply(200, fixture('client/version.json'));
      if (path === '/extensions') return reply(200, fixture('client/extensions.json'));
      reply(404, 'not found');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

function inquiry(): TrpInquiry {
  const p = parseInquiry(fixture('inquiry.json'));
  assert.ok(p.ok);
  return { ...p.value, amount: '0.00206412' };
}

// A generous timeout for the peer's ordinary answers (a loaded CI machine is slow); a short one only for the timeout case.
const client = createTrpClient({ timeoutMs: 10_000 });
const impatient = createTrpClient({ timeoutMs: 200 });

test('inquire: the peer gets the TRP headers and the exact amount, and its approval comes back parsed', { skip }, async () => {
  const r = await client.inquire(`${base}/transfers/approve`, inquiry(), 'req-approve');
  assert.deepEqual(r, {
    kind: 'approved',
    address: 'some payment address',
    callback: 'https://beneficiary.com/implementation/defined/path/for/transferConfirmation',
  });
  const s = seen.find((x) => x.path === '/transfers/approve')!;
  assert.equal(s.headers['api-version'], '3.1.0');
  assert.equal(s.headers['request-identifier'], 'req-approve');
  assert.match(String(s.headers['content-type']), /^application\/json/);
  assert.match(s.body, /"amount":0\.00206412,/);
  assert.equal(JSON.parse(s.body).IVMS101.originator.originatorPersons[0].naturalPerson.customerIdentification, '1002390');
});

test('inquire: rejected and acknowledged answers', { skip }, async () => {
  assert.deepEqual(await client.inquire(`${base}/transfers/reject`, inquiry(), 'r2'), {
    kind: 'rejected',
    comment: 'human readable comment',
  });
  assert.deepEqual(await client.inquire(`${base}/transfers/ack`, inquiry(), 'r3'), { kind: 'acknowledged', version: '3.2.1' });
});

async function failure(p: Promise<unknown>): Promise<TrpClientError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof TrpClientError, String(e));
    return e;
  }
  throw new Error('expected a TrpClientError');
}

test('failures are classified: 5xx, 429, timeouts, refused connections transient; 4xx and bad bodies permanent', { skip }, async () => {
  const kind = async (path: string) => (await failure(client.inquire(`${base}${path}`, inquiry(), 'rx'))).kind;
  assert.equal(await kind('/transfers/busy'), 'transient');
  assert.equal(await kind('/transfers/limited'), 'transient');
  assert.equal((await failure(impatient.inquire(`${base}/transfers/slow`, inquiry(), 'rx'))).kind, 'transient');
  assert.equal(await kind('/transfers/bad'), 'permanent');
  assert.equal(await kind('/transfers/garbage'), 'permanent');
  assert.equal(await kind('/transfers/wrong-id'), 'permanent');
  const refused = await failure(client.inquire('http://127.0.0.1:1/transfers', inquiry(), 'rx'));
  assert.equal(refused.kind, 'transient');
  assert.equal(classifyStatus(404), 'permanent');
  assert.equal(classifyStatus(502), 'transient');
});

test('resolve and confirm post the TRP bodies to the callbacks', { skip }, async () => {
  await client.resolve(`${base}/callback/resolve`, { kind: 'approved', address: 'bc1qxy', callback: `${base}/callback/confirm` }, 'r9');
  await client.resolve(`${base}/callback/resolve2`, { kind: 'rejected', comment: 'unknown_beneficiary: not our customer' }, 'r9');
  await client.confirm(`${base}/callback/confirm`, { kind: 'txid', txid: '05d9dc3f' }, 'r9');
  await client.confirm(`${base}/callback/cancel`, { kind: 'canceled', comment: 'customer withdrew' }, 'r9');
  const bodies = Object.fromEntries(seen.filter((s) => s.path.startsWith('/callback/')).map((s) => [s.path, JSON.parse(s.body)]));
  assert.deepEqual(bodies['/callback/resolve'], { approved: { address: 'bc1qxy', callback: `${base}/callback/confirm` } });
  assert.deepEqual(bodies['/callback/resolve2'], { rejected: 'unknown_beneficiary: not our customer' });
  assert.deepEqual(bodies['/callback/confirm'], { txid: '05d9dc3f' });
  assert.deepEqual(bodies['/callback/cancel'], { canceled: 'customer withdrew' });
});

test('discovery: identity, version, and the extensions the peer requires that we lack', { skip }, async () => {
  const id = await client.identity(base);
  assert.equal(id.name, 'Acme VASP');
  assert.equal(id.lei, 'TVYD005I7Q5IJK0EMI53');
  assert.deepEqual(await client.version(base), { version: '1.2.0', vendor: '21Analytics' });
  assert.deepEqual(await client.extensions(base), {
    required: ['message-signing'],
    supported: ['extended-ivms101', 'deterministic-transfer'],
    missing: ['message-signing'],
  });
  assert.deepEqual((await client.extensions(`${base}/`, ['message-signing'])).missing, []);
});
