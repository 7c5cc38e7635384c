import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../../src/cli/commands.js';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { buildJobHandlers } from '../../src/jobs/index.js';
import { JobRunner } from '../../src/platform/jobs.js';
import { sharedData, SKIP_NO_DATA } from '../../src/providers/lists/fixtures/shared-data.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());
const app = () => t;
const drain = () => new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources }) }).drain();

const line = (o: Record<string, unknown>) => JSON.stringify(o);
const row = (i: number, over: Record<string, unknown> = {}) => ({
  reference: `h_${i}`,
  occurred_at: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
  amount: `${i * 100}.00`,
  currency: 'EUR',
  direction: 'in',
  subject: { reference: `cus_${i % 2}` },
  counterparty: { reference: `cp_${i}` },
  label: i % 3 === 0,
  ...over,
});
const jsonl = (rows: Record<string, unknown>[]) => rows.map(line).join('\n');
const importBody = (rows: Record<string, unknown>[]) => ({ format: 'jsonl', data: jsonl(rows) });
const call = (o: Tenant, method: 'GET' | 'POST', url: string, body?: unknown) => t.call(method, url, { key: o.sandboxKey, body });

describe('POST /v1/transactions/imports and POST /v1/rules/backtest', () => {
  routeSecurityTests('importTransactions', app, {
    method: 'POST',
    url: () => '/v1/transactions/imports',
    scope: 'transactions:write',
    body: importBody([row(1)]),
    malformed: { body: { format: 'xml', data: 'x' }, field: 'format' },
  });
  routeSecurityTests('createRuleBacktest', app, {
    method: 'POST',
    url: () => '/v1/rules/backtest',
    scope: 'rules:write',
    body: { from: '2025-01-01T00:00:00Z', to: '2025-02-01T00:00:00Z' },
    malformed: { body: { from: 'yesterday', to: '2025-02-01T00:00:00Z' }, field: 'from' },
  });
  routeSecurityTests('getRuleBacktest', app, {
    method: 'GET',
    url: (id) => `/v1/rules/backtests/${id}`,
    scope: 'rules:read',
    create: async (_tt, o) =>
      (await call(o, 'POST', '/v1/rules/backtest', { from: '2025-01-01T00:00:00Z', to: '2025-02-01T00:00:00Z' })).json().id,
  });

  test('JSON lines and CSV import without evaluation; a re-run skips stored references; a bad row stores nothing', async () => {
    const o = await t.tenant();
    const rows = [1, 2, 3, 4].map((i) => row(i));
    const res = await call(o, 'POST', '/v1/transactions/imports', importBody(rows));
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual([res.json().received, res.json().imported, res.json().skipped_existing, res.json().labelled], [4, 4, 0, 4]);
    const again = (await call(o, 'POST', '/v1/transactions/imports', importBody(rows))).json();
    assert.deepEqual([again.imported, again.skipped_existing], [0, 4]);
    const listed = (await call(o, 'GET', '/v1/transactions?source=import')).json();
    assert.equal(listed.data.length, 4);
    assert.equal(listed.data[0].status, null);
    const rollup = await t.db.query<{ n: string; total: string }>(
      "SELECT sum(n)::text AS n, sum(total)::text AS total FROM transaction_daily WHERE account_id = $1 AND subject_reference = 'cus_0'",
      [o.accountId],
    );
    assert.deepEqual([rollup[0]!.n, Number(rollup[0]!.total)], ['2', 600], 'rows 2 and 4 of cus_0, once');
    const events = await t.db.query("SELECT 1 FROM events WHERE account_id = $1 AND type = 'transaction.evaluated'", [o.accountId]);
    assert.equal(events.length, 0, 'history is not evaluated');

    const bad = await call(o, 'POST', '/v1/transactions/imports', importBody([row(10), row(11, { currency: 'XYZ' })]));
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.field, 'data');
    assert.match(bad.json().error.message, /line 2, currency/);
    const csv = [
      'reference,occurred_at,amount,currency,direction,subject_reference,counterparty_name,label',
      'c_1,2025-03-01T10:00:00Z,12.50,EUR,out,cus_csv,"Smith, John",false',
      'c_2,2025-03-02T10:00:00Z,13.00,EUR,in,cus_csv,ACME,true',
    ].join('\n');
    const c = await call(o, 'POST', '/v1/transactions/imports', { format: 'csv', data: csv });
    assert.equal(c.statusCode, 201, c.body);
    assert.equal(c.json().imported, 2);
    const stored = await t.db.query<{ counterparty: { name: string } }>(
      "SELECT counterparty FROM transactions WHERE reference = 'c_1' AND account_id = $1",
      [o.accountId],
    );
    assert.equal(stored[0]!.counterparty.name, 'Smith, John');
    const unknown = await call(o, 'POST', '/v1/transactions/imports', { format: 'csv', data: 'reference,colour\nx,red' });
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().error.message, /colour/);
  });

  test('an import analyses the tables it filled in bulk (planner statistics without autovacuum)', async () => {
    const o = await t.tenant();
    const stats = () =>
      t.db.query<{ name: string; analysed: boolean; tuples: number; live: number }>(
        `SELECT c.relname AS name, s.last_analyze IS NOT NULL AS analysed, c.reltuples::float8 AS tuples,
                CASE c.relname WHEN 'transactions' THEN (SELECT count(*) FROM transactions) ELSE (SELECT count(*) FROM transaction_daily) END::float8 AS live
           FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid
          WHERE c.oid IN ('transactions'::regclass, 'transaction_daily'::regclass) ORDER BY c.relname`,
      );
    // 400 rows over 400 days and 2 subjects: 400 new rollup rows too, past 50 + 10 % of whatever earlier tests stored.
    const rows = Array.from({ length: 400 }, (_, i) => row(i, { reference: `an_${i}` }));
    const res = await call(o, 'POST', '/v1/transactions/imports', importBody(rows));
    assert.equal(res.statusCode, 201, res.body);
    const after = await stats();
    assert.deepEqual(
      after.map((r) => [r.name, r.analysed, Number(r.tuples) === Number(r.live)]),
      [
        ['transaction_daily', true, true],
        ['transactions', true, true],
      ],
      JSON.stringify(after),
    );
  });

  test('CLI: transactions import loads a file in chunks with progress', async () => {
    const o = await t.tenant();
    const file = join(mkdtempSync(join(tmpdir(), 'verity-txi-')), 'history.jsonl');
    writeFileSync(file, jsonl([1, 2, 3].map((i) => row(i))));
    const out: string[] = [];
    const code = await runCommand(
      t.db,
      ['transactions', 'import', file, '--account', o.accountId, '--environment', 'sandbox'],
      {
        out: (l) => out.push(l),
        err: (l) => out.push(l),
      },
      t.config,
    );
    assert.equal(code, 0, out.join('\n'));
    assert.match(out[0]!, /1\/1 chunks, 3 imported/);
    assert.match(out.at(-1)!, /done: 3 imported/);
    assert.equal((await t.db.query("SELECT 1 FROM transactions WHERE account_id = $1 AND source = 'import'", [o.accountId])).length, 3);
  });

  test('a backtest replays the draft over history: hits, statuses, precision and recall on labels', async () => {
    const o = await t.tenant();
    const rows = Array.from({ length: 12 }, (_, i) => row(i + 1));
    assert.equal((await call(o, 'POST', '/v1/transactions/imports', importBody(rows))).statusCode, 201);
    // Disable the starter rules, add two: a large amount, and a second payment of the subject within 3 days.
    const draft = (await call(o, 'GET', '/v1/rules/draft')).json();
    for (const r of draft.rules) await t.call('PATCH', `/v1/rules/${r.id}`, { key: o.sandboxKey, body: { status: 'disabled' } });
    const d = await t.call('PATCH', '/v1/rules/draft', {
      key: o.sandboxKey,
      body: { aggregates: [...draft.aggregates, { key: 'in_count_3d', fn: 'count', window: '3d', group_by: 'subject', direction: 'in' }] },
    });
    assert.equal(d.statusCode, 200, d.body);
    for (const body of [
      { key: 'large', name: 'Large', expression: 'tx.amount >= 900.0', score: 40, severity: 'high' },
      { key: 'repeat', name: 'Repeat', expression: 'agg.in_count_3d >= 1', score: 10, severity: 'low' },
    ])
      assert.equal((await call(o, 'POST', '/v1/rules', body)).statusCode, 201);
    const b = await call(o, 'POST', '/v1/rules/backtest', { from: '2025-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' });
    assert.equal(b.statusCode, 202, b.body);
    assert.equal(b.json().state, 'queued');
    await drain();
    const got = (await call(o, 'GET', `/v1/rules/backtests/${b.json().id}`)).json();
    assert.equal(got.state, 'succeeded', got.error);
    const r = got.result;
    assert.equal(r.evaluated, 12);
    const large = r.rules.find((x: { key: string }) => x.key === 'large');
    // Amounts 900…1200 (i = 9…12): labels i % 3 == 0 → 9 and 12 true; positives 3, 6, 9, 12.
    assert.deepEqual([large.hits, large.precision, large.recall], [4, 0.5, 0.5]);
    assert.deepEqual(large.sample_references, ['h_9', 'h_10', 'h_11', 'h_12']);
    const repeat = r.rules.find((x: { key: string }) => x.key === 'repeat');
    // Each subject (odd/even i) is paid every 2 days: every row but the first of each subject has one in 3 days.
    assert.equal(repeat.hits, 10);
    assert.deepEqual(r.statuses, { approved: 8, review: 4, block_and_review: 0, declined: 0 });
    assert.equal(r.positives, 4);
    // Amounts and aggregates are all in the stored rows: nothing was defaulted.
    assert.deepEqual([r.context_defaulted, r.context_note], [[], null]);
  });

  test('a backtest reports the context fields it had to default (current KYC band, wallet screening…)', async () => {
    const o = await t.tenant();
    assert.equal((await call(o, 'POST', '/v1/transactions/imports', importBody([1, 2, 3].map((i) => row(i))))).statusCode, 201);
    const draft = (await call(o, 'GET', '/v1/rules/draft')).json();
    for (const r of draft.rules) await t.call('PATCH', `/v1/rules/${r.id}`, { key: o.sandboxKey, body: { status: 'disabled' } });
    for (const body of [
      { key: 'large', name: 'Large', expression: 'tx.amount >= 200.0 && counterparty.country != "FR"', score: 40, severity: 'high' },
      { key: 'high_band', name: 'High band', expression: 'subject.risk_band == "high" && tx.amount > 1.0', score: 40, severity: 'high' },
      { key: 'bad_wallet', name: 'Wallet', expression: 'wallet.sanctioned || lists.counterparty_blocked', score: 90, severity: 'high' },
    ])
      assert.equal((await call(o, 'POST', '/v1/rules', body)).statusCode, 201);
    const b = await call(o, 'POST', '/v1/rules/backtest', { from: '2025-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' });
    await drain();
    const r = (await call(o, 'GET', `/v1/rules/backtests/${b.json().id}`)).json().result;
    assert.equal(r.evaluated, 3);
    assert.deepEqual(r.context_defaulted, ['lists.counterparty_blocked', 'subject.risk_band', 'wallet.sanctioned']);
    const perRule = Object.fromEntries(r.rules.map((x: { key: string; context_defaulted: string[] }) => [x.key, x.context_defaulted]));
    assert.deepEqual(perRule, {
      large: [],
      high_band: ['subject.risk_band'],
      bad_wallet: ['lists.counterparty_blocked', 'wallet.sanctioned'],
    });
    assert.match(r.context_note, /subject\.risk_band/);
    assert.match(r.context_note, /\(high_band, bad_wallet\)|\(bad_wallet, high_band\)/);
    assert.doesNotMatch(r.context_note, /large/);
  });

  test(
    'AMLSim export through the API: import with the preset, backtest the starter fan-in typology (quality figure)',
    { skip: sharedData('transactions', 'amlsim_small_export') ? false : SKIP_NO_DATA },
    async () => {
      const o = await t.tenant();
      const data = readFileSync(sharedData('transactions', 'amlsim_small_export', 'transactions.csv')!, 'utf8');
      const imp = await call(o, 'POST', '/v1/transactions/imports', { format: 'csv', preset: 'amlsim', data });
      assert.equal(imp.statusCode, 201, imp.body.slice(0, 300));
      assert.equal(imp.json().imported, 2 * 10_333);
      const b = await call(o, 'POST', '/v1/rules/backtest', { from: '2010-01-01T00:00:00Z', to: '2020-01-01T00:00:00Z', direction: 'in' });
      await drain();
      const got = (await call(o, 'GET', `/v1/rules/backtests/${b.json().id}`)).json();
      assert.equal(got.state, 'succeeded', got.error);
      const fanIn = got.result.rules.find((x: { key: string }) => x.key === 'fan_in_same_amount');
      console.log(
        `AMLSim fan_in_same_amount via the API: positives ${got.result.positives}, hits ${fanIn.hits}, precision ${fanIn.precision}, recall ${fanIn.recall}, backtest ${got.result.duration_ms} ms for ${got.result.evaluated} transactions`,
      );
      assert.equal(got.result.positives, 51);
      assert.ok(fanIn.recall >= 0.9, `recall ${fanIn.recall}`);
      assert.ok(fanIn.precision >= 0.5, `precision ${fanIn.precision}`);
    },
  );
});
