import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../../../../test/helpers/test-db.js';
import { scalarsOnly } from '../../../platform/sql-literals.js';
import { checks } from './repository.js';

const T = { accountId: 'acc_pending', environment: 'sandbox' as const };
const PENDING = [
  { id: 'chk_p1', type: 'document', subjectReference: 'cust-1', sessionId: 'ses_p1' },
  { id: 'chk_p2', type: 'sanctions_pep', subjectReference: null, sessionId: 'ses_p1' },
];

test('insertPending sends only scalar values, so the statement is prepared once per connection (an array value is parsed at every call)', async () => {
  const sent: unknown[][] = [];
  await checks.insertPending(
    { query: async (_sql: string, params?: readonly unknown[]) => (sent.push([...(params ?? [])]), []) },
    T,
    PENDING,
  );
  assert.equal(sent.length, 1);
  assert.ok(scalarsOnly(sent[0]!), `non-scalar parameter in ${JSON.stringify(sent[0])}`);
});

test('insertPending stores each check in order, a missing subject reference as NULL', async () => {
  const { db, close } = await createTestDb();
  try {
    await checks.insertPending(db, T, PENDING);
    const rows = await db.query<{ id: string; type: string; status: string; subject_reference: string | null; session_id: string }>(
      'SELECT id, type, status, subject_reference, session_id FROM checks WHERE account_id = $1 ORDER BY id',
      [T.accountId],
    );
    assert.deepEqual(rows, [
      { id: 'chk_p1', type: 'document', status: 'pending', subject_reference: 'cust-1', session_id: 'ses_p1' },
      { id: 'chk_p2', type: 'sanctions_pep', status: 'pending', subject_reference: null, session_id: 'ses_p1' },
    ]);
  } finally {
    await close();
  }
});
