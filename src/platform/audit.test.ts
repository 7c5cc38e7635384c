import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../../test/helpers/test-db.js';
import type { Db } from './db.js';
import { auditCheckpoint, auditRowHash, checkAuditCheckpoint, emitAudit, sealAuditChain, verifyAuditChain } from './audit.js';
import type { RequestContext } from './context.js';

let db: Db;
let close: () => Promise<void>;
before(async () => ({ db, close } = await createTestDb()));
after(() => close());

const ctx = (): RequestContext => ({
  db,
  accountId: 'acct_x',
  environment: 'sandbox',
  actor: { type: 'api_key', id: 'key_1' },
  scopes: ['*'],
  requestId: 'req_1',
});

test('sealed audit rows verify, and an edit or a deletion is detected at its row', async () => {
  for (let i = 0; i < 5; i++) {
    await db.transaction((tx) =>
      emitAudit(tx, ctx(), {
        action: 'thing.updated',
        resourceType: 'thing',
        resourceId: `t_${i}`,
        diff: { n: { before: i, after: i + 1 } },
      }),
    );
  }
  assert.equal(await sealAuditChain(db), 5);
  assert.equal(await sealAuditChain(db), 0);
  let v = await verifyAuditChain(db);
  assert.equal(v.ok, true);
  assert.equal(v.checked, 5);

  await db.query('UPDATE audit_events SET diff = \'{"n":{"before":0,"after":99}}\'::jsonb WHERE chain_seq = 3');
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

test('keyed chain: an edited row with every later hash recomputed without the key is still found', async () => {
  const { db: d, close: c } = await createTestDb();
  try {
    const cx = { ...ctx(), db: d };
    for (let i = 0; i < 4; i++) await d.transaction((tx) => emitAudit(tx, cx, { action: 'a', resourceType: 'r', resourceId: String(i) }));
    await sealAuditChain(d);
    // An attacker with database access but not MASTER_KEY edits row 2 and relinks rows 2..4 with plain SHA-256.
    await d.query("UPDATE audit_events SET resource_id = 'forged' WHERE chain_seq = 2");
    const rows = await d.query<Record<string, unknown>>('SELECT * FROM audit_events WHERE chain_seq >= 1 ORDER BY chain_seq');
    let prev = rows[0]!.hash as string;
    for (const r of rows.slice(1)) {
      // The exact formula of the unkeyed chain (what anyone could recompute before the chain had a key).
      const h = auditRowHash(prev, Number(r.chain_seq), r as never, { hmacFromSeq: Number.POSITIVE_INFINITY, legacyMaxId: null });
      await d.query('UPDATE audit_events SET prev_hash = $1, hash = $2 WHERE id = $3', [prev, h, r.id]);
      prev = h;
    }
    const v = await verifyAuditChain(d);
    assert.equal(v.ok, false);
    assert.equal(v.firstBadSeq, 2);
  } finally {
    await c();
  }
});

test('a row inserted before sealing without the key is named when the chain is verified', async () => {
  const { db: d, close: c } = await createTestDb();
  try {
    const cx = { ...ctx(), db: d };
    await d.transaction((tx) => emitAudit(tx, cx, { action: 'a', resourceType: 'r', resourceId: '1' }));
    await d.query(
      `INSERT INTO audit_events (id, account_id, environment, actor_type, actor_id, action, resource_type, resource_id)
       VALUES ('audit_zzzzzzzzzzzzzzzzzzzzzzzzzz', 'acct_x', 'sandbox', 'api_key', 'key_1', 'key.revoked', 'api_key', 'key_2')`,
    );
    await d.transaction((tx) => emitAudit(tx, cx, { action: 'a', resourceType: 'r', resourceId: '3' }));
    await sealAuditChain(d);
    const v = await verifyAuditChain(d);
    assert.equal(v.ok, false);
    assert.match(v.problem!, /audit_zzzz.*not written by the service/);
  } finally {
    await c();
  }
});

test('a signed checkpoint detects rows deleted from the end, a rewritten head and a forged checkpoint', async () => {
  const { db: d, close: c } = await createTestDb();
  try {
    const cx = { ...ctx(), db: d };
    for (let i = 0; i < 5; i++) await d.transaction((tx) => emitAudit(tx, cx, { action: 'a', resourceType: 'r', resourceId: String(i) }));
    const cp = await auditCheckpoint(d);
    assert.equal(cp.head_seq, 5);
    assert.equal(await checkAuditCheckpoint(d, cp), null);
    // More rows after the checkpoint are fine.
    await d.transaction((tx) => emitAudit(tx, cx, { action: 'a', resourceType: 'r', resourceId: '5' }));
    await sealAuditChain(d);
    assert.equal(await checkAuditCheckpoint(d, cp), null);
    assert.match((await checkAuditCheckpoint(d, { ...cp, head_seq: 6 }))!, /signature/);
    // Truncation: the chain alone still verifies, the checkpoint does not.
    await d.query('DELETE FROM audit_events WHERE chain_seq >= 4');
    assert.equal((await verifyAuditChain(d)).ok, true);
    assert.match((await checkAuditCheckpoint(d, cp))!, /row 5 .* is gone: the chain ends at row 3/);
  } finally {
    await c();
  }
});
