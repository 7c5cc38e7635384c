import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { recordUsage } from '../../src/platform/usage.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

const entry = (i: number) => ({ kind: 'email', value: `u${i}@x.io`, reason: `r${i}` });

describe('GET /v1/audit-events', () => {
  routeSecurityTests('listAuditEvents', () => t, { method: 'GET', url: () => '/v1/audit-events', scope: 'audit:read' });

  test('a client following next_cursor sees every event exactly once while new ones are written', async () => {
    const o = await t.tenant();
    for (let i = 0; i < 5; i++) await t.call('POST', '/v1/lists/blocklist/entries', { key: o.sandboxKey, body: entry(i) });
    const seen: string[] = [];
    let cursor: string | null = null;
    let writes = 5;
    for (let round = 0; round < 20; round++) {
      const url: string = `/v1/audit-events?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = (await t.call('GET', url, { key: o.sandboxKey })).json();
      seen.push(...page.data.map((e: { id: string }) => e.id));
      if (writes < 9) await t.call('POST', '/v1/lists/blocklist/entries', { key: o.sandboxKey, body: entry(writes++) });
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    const all = await t.db.query<{ id: string }>('SELECT id FROM audit_events WHERE account_id = $1', [o.accountId]);
    assert.equal(new Set(seen).size, seen.length, 'no duplicates');
    // Everything written before the last page was read is in the stream; later writes can be resumed with after_sequence.
    const page = (await t.call('GET', '/v1/audit-events?limit=100', { key: o.sandboxKey })).json();
    const last = Math.max(...page.data.filter((e: { id: string }) => seen.includes(e.id)).map((e: { sequence: number }) => e.sequence));
    const rest = (await t.call('GET', `/v1/audit-events?after_sequence=${last}`, { key: o.sandboxKey })).json();
    assert.deepEqual([...seen, ...rest.data.map((e: { id: string }) => e.id)].sort(), all.map((a) => a.id).sort());
  });

  test('filters by actor, action, resource and time; chain fields are present; other tenants are invisible', async () => {
    const o = await t.tenant();
    const other = await t.tenant();
    const made = (await t.call('POST', '/v1/lists/blocklist/entries', { key: o.sandboxKey, body: entry(1) })).json();
    await t.call('DELETE', `/v1/lists/blocklist/entries/${made.id}`, { key: o.sandboxKey });
    await t.call('POST', '/v1/lists/blocklist/entries', { key: other.sandboxKey, body: entry(2) });
    const byAction = (await t.call('GET', '/v1/audit-events?action=list_entry.deleted', { key: o.sandboxKey })).json();
    assert.equal(byAction.data.length, 1);
    assert.equal(byAction.data[0].resource.id, made.id);
    assert.match(byAction.data[0].hash, /^[0-9a-f]{64}$/);
    const byResource = (await t.call('GET', `/v1/audit-events?resource_id=${made.id}`, { key: o.sandboxKey })).json();
    assert.deepEqual(
      byResource.data.map((e: { action: string }) => e.action),
      ['list_entry.created', 'list_entry.deleted'],
    );
    const actor = byResource.data[0].actor.id;
    assert.equal((await t.call('GET', `/v1/audit-events?actor_id=${actor}`, { key: o.sandboxKey })).json().data.length, 2);
    const future = new Date(Date.now() + 60_000).toISOString();
    assert.equal(
      (await t.call('GET', `/v1/audit-events?created_gte=${encodeURIComponent(future)}`, { key: o.sandboxKey })).json().data.length,
      0,
    );
    const bad = await t.call('GET', `/v1/audit-events?created_gte=${encodeURIComponent(future)}&created_lt=2020-01-01T00:00:00Z`, {
      key: o.sandboxKey,
    });
    assert.equal(bad.json().error.field, 'created_lt');
    assert.equal((await t.call('GET', `/v1/audit-events?resource_id=${made.id}`, { key: other.sandboxKey })).json().data.length, 0);
  });
});

describe('GET /v1/audit-events/verification', () => {
  routeSecurityTests('verifyAuditChain', () => t, { method: 'GET', url: () => '/v1/audit-events/verification', scope: 'audit:read' });

  test("verifies the tenant's rows and their links; an edited row and a deleted neighbour are named", async () => {
    const o = await t.tenant();
    const other = await t.tenant();
    for (let i = 0; i < 3; i++) {
      await t.call('POST', '/v1/lists/blocklist/entries', { key: o.sandboxKey, body: entry(100 + i) });
      await t.call('POST', '/v1/lists/blocklist/entries', { key: other.sandboxKey, body: entry(200 + i) });
    }
    const verify = async (key = o.sandboxKey) => (await t.call('GET', '/v1/audit-events/verification', { key })).json();
    const good = await verify();
    assert.equal(good.object, 'audit_chain_verification');
    assert.equal(good.ok, true, good.problem);
    assert.equal(good.first_bad_sequence, null);
    const mine = await t.db.query<{ id: string; chain_seq: string }>(
      "SELECT id, chain_seq FROM audit_events WHERE account_id = $1 AND environment = 'sandbox' ORDER BY chain_seq",
      [o.accountId],
    );
    assert.equal(good.checked, mine.length);
    assert.ok(good.head_sequence >= Number(mine.at(-1)!.chain_seq));
    // Production has its own rows (none here).
    assert.equal((await verify(o.productionKey)).checked, 0);

    const seq = Number(mine[1]!.chain_seq);
    const [row] = await t.db.query<{ resource_id: string }>('SELECT resource_id FROM audit_events WHERE chain_seq = $1', [seq]);
    await t.db.query("UPDATE audit_events SET resource_id = 'forged' WHERE chain_seq = $1", [seq]);
    const edited = await verify();
    assert.equal(edited.ok, false);
    assert.equal(edited.first_bad_sequence, seq);
    assert.match(edited.problem, /altered after sealing/);
    // The other tenant's own rows still hold.
    assert.equal((await verify(other.sandboxKey)).ok, true);
    await t.db.query('UPDATE audit_events SET resource_id = $2 WHERE chain_seq = $1', [seq, row!.resource_id]);
    assert.equal((await verify()).ok, true);

    // A deleted row next to one of the tenant's (whoever's it was) breaks a link the tenant's check follows.
    const gone = Number(mine[2]!.chain_seq) - 1;
    await t.db.query('DELETE FROM audit_events WHERE chain_seq = $1', [gone]);
    const deleted = await verify();
    assert.equal(deleted.ok, false);
    assert.equal(deleted.first_bad_sequence, gone);
    assert.match(deleted.problem, /is missing/);
  });
});

describe('GET /v1/usage', () => {
  routeSecurityTests('getUsage', () => t, { method: 'GET', url: () => '/v1/usage', scope: 'usage:read' });

  test('counts per module and operation for the current period, per environment', async () => {
    const o = await t.tenant();
    await t.db.transaction(async (tx) => {
      await recordUsage(tx, o.ctx(), 'checks', 'screening', 'chk_1');
      await recordUsage(tx, o.ctx(), 'checks', 'screening', 'chk_2');
      await recordUsage(tx, o.ctx(), 'checks', 'document', 'chk_3');
      await recordUsage(tx, o.ctx('production'), 'checks', 'document', 'chk_4');
    });
    const u = (await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json();
    assert.equal(u.total, 3);
    assert.equal(u.environment, 'sandbox');
    assert.deepEqual(u.modules, [
      {
        module: 'checks',
        count: 3,
        operations: [
          { operation: 'document', count: 1 },
          { operation: 'screening', count: 2 },
        ],
      },
    ]);
    // Per UTC day over the period: one record moved to the first day of the month.
    const today = new Date().toISOString().slice(0, 10);
    assert.deepEqual(u.days, [{ date: today, total: 3, modules: { checks: 3 } }]);
    await t.db.query(
      "UPDATE usage_records SET created_at = date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' WHERE account_id = $1 AND resource_id = 'chk_1'",
      [o.accountId],
    );
    const first = `${u.period}-01`;
    const byDay = (await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json().days;
    assert.deepEqual(
      byDay,
      first === today
        ? [{ date: today, total: 3, modules: { checks: 3 } }]
        : [
            { date: first, total: 1, modules: { checks: 1 } },
            { date: today, total: 2, modules: { checks: 2 } },
          ],
    );
    assert.equal((await t.call('GET', '/v1/usage', { key: o.productionKey })).json().total, 1);
    const past = (await t.call('GET', '/v1/usage?period=2020-01', { key: o.sandboxKey })).json();
    assert.equal(past.total, 0);
    assert.equal(past.period_start, '2020-01-01T00:00:00.000Z');
    assert.equal((await t.call('GET', '/v1/usage?period=2020-13', { key: o.sandboxKey })).json().error.field, 'period');
  });
});
