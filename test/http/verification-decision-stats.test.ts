import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { sessions } from '../../src/modules/verifications/repository.js';
import { DEFAULT_JOURNEYS } from '../../src/modules/journeys/defaults.js';
import { newId } from '../../src/platform/ids.js';

// GET /v1/verifications/decision-stats: decisions per UTC day and the approval rate (the dashboard's chart).

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

/** A session decided at a moment, written as the pipeline leaves it (the test needs only the decision and its time). */
async function decided(o: Tenant, environment: 'sandbox' | 'production', decision: string, at: string) {
  const ctx = o.ctx(environment);
  const id = newId('session');
  await t.db.transaction(async (tx) => {
    await sessions.insert(
      tx,
      ctx,
      {
        id,
        journeyKey: 'kyc_standard',
        journeyVersion: 1,
        definition: DEFAULT_JOURNEYS[0]!.definition,
        subjectType: 'individual',
        subjectReference: `cus_${id}`,
        subjectCountry: null,
        redirectUrl: null,
        expiresAt: new Date(Date.now() + 3_600_000),
        tokenHash: `hash_${id}`,
        tokenExpiresAt: new Date(Date.now() + 3_600_000),
        sandboxOutcome: null,
        fieldsSealed: null,
      },
      'token_issued',
    );
    const status = decision === 'referred' ? 'referred' : decision;
    await tx.query('UPDATE sessions SET status = $2, decision = $3, decided_at = $4 WHERE id = $1', [id, status, decision, at]);
  });
}

describe('decision stats', () => {
  routeSecurityTests('getVerificationDecisionStats', () => t, {
    method: 'GET',
    url: () => '/v1/verifications/decision-stats',
    scope: 'verifications:read',
  });

  test('every day of the window with its decisions and approval rate; other environments and days outside are not counted', async () => {
    const o = await t.tenant();
    await decided(o, 'sandbox', 'approved', '2026-03-01T00:00:00Z');
    await decided(o, 'sandbox', 'approved', '2026-03-01T23:59:59Z');
    await decided(o, 'sandbox', 'declined', '2026-03-01T12:00:00Z');
    await decided(o, 'sandbox', 'referred', '2026-03-03T08:00:00Z');
    await decided(o, 'sandbox', 'approved', '2026-03-04T00:00:00Z'); // the day after the window
    await decided(o, 'sandbox', 'approved', '2026-02-28T23:59:59Z'); // the day before
    await decided(o, 'production', 'declined', '2026-03-02T10:00:00Z');

    const res = await t.call('GET', '/v1/verifications/decision-stats?from=2026-03-01&to=2026-03-03', { key: o.sandboxKey });
    assert.equal(res.statusCode, 200, res.body);
    const s = res.json();
    assert.deepEqual([s.from, s.to, s.approved, s.declined, s.referred, s.approval_rate], ['2026-03-01', '2026-03-03', 2, 1, 1, 0.6667]);
    assert.deepEqual(s.days, [
      { date: '2026-03-01', approved: 2, declined: 1, referred: 0, approval_rate: 0.6667 },
      { date: '2026-03-02', approved: 0, declined: 0, referred: 0, approval_rate: null },
      { date: '2026-03-03', approved: 0, declined: 0, referred: 1, approval_rate: null },
    ]);
    const prod = (await t.call('GET', '/v1/verifications/decision-stats?from=2026-03-01&to=2026-03-03', { key: o.productionKey })).json();
    assert.deepEqual([prod.declined, prod.approval_rate], [1, 0]);
    // Another tenant sees none of it.
    const other = await t.tenant();
    const none = (await t.call('GET', '/v1/verifications/decision-stats?from=2026-03-01&to=2026-03-03', { key: other.sandboxKey })).json();
    assert.deepEqual([none.approved, none.declined, none.referred], [0, 0, 0]);
  });

  test('the default window is the last 30 days; a reversed or too long window is 400 naming the field', async () => {
    const o = await t.tenant();
    const def = (await t.call('GET', '/v1/verifications/decision-stats', { key: o.sandboxKey })).json();
    assert.equal(def.days.length, 30);
    assert.equal(def.to, new Date().toISOString().slice(0, 10));
    // The default window never starts before 1970.
    const early = (await t.call('GET', '/v1/verifications/decision-stats?to=1970-01-03', { key: o.sandboxKey })).json();
    assert.deepEqual([early.from, early.days.length], ['1970-01-01', 3]);
    for (const [q, field] of [
      ['from=2026-03-05&to=2026-03-01', 'from'],
      ['from=2024-01-01&to=2026-03-01', 'from'],
      ['from=yesterday', 'from'],
      ['to=2026-13-01', 'to'],
      // Days whose window would leave the four-digit years (a 500 from the database before).
      ['to=9999-12-31', 'to'],
      ['from=9999-12-31&to=9999-12-31', 'to'],
      ['from=0001-01-01&to=0001-01-05', 'to'],
      ['from=1969-12-31&to=1970-01-05', 'from'],
    ] as const) {
      const bad = await t.call('GET', `/v1/verifications/decision-stats?${q}`, { key: o.sandboxKey });
      assert.equal(bad.statusCode, 400, q);
      assert.equal(bad.json().error.field, field, q);
    }
  });
});
