import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../../test/helpers/test-db.js';
import type { Db } from './db.js';
import { emitAudit, sealAuditChain, verifyAuditChain } from './audit.js';
import type { RequestContext } from './context.js';

let db: Db;
let close: () => Promise<void>;
before(async () => ({ db, close } = await createTestDb()));
after(() => close());

const ctx = (): RequestContext => ({ db, accountId: 'acct_x', environment: 'sandbox', actor: { type: 'api_key', id: 'key_1' }, scopes: ['*'], requestId: 'req_1' });

test('sealed audit rows verify, and an edit or a deletion is detected at its row', async () => {
  for (let i = 0; i < 5; i++) {
    await db.transaction((tx) => emitAudit(tx, ctx(), { action: 'thing.updated', resourceType: 'thing', resourceId: `t_${i}`, diff: { n: { before: i, after: i + 1 } } }));
  }
  assert.equal(await sealAuditChain(db), 5);
  assert.equal(await sealAuditChain(db), 0);
  let v = await verifyAuditChain(db);
  assert.equal(v.ok, true);
  assert.equal(v.checked, 5);

  await db.query("UPDATE audit_events SET diff = '{\"n\":{\"before\":0,\"after\":99}}'::jsonb WHERE chain_seq = 3");
  v = await verifyAuditChain(db);
  assert.equal(v.ok, false);
  assert.equal(v.firstBadSeq, 3);
  assert.match(v.problem!, /altered/);
});

test('a deleted row breaks the chain', async () => {
  const { db: d2, close: c2 } = await createTestDb();
  try {
    const c = { ...ctx(), db: d2 };
    for (let i = 0; i < 4; i++) await d2.transaction((tx) => emitAudit(tx, c, { action: 'a', resourceType: 'r', resourceId: String(i) }));
    await sealAuditChain(d2);
    await d2.query('DELETE FROM audit_events WHERE chain_seq = 2');
    const v = await verifyAuditChain(d2);
    assert.equal(v.ok, false);
    assert.equal(v.firstBadSeq, 2);
  } finally {
    await c2();
  }
});

test('an audit row is written in the mutation transaction: a rollback removes both', async () => {
  const before = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events'))[0]!.n;
  await assert.rejects(
    db.transaction(async (tx) => {
      await emitAudit(tx, ctx(), { action: 'x', resourceType: 'r', resourceId: 'r1' });
      throw new Error('mutation failed');
    }),
  );
  const afterCount = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events'))[0]!.n;
  assert.equal(afterCount, before);
});
