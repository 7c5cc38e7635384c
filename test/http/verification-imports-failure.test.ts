import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp, type App } from '../../src/app.js';
import type { Db, Queryable } from '../../src/platform/db.js';
import { MemoryRateLimiter } from '../../src/platform/rate-limit.js';
import { createAccount } from '../../src/platform/accounts.js';
import { createApiKey } from '../../src/platform/api-keys.js';
import { createTestDb } from '../helpers/test-db.js';
import { testConfig } from '../helpers/test-app.js';

/**
 * A record that fails while it is being written (the database refuses a statement half way) leaves
 * nothing of itself behind, does not stop the records after it, and the import answers 201 with a
 * summary naming it: never a 500 after earlier records were written.
 */
const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of closers.reverse()) await c();
});

/** The database as it is, except that inserting a check of the session whose record is `poison` fails. */
function failingOn(db: Db, poison: string): Db {
  let poisonedSession: string | null = null;
  const wrap = (q: Queryable): Queryable => ({
    query: async (sql: string, params?: unknown[]) => {
      if (/INSERT INTO sessions/.test(sql) && params?.includes(poison)) {
        const rows = await q.query(sql, params);
        poisonedSession = (rows[0] as { id?: string } | undefined)?.id ?? null;
        return rows as never;
      }
      if (/INSERT INTO checks/.test(sql) && poisonedSession && params?.includes(poisonedSession))
        throw new Error('simulated: the database refused the statement');
      return q.query(sql, params) as never;
    },
  });
  return Object.assign(Object.create(db) as Db, {
    query: wrap(db).query,
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction((tx) => fn(wrap(tx))),
  });
}

test('one record failing half way through its write: the others are imported, it is reported failed, nothing of it is kept', async () => {
  const { db, close } = await createTestDb();
  const app: App = await buildApp({
    config: testConfig(),
    db: failingOn(db, 'rec-2'),
    rateLimiter: new MemoryRateLimiter(),
    keyCacheTtlMs: 0,
  });
  await app.ready();
  closers.push(close, () => app.close());
  const account = await createAccount(db, { name: 'imports' });
  const { key } = await createApiKey(db, { accountId: account.id, environment: 'sandbox' });
  const record = (id: string) => ({
    external_id: id,
    subject: { type: 'individual', reference: `cust_${id}` },
    journey: 'KYC',
    status: 'approved',
    risk: { score: 10, band: 'low' },
    created_at: '2025-01-01T00:00:00Z',
    completed_at: '2025-01-01T00:10:00Z',
    checks: [{ type: 'document', status: 'passed', score: 0.9 }],
  });
  const res = await app.inject({
    method: 'POST',
    url: '/v1/verifications/imports',
    headers: { authorization: `Bearer ${key}` },
    payload: { provider: 'onfido', records: [record('rec-1'), record('rec-2'), record('rec-3')] },
  });
  assert.equal(res.statusCode, 201, res.body);
  const out = res.json();
  assert.deepEqual(
    out.records.map((r: { external_id: string; status: string }) => `${r.external_id}:${r.status}`),
    ['rec-1:imported', 'rec-2:failed', 'rec-3:imported'],
  );
  assert.equal(out.records[1].error.code, 'internal_error');
  assert.deepEqual([out.created, out.failed], [2, 1]);
  const sessions = await db.query<{ import_external_id: string }>(
    'SELECT import_external_id FROM sessions WHERE account_id = $1 ORDER BY import_external_id',
    [account.id],
  );
  assert.deepEqual(
    sessions.map((s) => s.import_external_id),
    ['rec-1', 'rec-3'],
    'the failed record left no session behind',
  );
  const audits = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM audit_events WHERE account_id = $1 AND action = 'verification.imported'",
    [account.id],
  );
  assert.equal(audits[0]!.n, 2);
});
