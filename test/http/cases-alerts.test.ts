import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { splitSql } from '../../src/platform/db.js';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { withTransaction } from '../../src/platform/transaction.js';
import { raiseAlert, type RaiseAlertInput } from '../../src/modules/cases/index.js';
import type { Queryable } from '../../src/platform/db.js';
import { alertRows } from '../../src/modules/cases/repository.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

const raise = (o: Tenant, input: Partial<RaiseAlertInput> = {}) =>
  withTransaction(o.ctx(), (tx) =>
    raiseAlert(tx, o.ctx(), {
      kind: 'transaction_rule',
      severity: 'medium',
      subjectType: 'customer',
      subjectId: 'cus_1',
      subjectReference: 'cus_1',
      title: 'Fan-in',
      details: { rule: 'fan_in' },
      dedupeKey: 'rule_fan_in',
      ...input,
    }),
  );
const get = async (o: Tenant, url: string) => (await t.call('GET', url, { key: o.sandboxKey })).json();

describe('generic alerts (cases raiseAlert)', () => {
  test('an alert opens an alert_review case for its subject, with audit rows and an alert.created event', async () => {
    const o = await t.tenant();
    const r = await raise(o);
    assert.equal(r.deduplicated, false);
    assert.match(r.alert.id, /^alt_/);
    assert.match(r.caseId, /^case_/);
    const list = await get(o, '/v1/cases');
    assert.equal(list.data.length, 1);
    const c = list.data[0];
    assert.deepEqual(
      [c.id, c.kind, c.state, c.severity, c.subject_type, c.subject_id, c.subject_reference, c.alert_count, c.reason_code],
      [r.caseId, 'alert_review', 'open', 'medium', 'customer', 'cus_1', 'cus_1', 1, 'transaction_rule'],
    );
    assert.equal(c.alerts[0].id, r.alert.id);
    assert.equal(c.alerts[0].kind, 'transaction_rule');
    assert.deepEqual(c.alerts[0].details, { rule: 'fan_in' });
    const audits = await t.db.query<{ action: string; resource_id: string }>(
      "SELECT action, resource_id FROM audit_events WHERE account_id = $1 AND action IN ('alert.created', 'case.opened') ORDER BY action",
      [o.accountId],
    );
    assert.deepEqual(audits, [
      { action: 'alert.created', resource_id: r.alert.id },
      { action: 'case.opened', resource_id: r.caseId },
    ]);
    const events = await t.db.query<{ type: string; data: { case_id: string } }>(
      "SELECT type, data FROM events WHERE account_id = $1 AND type = 'alert.created'",
      [o.accountId],
    );
    assert.equal(events.length, 1);
    assert.equal(events[0]!.data.case_id, r.caseId);
  });

  test('a case opened by an alert has its opening in the trail, by the caller; a later move follows it (the console showed an empty trail)', async () => {
    const o = await t.tenant();
    const r = await raise(o);
    const opened = await get(o, `/v1/cases/${r.caseId}`);
    assert.deepEqual(
      opened.transitions.map((x: any) => [x.from, x.to, x.event, x.actor]),
      [[null, 'open', 'opened', 'system:test']],
    );
    // Joining the open case writes no second opening.
    await raise(o, { dedupeKey: 'rule_other' });
    const moved = await t.call('PATCH', `/v1/cases/${r.caseId}`, { key: o.sandboxKey, body: { state: 'in_review', owner: 'user:rita' } });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual(
      moved.json().transitions.map((x: any) => [x.from, x.to]),
      [
        [null, 'open'],
        ['open', 'in_review'],
      ],
    );
  });

  test('0040: an alert case written without its opening gets it, before its later moves; a case with one is left alone', async () => {
    const o = await t.tenant();
    const bare = await raise(o, { subjectId: 'cus_bare' });
    const kept = await raise(o, { subjectId: 'cus_kept' });
    // As the code before the fix wrote it: no opening row; then a move by a reviewer.
    await t.db.query('DELETE FROM case_transitions WHERE case_id = $1', [bare.caseId]);
    await t.db.query("UPDATE cases SET created_at = now() - interval '1 hour' WHERE id = $1", [bare.caseId]);
    const moved = await t.call('PATCH', `/v1/cases/${bare.caseId}`, {
      key: o.sandboxKey,
      body: { state: 'in_review', owner: 'user:rita' },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal(moved.json().transitions.length, 1);
    for (const statement of splitSql(readFileSync(new URL('../../migrations/0040_alert_case_trail.sql', import.meta.url), 'utf8')))
      await t.db.query(statement);
    const fixed = await get(o, `/v1/cases/${bare.caseId}`);
    assert.deepEqual(
      fixed.transitions.map((x: any) => [x.from, x.to, x.actor]),
      [
        [null, 'open', 'system:system'],
        ['open', 'in_review', moved.json().transitions[0].actor],
      ],
    );
    assert.equal((await get(o, `/v1/cases/${kept.caseId}`)).transitions.length, 1);
  });

  test('a repeat within the cooldown is counted, not raised; another key joins the same case and raises its severity', async () => {
    const o = await t.tenant();
    const first = await raise(o);
    const again = await raise(o);
    assert.equal(again.deduplicated, true);
    assert.equal(again.alert.id, first.alert.id);
    assert.equal(again.alert.occurrences, 2);
    const other = await raise(o, { dedupeKey: 'rule_structuring', severity: 'high' });
    assert.equal(other.deduplicated, false);
    assert.equal(other.caseId, first.caseId);
    const c = await get(o, `/v1/cases/${first.caseId}`);
    assert.equal(c.severity, 'high');
    assert.equal(c.alert_count, 2);
    const updated = await t.db.query("SELECT 1 FROM events WHERE account_id = $1 AND type = 'case.updated'", [o.accountId]);
    assert.equal(updated.length, 1, 'the severity change is announced');
    const noDedupe = await raise(o, { cooldownSeconds: 0 });
    assert.equal(noDedupe.deduplicated, false);
    assert.notEqual(noDedupe.alert.id, first.alert.id);
  });

  test('20 concurrent raises of one subject and key give one alert counted 20 times, in one case; 10 keys at once share that case', async () => {
    const o = await t.tenant();
    const raised = await Promise.all(Array.from({ length: 20 }, () => raise(o, { subjectId: 'cus_burst', subjectReference: 'cus_burst' })));
    assert.equal(raised.filter((r) => !r.deduplicated).length, 1);
    const alerts = await t.db.query<{ id: string; occurrences: number; case_id: string }>(
      "SELECT id, occurrences, case_id FROM alerts WHERE account_id = $1 AND subject_id = 'cus_burst'",
      [o.accountId],
    );
    assert.equal(alerts.length, 1);
    assert.equal(alerts[0]!.occurrences, 20);
    const keys = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        raise(o, { subjectId: 'cus_burst', subjectReference: 'cus_burst', dedupeKey: `rule_${i}`, severity: i === 7 ? 'critical' : 'low' }),
      ),
    );
    assert.ok(keys.every((r) => !r.deduplicated && r.caseId === alerts[0]!.case_id));
    const cases = await t.db.query<{ id: string; severity: string; reason_codes: string[] }>(
      "SELECT id, severity, reason_codes FROM cases WHERE account_id = $1 AND subject_id = 'cus_burst'",
      [o.accountId],
    );
    assert.deepEqual(cases, [{ id: alerts[0]!.case_id, severity: 'critical', reason_codes: ['transaction_rule'] }]);
    const created = await t.db.query("SELECT 1 FROM events WHERE account_id = $1 AND type = 'alert.created'", [o.accountId]);
    assert.equal(created.length, 11, 'one alert.created per new alert, none per repeat');
  });

  test('filters by alert kind, severity, state and owner; closing the case closes its alerts and the next alert opens a new case', async () => {
    const o = await t.tenant();
    const tr = await raise(o, { subjectId: 'cus_a' });
    const re = await raise(o, { kind: 'rule_error', subjectType: 'rule', subjectId: 'rul_x', subjectReference: null, severity: 'low' });
    assert.deepEqual(
      (await get(o, '/v1/cases?kind=rule_error')).data.map((c: { id: string }) => c.id),
      [re.caseId],
    );
    assert.deepEqual(
      (await get(o, '/v1/cases?kind=transaction_rule&severity=medium&state=open&owner=none')).data.map((c: { id: string }) => c.id),
      [tr.caseId],
    );
    assert.equal((await get(o, '/v1/cases?kind=alert_review')).data.length, 2);
    assert.equal((await get(o, '/v1/cases?kind=verification_review')).data.length, 0);
    const res = await t.call('PATCH', `/v1/cases/${tr.caseId}`, {
      key: o.sandboxKey,
      body: { state: 'closed', resolution: 'false_positive' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().alerts[0].state, 'closed');
    const next = await raise(o, { subjectId: 'cus_a', dedupeKey: 'rule_other' });
    assert.notEqual(next.caseId, tr.caseId);
  });
});

const BULK = 600;

/** `sql` run under a generic plan (as KYT's evaluation transaction plans it), explained, in a transaction rolled back. */
async function rowsTouched(sql: string, params: readonly unknown[]): Promise<{ rows: number; plan: string }> {
  const lit = (v: unknown) => (v === null || v === undefined ? 'NULL' : `'${String(v).replace(/'/g, "''")}'`);
  let plan = '';
  await t.db
    .transaction(async (tx) => {
      await tx.query("SELECT set_config('plan_cache_mode', 'force_generic_plan', true)");
      await tx.query(`PREPARE plan_probe AS ${sql}`);
      const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ANALYZE EXECUTE plan_probe(${params.map(lit).join(', ')})`);
      plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      await tx.query('DEALLOCATE plan_probe');
      throw new RolledBack();
    })
    .catch((e: unknown) => {
      if (!(e instanceof RolledBack)) throw e;
    });
  assert.match(plan, /actual time/);
  // The most rows one node of the plan touched: rows it produced (times its loops) or removed by its filter.
  let rows = 0;
  for (const m of plan.matchAll(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+) loops=(\d+)/g)) rows = Math.max(rows, Number(m[1]) * Number(m[2]));
  for (const m of plan.matchAll(/Rows Removed by (?:Join )?Filter: (\d+)/g)) rows = Math.max(rows, Number(m[1]));
  return { rows, plan };
}
class RolledBack extends Error {}

describe('the plans of raising an alert', () => {
  test('raising an alert reads the subject’s rows, not every case and alert of the tenant (generic plan, stale statistics)', async () => {
    const o = await t.tenant();
    // Stale statistics, as a busy day leaves them between two ANALYZE runs: the cases' taken while the table was
    // small, the alerts' never (the KYT bench's plans walked the tenant's rows in both situations).
    await t.db.query('ANALYZE cases');
    // Many other subjects with an open case and an alert each, written directly: the statements under test are the
    // next repeat and the next new alert of one more subject.
    await t.db.query(
      `INSERT INTO cases (id, account_id, environment, kind, state, severity, reason_code, reason_codes, subject_type, subject_id)
     SELECT 'case_bulk_' || lpad(g::text, 5, '0'), $1, 'sandbox', 'alert_review', 'open', 'low', 'transaction_rule',
            ARRAY['transaction_rule'], 'customer', 'cus_bulk_' || g FROM generate_series(1, ${BULK}) g`,
      [o.accountId],
    );
    await t.db.query(
      `INSERT INTO alerts (id, account_id, environment, kind, severity, subject_type, subject_id, subject_reference, title, details, dedupe_key, case_id)
     SELECT 'alt_bulk_' || lpad(g::text, 5, '0'), $1, 'sandbox', 'transaction_rule', 'low', 'customer', 'cus_bulk_' || g, 'cus_bulk_' || g,
            't', '{}', 'rule_x', 'case_bulk_' || lpad(g::text, 5, '0') FROM generate_series(1, ${BULK}) g`,
      [o.accountId],
    );
    // The subject under test has its own open case and an alert on it, with ids older than the bulk rows' (a scan of
    // the tenant newest first meets every bulk row before them).
    await t.db.query(
      `INSERT INTO cases (id, account_id, environment, kind, state, severity, reason_code, reason_codes, subject_type, subject_id)
     VALUES ('case_aa', $1, 'sandbox', 'alert_review', 'open', 'low', 'transaction_rule', ARRAY['transaction_rule'], 'customer', 'cus_x')`,
      [o.accountId],
    );
    await t.db.query(
      `INSERT INTO alerts (id, account_id, environment, kind, severity, subject_type, subject_id, subject_reference, title, details, dedupe_key, case_id)
     VALUES ('alt_aa', $1, 'sandbox', 'transaction_rule', 'low', 'customer', 'cus_x', 'cus_x', 't', '{}', 'rule_x', 'case_aa')`,
      [o.accountId],
    );
    const sent: { sql: string; params: readonly unknown[] }[] = [];
    const spy: Queryable = {
      query: <T>(sql: string, params?: readonly unknown[]) => (sent.push({ sql, params: params ?? [] }), t.db.query<T>(sql, params)),
    };
    const who = { accountId: o.accountId, environment: 'sandbox' as const };
    const since = new Date(Date.now() - 3_600_000);
    const repeat = await alertRows.touchRecent(spy, who, {
      kind: 'transaction_rule',
      subjectType: 'customer',
      subjectId: 'cus_x',
      dedupeKey: 'rule_x',
      since,
    });
    assert.equal(repeat?.id, 'alt_aa');
    const raised = await alertRows.insertWithCase(spy, who, {
      id: 'alt_ab',
      kind: 'wallet_risk',
      severity: 'high',
      subjectType: 'customer',
      subjectId: 'cus_x',
      subjectReference: 'cus_x',
      title: 't',
      details: {},
      dedupeKey: 'w',
      newCaseId: 'case_new',
    });
    assert.deepEqual(
      [raised.alert.case_id, raised.opened, raised.raisedFrom],
      ['case_aa', false, 'low'],
      'joined the open case, severity raised from low',
    );
    assert.equal(sent.length, 2);
    for (const s of sent) {
      // A fresh id for the probe's own INSERT (the alert above took alt_ab).
      const { rows, plan } = await rowsTouched(
        s.sql,
        s.params.map((p) => (p === 'alt_ab' ? 'alt_probe' : p)),
      );
      // Before the fix: 600 and more (every case or alert of the tenant); after: the subject's own rows.
      assert.ok(rows <= 5, `${rows} rows touched by ${s.sql.replace(/\s+/g, ' ').slice(0, 60)}…\n${plan}`);
    }
  });
});
