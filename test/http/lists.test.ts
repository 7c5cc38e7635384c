import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { countMessages } from '../helpers/messages.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());
const app = () => t;

const body = { kind: 'email', value: 'Fraudster@Example.com', reason: 'chargeback ring' };
const create = async (tt: TestApp, owner: { sandboxKey: string }) =>
  (await tt.call('POST', '/v1/lists/blocklist/entries', { key: owner.sandboxKey, body })).json().id as string;

describe('POST /v1/lists/{list}/entries', () => {
  routeSecurityTests('createListEntry', app, {
    method: 'POST',
    url: () => '/v1/lists/blocklist/entries',
    scope: 'lists:write',
    body,
    malformed: { body: { ...body, reason: '' }, field: 'reason' },
  });

  test('creates an entry, normalises its value, and writes the audit row in the same transaction', async () => {
    const owner = await t.tenant();
    const res = await t.call('POST', '/v1/lists/blocklist/entries', { key: owner.sandboxKey, body });
    assert.equal(res.statusCode, 201);
    const e = res.json();
    assert.match(e.id, /^lse_/);
    assert.equal(e.normalized_value, 'fraudster@example.com');
    const audit = await t.db.query<{ action: string; request_id: string; actor_id: string }>(
      'SELECT action, request_id, actor_id FROM audit_events WHERE resource_id = $1',
      [e.id],
    );
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.action, 'list_entry.created');
    assert.equal(audit[0]!.request_id, res.headers['x-request-id']);
  });

  test('the created entry is answered exactly as it is read back (sealed and clear kinds, expiry, subject)', async () => {
    const owner = await t.tenant();
    const bodies = [
      { ...body, expires_at: '2099-03-04T05:06:07.891Z', subject_reference: 'cust-42' },
      { kind: 'screening_entity', value: 'ofac-sdn-12345', reason: 'cleared after review', subject_reference: 'cust-7' },
      { kind: 'phone', value: '+44 20 7946 0000', reason: 'mule' },
    ];
    for (const [i, b] of bodies.entries()) {
      const list = i === 1 ? 'allowlist' : 'blocklist';
      const res = await t.call('POST', `/v1/lists/${list}/entries`, { key: owner.sandboxKey, body: b });
      assert.equal(res.statusCode, 201, res.body);
      const got = await t.call('GET', `/v1/lists/${list}/entries/${res.json().id}`, { key: owner.sandboxKey });
      assert.equal(got.statusCode, 200);
      assert.deepEqual(res.json(), got.json());
    }
  });

  test('an allowlist entry for a screening entity must name its subject', async () => {
    const owner = await t.tenant();
    const res = await t.call('POST', '/v1/lists/allowlist/entries', {
      key: owner.sandboxKey,
      body: { kind: 'screening_entity', value: 'ofac-sdn:123', reason: 'different DOB' },
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.field, 'subject_reference');
  });
});

describe('GET /v1/lists/{list}/entries', () => {
  routeSecurityTests('listListEntries', app, { method: 'GET', url: () => '/v1/lists/blocklist/entries', scope: 'lists:read' });

  test('pages through every entry exactly once, even while new ones are added', async () => {
    const owner = await t.tenant();
    const made: string[] = [];
    for (let i = 0; i < 7; i++)
      made.push(
        (await t.call('POST', '/v1/lists/blocklist/entries', { key: owner.sandboxKey, body: { ...body, value: `p${i}@x.io` } })).json().id,
      );
    const seen: string[] = [];
    let cursor: string | null = null;
    let round = 0;
    do {
      const url: string = `/v1/lists/blocklist/entries?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = (await t.call('GET', url, { key: owner.sandboxKey })).json();
      seen.push(...page.data.map((e: { id: string }) => e.id));
      cursor = page.next_cursor;
      if (round++ === 0)
        await t.call('POST', '/v1/lists/blocklist/entries', { key: owner.sandboxKey, body: { ...body, value: 'late@x.io' } });
    } while (cursor);
    assert.deepEqual([...seen].sort(), [...made].sort());
  });

  test("another tenant's cursor is refused with field cursor", async () => {
    const a = await t.tenant();
    const b = await t.tenant();
    for (let i = 0; i < 2; i++) await t.call('POST', '/v1/lists/blocklist/entries', { key: a.sandboxKey, body });
    const page = (await t.call('GET', '/v1/lists/blocklist/entries?limit=1', { key: a.sandboxKey })).json();
    const res = await t.call('GET', `/v1/lists/blocklist/entries?cursor=${encodeURIComponent(page.next_cursor)}`, { key: b.sandboxKey });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.field, 'cursor');
  });
});

describe('GET and DELETE /v1/lists/{list}/entries/{id}', () => {
  routeSecurityTests('getListEntry', app, { method: 'GET', url: (id) => `/v1/lists/blocklist/entries/${id}`, scope: 'lists:read', create });
  routeSecurityTests('deleteListEntry', app, {
    method: 'DELETE',
    url: (id) => `/v1/lists/blocklist/entries/${id}`,
    scope: 'lists:write',
    create,
  });

  test('a deleted entry is gone from reads and audited', async () => {
    const owner = await t.tenant();
    const id = await create(t, owner);
    assert.equal((await t.call('DELETE', `/v1/lists/blocklist/entries/${id}`, { key: owner.sandboxKey })).statusCode, 200);
    assert.equal((await t.call('GET', `/v1/lists/blocklist/entries/${id}`, { key: owner.sandboxKey })).statusCode, 404);
    assert.equal((await t.call('DELETE', `/v1/lists/blocklist/entries/${id}`, { key: owner.sandboxKey })).statusCode, 404);
    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1 ORDER BY id', [id]);
    assert.deepEqual(
      audit.map((a) => a.action),
      ['list_entry.created', 'list_entry.deleted'],
    );
  });
});

describe('the write path of a list POST (issue 17)', () => {
  // Inside its transaction an idempotent, audited list POST reads nothing back: the entry's INSERT travels with the
  // message that stores the response, writes the audit and usage rows and commits, so the whole write is one
  // message to the database (node-postgres: one round trip; PGlite: one pass).
  test('a keyed POST sends its statements in one message, and answers as it reads back and replays', async () => {
    const tt = await createTestApp();
    try {
      const owner = await tt.tenant();
      const { seen, during } = countMessages(tt.db);
      const headers = { 'idempotency-key': 'one-message-1' };
      const res = await during(() => tt.call('POST', '/v1/lists/blocklist/entries', { key: owner.sandboxKey, body, headers }));
      assert.equal(res.statusCode, 201);
      const post = seen.filter((x) => [...x.alone, ...x.held].some((sql) => sql.includes('INSERT INTO list_entries')));
      assert.equal(post.length, 1);
      assert.deepEqual(post[0]!.alone, [], 'nothing is sent on its own inside the transaction');
      assert.equal(post[0]!.held.length, 1, 'the INSERT travels with the committing message');
      const created = res.json();
      const read = await tt.call('GET', `/v1/lists/blocklist/entries/${created.id}`, { key: owner.sandboxKey });
      assert.deepEqual(read.json(), created);
      const again = await tt.call('POST', '/v1/lists/blocklist/entries', { key: owner.sandboxKey, body, headers });
      assert.equal(again.statusCode, 201);
      assert.deepEqual(again.json(), created);
      const rows = await tt.db.query<{ n: number }>('SELECT count(*)::int AS n FROM list_entries WHERE account_id = $1', [owner.accountId]);
      assert.equal(rows[0]!.n, 1);
      const audit = await tt.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events WHERE resource_id = $1', [created.id]);
      assert.equal(audit[0]!.n, 1);
    } finally {
      await tt.close();
    }
  });
});
