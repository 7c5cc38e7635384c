import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { listEntries } from '../../src/modules/lists/repository.js';
import { Sealer } from '../../src/platform/crypto.js';

/** Block and allow list values are personal data: sealed at rest, matched by a keyed blind index. */
let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

test('values are stored sealed with a blind index, read back in clear, and still match in screening', async () => {
  const o = await t.tenant();
  const add = (body: Record<string, unknown>) =>
    t.call('POST', '/v1/lists/blocklist/entries', { key: o.sandboxKey, body: { reason: 'test', ...body } });
  const email = (await add({ kind: 'email', value: 'Fraud@Example.org' })).json();
  const name = (await add({ kind: 'name', value: 'Zorro Quintana-Vélez' })).json();
  assert.equal(email.value, 'Fraud@Example.org');
  assert.equal(email.normalized_value, 'fraud@example.org');
  const raw = await t.db.query<{
    value: string | null;
    normalized_value: string | null;
    value_sealed: string | null;
    value_index: string | null;
  }>('SELECT value, normalized_value, value_sealed, value_index FROM list_entries WHERE id = ANY($1)', [[email.id, name.id]]);
  for (const r of raw) {
    assert.equal(r.value, null);
    assert.equal(r.normalized_value, null);
    assert.match(r.value_sealed!, /^v1\./);
    assert.match(r.value_index!, /^[0-9a-f]{64}$/);
  }
  const dump = JSON.stringify(await t.db.query('SELECT * FROM list_entries WHERE account_id = $1', [o.accountId]));
  assert.doesNotMatch(dump, /fraud@example|zorro|quintana/i, 'no clear value anywhere in the table');
  // A name block entry still matches the screened name (by its blind index).
  const s = (await t.call('POST', '/v1/checks/screening', { key: o.sandboxKey, body: { name: 'Zorro Quintana Velez' } })).json();
  assert.equal(s.status, 'match', JSON.stringify(s.result?.hits?.[0]));
  assert.ok(s.result.hits.some((h: { source: string }) => h.source === 'blocklist'));
  // The same value in another tenant has another index: nothing correlates across tenants.
  const other = await t.tenant();
  await t.call('POST', '/v1/lists/blocklist/entries', {
    key: other.sandboxKey,
    body: { kind: 'email', value: 'fraud@example.org', reason: 'x' },
  });
  const idx = await t.db.query<{ value_index: string }>(
    "SELECT value_index FROM list_entries WHERE kind = 'email' AND deleted_at IS NULL AND account_id = ANY($1)",
    [[o.accountId, other.accountId]],
  );
  assert.equal(new Set(idx.map((r) => r.value_index)).size, 2);
});

test('rows written before sealing are sealed by the start-up batch and keep matching', async () => {
  const o = await t.tenant();
  await t.db.query(
    `INSERT INTO list_entries (id, account_id, environment, list, kind, value, normalized_value, reason, created_by)
     VALUES ('lst_legacy000000000000000001', $1, 'sandbox', 'blocklist', 'name', 'Old Clear Name', 'old clear name', 'legacy', 'api_key:x')`,
    [o.accountId],
  );
  const before = (await t.call('POST', '/v1/checks/screening', { key: o.sandboxKey, body: { name: 'Old Clear Name' } })).json();
  assert.equal(before.status, 'match', 'a legacy clear row matches before it is sealed');
  const sealer = new Sealer(t.config.masterKey);
  while ((await listEntries.sealLegacyBatch(t.db, sealer)) > 0);
  const [row] = await t.db.query<{ value: string | null; value_sealed: string | null }>(
    "SELECT value, value_sealed FROM list_entries WHERE id = 'lst_legacy000000000000000001'",
  );
  assert.equal(row!.value, null);
  assert.ok(row!.value_sealed);
  const after = (await t.call('POST', '/v1/checks/screening', { key: o.sandboxKey, body: { name: 'Old Clear Name' } })).json();
  assert.equal(after.status, 'match', 'and after');
  const got = (await t.call('GET', '/v1/lists/blocklist/entries/lst_legacy000000000000000001', { key: o.sandboxKey })).json();
  assert.equal(got.value, 'Old Clear Name');
});
