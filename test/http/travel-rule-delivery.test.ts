import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { buildJobHandlers } from '../../src/jobs/index.js';
import { JobRunner } from '../../src/platform/jobs.js';
import { runTravelRuleCommand } from '../../src/modules/travel-rule/index.js';
import { SMTPServer } from 'smtp-server';
import { SmtpEmailProvider } from '../../src/providers/messaging/index.js';

/** The outbox side of TRP against a local peer the test starts: retries of transient failures, a permanent refusal, a synchronous approval. */

let t: TestApp;
let owner: Tenant;
let peer: Server;
let peerUrl: string;
const seen: { headers: IncomingMessage['headers']; body: string }[] = [];
let answers: { status: number; body: string }[] = [];
before(async () => {
  t = await createTestApp();
  owner = await t.tenant();
  peer = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ headers: req.headers, body });
      const a = answers.shift() ?? { status: 500, body: 'no answer scripted' };
      res.writeHead(a.status, { 'content-type': 'application/json', 'request-identifier': String(req.headers['request-identifier']) });
      res.end(a.body);
    });
  });
  await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
  peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}/trp/inquiry`;
});
after(async () => {
  peer.close();
  await t.close();
});
const drain = () => new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources }) }).drain();
const ivms = {
  originator: {
    originatorPersons: [
      {
        naturalPerson: {
          name: { nameIdentifier: [{ primaryIdentifier: 'Sender', secondaryIdentifier: 'Anna', nameIdentifierType: 'LEGL' }] },
          customerIdentification: 'c1',
        },
      },
    ],
  },
};

async function outgoing(): Promise<{ id: string; request_identifier: string }> {
  const cp = await t.call('POST', '/v1/travel-rule/counterparties', {
    key: owner.sandboxKey,
    body: { name: 'Peer', legal_name: `Peer ${seen.length} Ltd`, protocols: [{ protocol: 'trp', endpoint: peerUrl }] },
  });
  const m = await t.call('POST', '/v1/travel-rule/messages', {
    key: owner.sandboxKey,
    body: { counterparty_id: cp.json().id, asset: { slip0044: 0 }, amount: '0.00000001', jurisdiction: 'EU', ivms101: ivms },
  });
  assert.equal(m.statusCode, 201, m.body);
  return m.json();
}
const get = async (id: string) => (await t.call('GET', `/v1/travel-rule/messages/${id}`, { key: owner.sandboxKey })).json();

test('a transient failure is retried from the outbox; a synchronous approval moves the message', async () => {
  const m = await outgoing();
  answers = [
    { status: 503, body: '{"error":"busy"}' },
    { status: 200, body: '{"approved":{"address":"bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq","callback":"http://127.0.0.1:1/confirm"}}' },
  ];
  await drain();
  const after1 = await get(m.id);
  assert.equal(after1.status, 'sent');
  assert.equal(after1.delivery.state, 'pending');
  assert.equal(after1.delivery.attempts, 1);
  assert.match(after1.delivery.last_error, /503/);
  const job = await t.db.query<{ state: string }>(
    "SELECT state FROM jobs WHERE queue = 'travel_rule.deliver' AND payload->>'message_id' = $1",
    [m.id],
  );
  assert.equal(job[0]!.state, 'queued', 'queued again with backoff');
  await t.db.query("UPDATE jobs SET run_at = now() WHERE queue = 'travel_rule.deliver' AND payload->>'message_id' = $1", [m.id]);
  await drain();
  const done = await get(m.id);
  assert.equal(done.delivery.state, 'delivered');
  assert.equal(done.delivery.attempts, 2);
  assert.equal(done.status, 'accepted');
  assert.equal(done.destination_address, 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
  // What went over the wire: TRP headers, the request identifier kept across the retry, the amount as written.
  const [first, second] = seen.slice(-2);
  assert.equal(first!.headers['api-version'], '3.1.0');
  assert.equal(first!.headers['request-identifier'], m.request_identifier);
  assert.equal(second!.headers['request-identifier'], m.request_identifier);
  assert.match(second!.body, /"amount":0\.00000001[,}]/);
  assert.match(JSON.parse(second!.body).callback, /^http:\/\/127\.0\.0\.1:\d+\/trp\/callbacks\/[\w-]{40,}\/resolve$/);
});

test('a permanent refusal (4xx) is recorded for a reviewer and not retried', async () => {
  const m = await outgoing();
  answers = [{ status: 422, body: '{"error":"IVMS101 rejected"}' }];
  await drain();
  const after1 = await get(m.id);
  assert.equal(after1.status, 'sent');
  assert.equal(after1.delivery.state, 'failed');
  assert.match(after1.delivery.last_error, /422/);
  const job = await t.db.query<{ state: string }>(
    "SELECT state FROM jobs WHERE queue = 'travel_rule.deliver' AND payload->>'message_id' = $1",
    [m.id],
  );
  assert.equal(job[0]!.state, 'done');
  // The reviewer may cancel it; with no approval callback yet, nothing goes out.
  const c = await t.call('POST', `/v1/travel-rule/messages/${m.id}/cancel`, { key: owner.sandboxKey, body: { reason: 'peer refuses' } });
  assert.equal(c.json().status, 'canceled');
});

test('CLI: import counterparties from a JSON file; a bad entry names its field and imports nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'verity-tr-'));
  const file = join(dir, 'vasps.json');
  writeFileSync(
    file,
    JSON.stringify([
      { name: 'Zeta', legal_name: 'Zeta Exchange SA', lei: '506700T7Z685VUOZL877', domains: ['zeta.example.com'] },
      { name: 'Eta', legal_name: 'Eta Custody AG', protocols: [{ protocol: 'email', email: 'tr@eta.example' }] },
    ]),
  );
  const out: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
  const args = { positionals: [file], account: owner.accountId, environment: 'sandbox', json: true };
  assert.equal(await runTravelRuleCommand(t.db, t.config, t.resources, 'import-counterparties', args, io), 0, out.join('\n'));
  assert.deepEqual({ ...JSON.parse(out.pop()!), ids: undefined }, { created: 2, updated: 0, ids: undefined });
  // Again: the LEI entry is updated, not duplicated.
  assert.equal(await runTravelRuleCommand(t.db, t.config, t.resources, 'import-counterparties', args, io), 0);
  assert.equal(JSON.parse(out.pop()!).updated, 1);
  const list = (await t.call('GET', '/v1/travel-rule/counterparties?lei=506700T7Z685VUOZL877', { key: owner.sandboxKey })).json().data;
  assert.equal(list.length, 1);
  assert.equal(list[0].source, 'import');
  assert.equal(list[0].due_diligence.screening.status, 'no_match');

  writeFileSync(
    file,
    JSON.stringify([
      { name: 'Theta', legal_name: 'Theta' },
      { name: 'Bad', legal_name: 'Bad', lei: '506700T7Z685VUOZL878' },
    ]),
  );
  assert.equal(await runTravelRuleCommand(t.db, t.config, t.resources, 'import-counterparties', args, io), 65);
  assert.match(out.pop()!, /\[1\]\.lei/);
  assert.equal((await t.call('GET', '/v1/travel-rule/counterparties?query=theta', { key: owner.sandboxKey })).json().data.length, 0);
});

test('email fallback: a link to a hosted page where the beneficiary VASP approves or rejects', async () => {
  const mails: string[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    disableReverseLookup: true,
    onData(stream, _s, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        mails.push(raw);
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const email = new SmtpEmailProvider({ url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, from: 'tr@verity.test' });
  const drainMail = () =>
    new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources, email }) }).drain();
  try {
    const cp = await t.call('POST', '/v1/travel-rule/counterparties', {
      key: owner.sandboxKey,
      body: { name: 'Iota', legal_name: 'Iota Wallet Ltd', protocols: [{ protocol: 'email', email: 'travelrule@iota.example' }] },
    });
    const send = async () => {
      const r = await t.call('POST', '/v1/travel-rule/messages', {
        key: owner.sandboxKey,
        body: {
          protocol: 'email',
          counterparty_id: cp.json().id,
          asset: { slip0044: 0, symbol: 'BTC' },
          amount: '2',
          jurisdiction: 'EU',
          ivms101: ivms,
        },
      });
      assert.equal(r.statusCode, 201, r.body);
      await drainMail();
      const mail = mails.pop()!;
      assert.match(mail, /To: travelrule@iota\.example/);
      assert.doesNotMatch(mail, /Sender|Anna/, 'no personal data in the mail');
      const link = /(http:\/\/\S+\/travel-rule\/respond\/[\w-]+)/.exec(mail.replace(/=\r?\n/g, ''))![1]!;
      return { m: r.json(), path: new URL(link).pathname };
    };
    const form = (path: string, body: string) =>
      t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body });

    const { m, path } = await send();
    assert.equal((await get(m.id)).delivery.state, 'delivered');
    const pageRes = await t.app.inject({ method: 'GET', url: path });
    assert.equal(pageRes.statusCode, 200);
    assert.match(pageRes.body, /Anna Sender/);
    assert.match(String(pageRes.headers['content-security-policy']), /default-src 'none'/);
    const ok = await form(path, 'decision=approve&address=bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    assert.equal(ok.statusCode, 200, ok.body);
    const accepted = await get(m.id);
    assert.equal(accepted.status, 'accepted');
    assert.equal(accepted.destination_address, 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    assert.equal((await form(path, 'decision=reject&code=high_risk&message=x')).statusCode, 409);
    const ev = await t.db.query<{ data: { by: string; status: string } }>(
      "SELECT data FROM events WHERE type = 'travel_rule.status_changed' AND resource_id = $1 ORDER BY id",
      [m.id],
    );
    assert.deepEqual(ev.at(-1)!.data.by, 'counterparty');

    const second = await send();
    assert.equal((await form(second.path, 'decision=reject&code=unknown_beneficiary&message=not+our+customer')).statusCode, 200);
    const rejected = await get(second.m.id);
    assert.equal(rejected.status, 'rejected');
    assert.deepEqual(rejected.rejection, { code: 'unknown_beneficiary', message: 'not our customer', retryable: false, kind: 'rejected' });
    assert.equal((await t.app.inject({ method: 'GET', url: '/travel-rule/respond/guess' })).statusCode, 404);
  } finally {
    email.close();
    smtp.close();
  }
});
