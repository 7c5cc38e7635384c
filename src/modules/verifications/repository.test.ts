import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scalarsOnly, sqlTemplate } from '../../platform/sql-literals.js';
import { sessions } from './repository.js';

// Session creation's one statement must be one that PreparedStatements prepares: scalar values only and every
// `$n` named in the text. A value the text skips cannot be typed by PREPARE (42P18), and the statement was then
// parsed and planned by PostgreSQL at every creation (15 % more PostgreSQL CPU per creation, 2026-11-28).
test('sessions.insert sends one statement that names every value it passes, all scalars (so it is prepared once per connection)', async () => {
  for (const ifStillPublished of [false, true]) {
    const sent: { sql: string; params: readonly unknown[] }[] = [];
    const tx = { query: async (sql: string, params?: readonly unknown[]) => (sent.push({ sql, params: params ?? [] }), []) };
    const at = new Date('2026-11-28T12:00:00Z');
    await sessions.insert(
      tx,
      { accountId: 'acc_1', environment: 'sandbox', actor: { type: 'api_key', id: 'key_1' }, requestId: 'req_1' },
      {
        id: 'ses_1',
        journeyKey: 'kyc_standard',
        journeyVersion: 1,
        definition: { steps: [] } as never,
        subjectType: 'individual',
        subjectReference: 'cust-1',
        subjectCountry: null,
        redirectUrl: null,
        expiresAt: at,
        tokenHash: 'h',
        tokenExpiresAt: at,
        sandboxOutcome: null,
        fieldsSealed: null,
      },
      'token_issued',
      { ifStillPublished },
    );
    assert.equal(sent.length, 1);
    const { sql, params } = sent[0]!;
    assert.ok(scalarsOnly(params), `non-scalar parameter in ${JSON.stringify(params)}`);
    assert.ok(sqlTemplate(sql)!.usesEvery(params.length), `a value the text never names (of ${params.length}): ${sql}`);
  }
});
