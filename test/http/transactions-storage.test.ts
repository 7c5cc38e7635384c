import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { publishRuleSet, testAppTenant } from '../../bench/lib/kyt-setup.js';

// Migration 0042: a transaction's evaluation (~5 kB of jsonb with 22 rules) stays in the row, not in the toast table
// (a second heap row and index entry per POST), and is compressed with lz4 where the server has it.
let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

test('an evaluation of 22 rules is stored inline (nothing added to the toast table), lz4 where the server has it', async () => {
  const { tenant, maker, checker } = await testAppTenant(t);
  assert.equal(await publishRuleSet(maker, checker), 22);
  const [found] = await t.db.query<{ toast: string }>(
    "SELECT c.reltoastrelid::regclass::text AS toast FROM pg_class c WHERE c.oid = 'transactions'::regclass",
  );
  const toast = found!.toast;
  const chunks = async () => Number((await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${toast}`))[0]!.n);
  const before = await chunks();
  for (let i = 0; i < 3; i++) {
    const res = await t.call('POST', '/v1/transactions', {
      key: tenant.sandboxKey,
      body: {
        reference: `inline_${i}`,
        occurred_at: new Date().toISOString(),
        amount: `${120 + i}.00`,
        currency: 'EUR',
        direction: i % 2 ? 'in' : 'out',
        subject: { reference: 'cus_inline' },
        counterparty: { reference: `cp_${i}`, bank_country: 'DE' },
      },
    });
    assert.equal(res.statusCode, 201, res.body);
  }
  const rows = await t.db.query<{ text: number; compression: string | null }>(
    "SELECT octet_length(evaluation::text) AS text, pg_column_compression(evaluation) AS compression FROM transactions WHERE reference LIKE 'inline\\_%'",
  );
  assert.equal(rows.length, 3);
  for (const r of rows) assert.ok(Number(r.text) > 4000, `an evaluation of ${r.text} bytes as text: large enough to have been toasted`);
  assert.equal(await chunks(), before, 'no toast chunk written');
  const lz4 = await t.db
    .query("SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)")
    .then((r) => r.length === 1);
  for (const r of rows) assert.equal(r.compression, lz4 ? 'lz4' : 'pglz');
});
