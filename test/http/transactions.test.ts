import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());
const app = () => t;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let seq = 0;
const txn = (over: Record<string, unknown> = {}) => ({
  reference: `ref_${++seq}_${Math.random().toString(36).slice(2)}`,
  occurred_at: new Date().toISOString(),
  amount: '100.00',
  currency: 'EUR',
  direction: 'out',
  type: 'transfer',
  subject: { reference: 'cus_1' },
  counterparty: { name: 'ACME Ltd', account: 'DE89370400440532013000', bank_country: 'DE' },
  ...over,
});
const post = (o: Tenant, body: unknown) => t.call('POST', '/v1/transactions', { key: o.sandboxKey, body });

/** Publishes a rule set through the API: the sandbox key drafts, a second key publishes. */
async function publish(o: Tenant, draft: { aggregates?: unknown[]; thresholds?: unknown; rules: Record<string, unknown>[] }) {
  // Start from an empty rule set rather than the starter library.
  const start = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json();
  for (const r of start.rules) await t.call('PATCH', `/v1/rules/${r.id}`, { key: o.sandboxKey, body: { status: 'disabled' } });
  const d = await t.call('PATCH', '/v1/rules/draft', {
    key: o.sandboxKey,
    body: {
      aggregates: [...start.aggregates, ...(draft.aggregates ?? [])],
      thresholds: draft.thresholds ?? { review: 30, block_and_review: 60, decline: 100 },
    },
  });
  assert.equal(d.statusCode, 200, d.body);
  const ids: Record<string, string> = {};
  for (const r of draft.rules) {
    const res = await t.call('POST', '/v1/rules', { key: o.sandboxKey, body: { severity: 'high', status: 'active', ...r } });
    assert.equal(res.statusCode, 201, res.body);
    ids[r.key as string] = res.json().id;
  }
  const revision = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json().revision;
  const pub = await t.call('POST', '/v1/rules/publish', { key: await o.keyWith(['rules:publish']), body: { revision } });
  assert.equal(pub.statusCode, 201, pub.body);
  return ids;
}

describe('POST /v1/transactions, GET /v1/transactions/{id}, GET /v1/transactions', () => {
  routeSecurityTests('createTransaction', app, {
    method: 'POST',
    url: () => '/v1/transactions',
    scope: 'transactions:write',
    body: txn(),
    malformed: { body: txn({ amount: '1e5' }), field: 'amount' },
  });
  routeSecurityTests('getTransaction', app, {
    method: 'GET',
    url: (id) => `/v1/transactions/${id}`,
    scope: 'transactions:read',
    create: async (_tt, o) => (await post(o, txn())).json().id,
  });
  routeSecurityTests('listTransactions', app, { method: 'GET', url: () => '/v1/transactions', scope: 'transactions:read' });

  test('without a published rule set: approved, stored, retrievable, listed; a repeat of the reference is idempotent', async () => {
    const o = await t.tenant();
    const body = txn();
    const res = await post(o, body);
    assert.equal(res.statusCode, 201, res.body);
    const x = res.json();
    assert.match(x.id, /^txn_/);
    assert.deepEqual([x.status, x.score, x.ruleset_version, x.rules, x.alerts, x.amount], ['approved', 0, null, [], [], '100.00']);
    const again = await post(o, body);
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().id, x.id);
    const other = await post(o, { ...body, amount: '101.00' });
    assert.equal(other.statusCode, 409);
    assert.equal(other.json().error.field, 'reference');
    assert.equal((await t.call('GET', `/v1/transactions/${x.id}`, { key: o.sandboxKey })).json().reference, body.reference);
    const list = (await t.call('GET', '/v1/transactions?subject_reference=cus_1&direction=out', { key: o.sandboxKey })).json();
    assert.deepEqual(
      list.data.map((d: { id: string }) => d.id),
      [x.id],
    );
    const rows = await t.db.query('SELECT 1 FROM transactions WHERE account_id = $1', [o.accountId]);
    assert.equal(rows.length, 1);
    const usage = await t.db.query("SELECT 1 FROM usage_records WHERE account_id = $1 AND module = 'transactions'", [o.accountId]);
    assert.equal(usage.length, 1, 'billed once, not for the repeat');
  });

  test('bad input: 400 naming the field, nothing stored', async () => {
    const o = await t.tenant();
    const cases: [Record<string, unknown>, string][] = [
      [{ currency: 'XYZ' }, 'currency'],
      [{ currency: 'eur' }, 'currency'],
      [{ amount: '1.234', currency: 'EUR' }, 'amount'],
      [{ amount: '-5' }, 'amount'],
      [{ amount: 100 }, 'amount'],
      [{ occurred_at: new Date(Date.now() + 2 * DAY).toISOString() }, 'occurred_at'],
      [{ direction: 'sideways' }, 'direction'],
      [{ surprise: true }, 'surprise'],
    ];
    for (const [over, field] of cases) {
      const res = await post(o, txn(over));
      assert.equal(res.statusCode, 400, `${JSON.stringify(over)}: ${res.body}`);
      assert.equal(res.json().error.field, field, JSON.stringify(over));
    }
    assert.equal((await t.db.query('SELECT 1 FROM transactions WHERE account_id = $1', [o.accountId])).length, 0);
  });

  test('aggregates exclude the current transaction, count counts rows, long windows use the rollup and agree with raw rows', async () => {
    const o = await t.tenant();
    await publish(o, {
      aggregates: [
        { key: 'out_count_24h', fn: 'count', window: '24h', group_by: 'subject', direction: 'out' },
        { key: 'out_sum_30d', fn: 'sum', field: 'amount', window: '30d', group_by: 'subject', direction: 'out' },
        { key: 'out_count_30d', fn: 'count', window: '30d', group_by: 'subject', direction: 'out' },
        {
          key: 'out_sum_30d_filtered',
          fn: 'sum',
          field: 'amount',
          window: '30d',
          group_by: 'subject',
          direction: 'out',
          filters: [{ field: 'amount', op: 'gte', value: '0' }],
        },
      ],
      rules: [
        {
          key: 'velocity',
          name: 'Velocity',
          expression: 'agg.out_count_24h >= 2 && agg.out_sum_30d > 0.0 && agg.out_count_30d >= 0 && agg.out_sum_30d_filtered >= 0.0',
          score: 10,
        },
      ],
    });
    const now = Date.now();
    const at = (ms: number) => new Date(ms).toISOString();
    const values = async (over: Record<string, unknown>) => {
      const res = await post(o, txn(over));
      assert.equal(res.statusCode, 201, res.body);
      return res.json().rules.find((r: { key: string }) => r.key === 'velocity').values_used;
    };
    const first = await values({ occurred_at: at(now - 10 * DAY), amount: '10.10' });
    assert.deepEqual([first['agg.out_count_24h'], first['agg.out_count_30d']], [0, 0], 'the first transaction sees no history, not itself');
    await values({ occurred_at: at(now - 3 * DAY - HOUR), amount: '0.20' });
    await values({ occurred_at: at(now - 2 * HOUR), amount: '5.00', direction: 'in' });
    const v = await values({ occurred_at: at(now - HOUR), amount: '7.00' });
    assert.equal(v['agg.out_count_24h'], 0, 'the incoming one does not count for direction out');
    const last = await values({ occurred_at: at(now), amount: '1.00' });
    assert.equal(last['agg.out_count_24h'], 1);
    assert.equal(last['agg.out_count_30d'], 3);
    assert.equal(Number(last['agg.out_sum_30d']), 17.3);
    assert.equal(Number(last['agg.out_sum_30d_filtered']), 17.3, 'rollup (unfiltered) and raw rows (filtered) agree');
    const rollup = await t.db.query<{ n: string }>('SELECT sum(n)::text AS n FROM transaction_daily WHERE account_id = $1', [o.accountId]);
    assert.equal(rollup[0]!.n, '5');
  });

  test('status, alerts with cooldown dedupe, shadow rules, erroring rules never block; events and alert audit rows', async () => {
    const o = await t.tenant();
    await publish(o, {
      rules: [
        { key: 'large', name: 'Large amount', expression: 'tx.amount > 1000.0', score: 40 },
        { key: 'huge', name: 'Huge amount', expression: 'tx.amount > 50000.0', score: 10, force_outcome: 'decline', severity: 'critical' },
        { key: 'shadow', name: 'Shadow', expression: 'tx.amount > 1.0', score: 100, status: 'test' },
        { key: 'broken', name: 'Broken', expression: 'tx.metadata["code"] == "x"', score: 100 },
      ],
    });
    const a = (await post(o, txn({ amount: '5000.00' }))).json();
    assert.equal(a.status, 'review');
    assert.equal(a.score, 40);
    const outcome = (k: string, x = a) => x.rules.find((r: { key: string }) => r.key === k);
    assert.equal(outcome('large').outcome, 'hit');
    assert.equal(outcome('large').values_used['tx.amount'], '5000.00');
    assert.equal(outcome('huge').outcome, 'no_hit');
    assert.equal(outcome('shadow').outcome, 'shadow_hit');
    assert.equal(outcome('broken').outcome, 'error');
    assert.deepEqual(
      a.alerts.map((x: { kind: string; deduplicated: boolean }) => [x.kind, x.deduplicated]),
      [
        ['transaction_rule', false],
        ['rule_error', false],
      ],
    );
    const b = (await post(o, txn({ amount: '60000.00' }))).json();
    assert.equal(b.status, 'declined', 'a forced outcome beats the thresholds');
    const large = b.alerts.find((x: { kind: string; id: string }) => x.kind === 'transaction_rule' && x.id === a.alerts[0].id);
    assert.equal(large.deduplicated, true, 'the same rule for the same subject within the cooldown');
    const ok = (await post(o, txn({ amount: '10.00', metadata: { code: 'y' } }))).json();
    assert.equal(ok.status, 'approved');
    assert.equal(outcome('broken', ok).outcome, 'no_hit');

    const cases = (await t.call('GET', '/v1/cases?kind=transaction_rule', { key: o.sandboxKey })).json();
    assert.equal(cases.data.length, 1);
    assert.equal(cases.data[0].subject_id, 'cus_1');
    const events = await t.db.query<{ type: string }>(
      "SELECT type FROM events WHERE account_id = $1 AND type IN ('transaction.evaluated', 'alert.created') ORDER BY type",
      [o.accountId],
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['alert.created', 'alert.created', 'alert.created'],
      'transaction.evaluated only where subscribed: no destination here',
    );
    const audits = await t.db.query("SELECT 1 FROM audit_events WHERE account_id = $1 AND action = 'alert.created'", [o.accountId]);
    assert.equal(audits.length, 3);
    const got = (await t.call('GET', `/v1/transactions/${a.id}`, { key: o.sandboxKey })).json();
    assert.deepEqual(got.rules, a.rules);
    assert.deepEqual(got.alerts, a.alerts);
    const list = (await t.call('GET', '/v1/transactions?status=declined', { key: o.sandboxKey })).json();
    assert.deepEqual(
      list.data.map((x: { id: string }) => x.id),
      [b.id],
    );
  });

  test('transaction.evaluated is emitted only where an enabled destination subscribes to it (named or *)', async () => {
    const o = await t.tenant();
    const other = await t.tenant();
    const evaluated = async (tenant: Tenant) =>
      (
        await t.db.query<{ resource_id: string }>(
          "SELECT resource_id FROM events WHERE account_id = $1 AND type = 'transaction.evaluated' ORDER BY seq",
          [tenant.accountId],
        )
      ).map((e) => e.resource_id);
    const hook = async (tenant: Tenant, body: Record<string, unknown>) => {
      const res = await t.call('POST', '/v1/webhooks', { key: tenant.sandboxKey, body: { url: 'https://hooks.example.org/v', ...body } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().id as string;
    };
    const none = (await post(o, txn())).json().id;
    await hook(o, { event_types: ['verification.completed'] });
    const otherType = (await post(o, txn())).json().id;
    const disabled = await hook(o, { event_types: ['transaction.evaluated'], enabled: false });
    const whileDisabled = (await post(o, txn())).json().id;
    assert.deepEqual(await evaluated(o), [], 'no destination, another type, a disabled one: nothing emitted');
    assert.equal((await t.call('PATCH', `/v1/webhooks/${disabled}`, { key: o.sandboxKey, body: { enabled: true } })).statusCode, 200);
    const named = (await post(o, txn())).json().id;
    await hook(other, { event_types: ['*'] });
    const wildcard = (await post(other, txn())).json().id;
    assert.deepEqual(await evaluated(o), [named]);
    assert.deepEqual(await evaluated(other), [wildcard], "another account's destination counts for that account only");
    assert.ok(![none, otherType, whileDisabled].includes(named));
  });

  test('the POST answers byte for byte what GET reads back (the stored row is not read back after its insert)', async () => {
    const o = await t.tenant();
    await publish(o, {
      rules: [
        { key: 'large', name: 'Large amount', expression: 'tx.amount > 1000.0 && tx.metadata["zeta"] == "1"', score: 40 },
        { key: 'broken', name: 'Broken', expression: 'tx.metadata["missing"] == "x"', score: 5 },
      ],
    });
    // Keys out of jsonb's order (shorter first, then bytewise) and a non-ASCII key.
    const body = txn({
      amount: '1500.50',
      metadata: { zeta: '1', a: '2', ab: '3', Zz: '4', é: '5' },
      counterparty: { reference: 'cp_9', name: 'Zed Ltd', bank_country: 'FR', account: 'FR7630006000011234567890189' },
      subject: { reference: 'cus_bytes', country: 'DE', type: 'individual' },
    });
    const res = await post(o, body);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().status, 'review');
    const got = await t.call('GET', `/v1/transactions/${res.json().id}`, { key: o.sandboxKey });
    assert.equal(got.body, res.body);
  });

  test('a snoozed rule is evaluated but does not count for that subject', async () => {
    const o = await t.tenant();
    const ids = await publish(o, { rules: [{ key: 'large', name: 'Large amount', expression: 'tx.amount > 1000.0', score: 40 }] });
    const s = await t.call('POST', `/v1/rules/${ids.large}/snoozes`, {
      key: o.sandboxKey,
      body: { subject_reference: 'cus_snoozed', until: new Date(Date.now() + DAY).toISOString(), reason: 'known payroll' },
    });
    assert.equal(s.statusCode, 201, s.body);
    const x = (await post(o, txn({ amount: '5000.00', subject: { reference: 'cus_snoozed' } }))).json();
    assert.equal(x.status, 'approved');
    assert.deepEqual([x.rules[0].outcome, x.rules[0].would_hit], ['snoozed', true]);
    const y = (await post(o, txn({ amount: '5000.00', subject: { reference: 'cus_other' } }))).json();
    assert.equal(y.status, 'review');
  });
});
