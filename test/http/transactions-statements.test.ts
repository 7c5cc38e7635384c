import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import type { Queryable } from '../../src/platform/db.js';
import { sqlLiterals } from '../../src/platform/sql-literals.js';

// Counts the SQL statements (each one a round trip on node-postgres) one POST /v1/transactions sends, with
// the starter typologies active: the cost of the write path is a number a test can hold, not a feeling.
let t: TestApp;
let log: string[] | null = null;
/** The same statements whole, with their values (while `log` is on). */
let full: { sql: string; params: readonly unknown[] }[] = [];
/** Round trips: each statement run on its own, each batch (queued statements travel with the next one; the deferred write with COMMIT). */
let trips = 0;
/**
 * The wallet list index's refresh (list_snapshots, list_snapshot_entities): a request that finds it older than a second
 * starts it without waiting, so it lands in whichever request comes then. Shared by every request: not counted.
 */
const refresh = (sql: string) => /\bFROM list_snapshot(s|_entities)\b/.test(sql);
before(async () => {
  t = await createTestApp();
  const db = t.db;
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  const counted = (q: Queryable['query']): Queryable['query'] =>
    ((sql: string, params?: readonly unknown[]) => {
      if (refresh(sql)) return q(sql, params);
      log?.push(sql.replace(/\s+/g, ' ').slice(0, 90));
      if (log) full.push({ sql, params: params ?? [] });
      if (log) trips++;
      return q(sql, params);
    }) as Queryable['query'];
  db.query = counted(query);
  const outerBatch = (db as { queryBatch?: (st: { sql: string }[]) => Promise<unknown[][]> }).queryBatch?.bind(db);
  if (outerBatch)
    (db as { queryBatch?: typeof outerBatch }).queryBatch = (st) => {
      for (const x of st) log?.push(x.sql.replace(/\s+/g, ' ').slice(0, 90));
      if (log) full.push(...st.map((x) => ({ sql: x.sql, params: (x as { params?: unknown[] }).params ?? [] })));
      if (log) trips++;
      return outerBatch(st);
    };
  db.transaction = ((fn: (tx: Queryable) => Promise<unknown>) =>
    transaction((raw) => {
      const tx = Object.create(raw) as Queryable & { sendWithCommit?: (sql: string, p: readonly unknown[]) => void };
      tx.query = counted(raw.query.bind(raw));
      const send = (raw as { sendWithCommit?: (sql: string, p: readonly unknown[]) => void }).sendWithCommit;
      if (send)
        tx.sendWithCommit = (sql, p) => {
          log?.push(`(with COMMIT) ${sql.replace(/\s+/g, ' ').slice(0, 76)}`);
          if (log) full.push({ sql, params: p });
          send.call(raw, sql, p);
        };
      // Statements that travel with the next one are statements too (not round trips: see trips below).
      type Next = (sql: string, p: readonly unknown[], check?: (rows: unknown[]) => unknown) => void;
      const next = (raw as { sendWithNext?: Next }).sendWithNext;
      if (next)
        (tx as { sendWithNext?: Next }).sendWithNext = (sql, p, check) => {
          log?.push(`(with next) ${sql.replace(/\s+/g, ' ').slice(0, 80)}`);
          if (log) full.push({ sql, params: p });
          next.call(raw, sql, p, check);
        };
      const batch = (raw as { queryBatch?: (st: { sql: string }[]) => Promise<unknown[][]> }).queryBatch;
      if (batch)
        (tx as { queryBatch?: typeof batch }).queryBatch = (st) => {
          for (const x of st) log?.push(x.sql.replace(/\s+/g, ' ').slice(0, 90));
          if (log) full.push(...st.map((x) => ({ sql: x.sql, params: (x as { params?: unknown[] }).params ?? [] })));
          if (st.length > 0 && log) trips++;
          return batch.call(raw, st);
        };
      // The COMMIT (with the deferred write and the statements still queued) is one more round trip.
      return fn(tx).then((r) => {
        if (log) trips++;
        return r;
      });
    })) as typeof db.transaction;
});
after(() => t.close());

async function publishStarter(o: Tenant) {
  const draft = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json();
  for (const r of draft.rules) await t.call('PATCH', `/v1/rules/${r.id}`, { key: o.sandboxKey, body: { status: 'active' } });
  const revision = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json().revision;
  const pub = await t.call('POST', '/v1/rules/publish', { key: await o.keyWith(['rules:publish']), body: { revision } });
  assert.equal(pub.statusCode, 201, pub.body);
}

let seq = 0;
const body = (subject: string, amount: string) => ({
  reference: `st_${++seq}`,
  occurred_at: new Date(Date.now() - 60_000 + seq).toISOString(),
  amount,
  currency: 'EUR',
  direction: seq % 2 ? 'in' : 'out',
  type: 'transfer',
  subject: { reference: subject },
  counterparty: { reference: `cp_${seq}`, name: `Counterparty ${seq}`, bank_country: 'DE' },
});

test('POST /v1/transactions with the starter typologies active: statements per request', async () => {
  const o = await t.tenant();
  await publishStarter(o);
  for (let i = 0; i < 3; i++)
    assert.equal((await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: body('cus_st', '900.00') })).statusCode, 201);
  log = [];
  trips = 0;
  const res = await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: body('cus_st', '9500.00') });
  const statements = log;
  log = null;
  assert.equal(res.statusCode, 201, res.body);
  assert.ok(res.json().rules.length >= 11);
  console.log(`statements per POST /v1/transactions: ${statements.length} in ${trips} round trips\n  ${statements.join('\n  ')}`);
  // The aggregate reads (4 raw groups, partial days and rollup sums of the starter set: 7 statements before)
  // are one statement; the rollup upsert travels with the deferred writes. 46 statements before, 38 after.
  const aggregateReads = statements.filter((s) => /^SELECT id, \(extract|^SELECT sum\(n\)|^SELECT \d+ AS q/.test(s));
  assert.equal(aggregateReads.length, 1, aggregateReads.join('\n'));
  assert.ok(!statements.some((s) => s.startsWith('INSERT INTO transaction_daily')));
  assert.ok(statements.length <= 38, `${statements.length} statements`);
  // Round trips: the reads before the write transaction go as batches (repeat check with the rule-set
  // version and the first reads of the rule context, started for the rule set this process last found active;
  // the context's second reads), the lock, repeat re-check and snoozes travel with the aggregate
  // read, events with the next statement or COMMIT, each alert's audit with COMMIT. 38 round trips before (one
  // per statement), 13 after, 11 with the context's first reads in the version's batch.
  assert.ok(trips <= 11, `${trips} round trips`);
});

test('rules a condition on the transaction decides read none of their aggregates: fewer branches, no values for them', async () => {
  const o = await t.tenant();
  await publishStarter(o);
  const aggregateRead = async (b: Record<string, unknown>) => {
    log = [];
    full = [];
    const res = await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: b });
    log = null;
    assert.equal(res.statusCode, 201, res.body);
    const reads = full.filter((s) => /^SELECT \d+ AS q|^SELECT id, \(extract|^SELECT sum\(n\)/.test(s.sql.trimStart()));
    assert.ok(reads.length <= 1, `${reads.length} aggregate reads`);
    return { json: res.json(), branches: reads.length ? reads[0]!.sql.split('UNION ALL').length : 0 };
  };
  type Outcome = { key: string; outcome: string; values_used: Record<string, unknown> };
  const rule = (j: { rules: Outcome[] }, key: string) => j.rules.find((r) => r.key === key)!;
  await aggregateRead(body('cus_gd', '900.00'));
  // An incoming transfer: structuring (cash only), pass-through, spike, round amounts, new counterparty and PaySim
  // (outgoing only) and dormant reactivation (a relationship of a year) are decided without their aggregates;
  // fan-in (incoming) reads its own.
  const incoming = await aggregateRead({ ...body('cus_gd', '6000.00'), direction: 'in' });
  const structuring = rule(incoming.json, 'structuring_below_threshold');
  assert.equal(structuring.outcome, 'no_hit');
  assert.deepEqual(
    Object.keys(structuring.values_used).filter((k) => k.startsWith('agg.')),
    [],
    JSON.stringify(structuring.values_used),
  );
  assert.equal(structuring.values_used['tx.type'], 'transfer');
  const fanIn = rule(incoming.json, 'fan_in_same_amount');
  assert.ok('agg.fan_in_same_amount_senders_90d' in fanIn.values_used, JSON.stringify(fanIn.values_used));
  // An outgoing one of 6,000 to a counterparty reads what the outgoing typologies need.
  const outgoing = await aggregateRead({ ...body('cus_gd', '6000.00'), direction: 'out' });
  assert.equal(rule(outgoing.json, 'spike_vs_history').values_used['agg.out_count_90d'] !== undefined, true);
  console.log(`aggregate read branches: incoming transfer ${incoming.branches}, outgoing ${outgoing.branches}`);
  assert.ok(incoming.branches >= 1 && incoming.branches < outgoing.branches, `in ${incoming.branches}, out ${outgoing.branches} branches`);
});

/** One POST with its statements logged and its round trips counted (the API key's read not: it is cached for a while, so whether a request makes it depends on timing). */
async function postCounted(o: Tenant, b: Record<string, unknown>) {
  log = [];
  trips = 0;
  const res = await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: b });
  const statements = log;
  log = null;
  assert.equal(res.statusCode, 201, res.body);
  const keyReads = statements.filter((q) => q.startsWith('SELECT k.id')).length;
  return { json: res.json(), statements, trips: trips - keyReads };
}

/** The statements of raising alerts: the subject's lock, the dedupe, the case and alert writes. */
const alertStatements = (s: string[]) =>
  s.filter((x) =>
    /hashtextextended\(\$1, 7\)|^(\(with next\) )?UPDATE alerts|^WITH open_case|FROM cases|INSERT INTO (alerts|cases)/.test(x),
  );

// Amounts differ from one transaction to the next, so the starter fan-in of identical amounts stays quiet.
const hitsJurisdiction = (subject: string) => ({
  ...body(subject, `${100 + seq}.00`),
  counterparty: { reference: `cp_kp_${seq}`, name: 'Counterparty', bank_country: 'KP' },
});

test('POST /v1/transactions that raises an alert: the alert costs the lock, the dedupe and one write statement', async () => {
  const o = await t.tenant();
  await publishStarter(o);
  const post = (b: Record<string, unknown>) => postCounted(o, b);
  await post(body('cus_al', '131.00'));
  const quiet = await post(body('cus_al', '147.00'));
  assert.equal(quiet.json.alerts.length, 0);

  const first = await post(hitsJurisdiction('cus_al'));
  assert.notEqual(first.json.status, 'approved');
  const raised = first.json.alerts.filter((a: { deduplicated: boolean }) => !a.deduplicated);
  assert.equal(raised.length, 1, JSON.stringify(first.json.rules.filter((r: { outcome: string }) => r.outcome === 'hit')));
  console.log(`statements with a new alert: ${first.statements.length}\n  ${first.statements.join('\n  ')}`);
  // Before: lock, dedupe SELECT, open-case SELECT, case SELECT, case INSERT, alert INSERT, event INSERT (7).
  assert.deepEqual(alertStatements(first.statements).length, 3, alertStatements(first.statements).join('\n'));
  // The API key read is cached for a while, so whether a request reads it depends on timing: not counted here.
  // The deferred writes (audit rows, event, rollup…) are one combined statement whatever it holds.
  // Events travel with the next statement (no round trip of their own): the new alert adds its alert.created.
  const events = (x: string[]) => x.filter((q) => q.startsWith('(with next) INSERT INTO events')).length;
  assert.equal(events(first.statements), events(quiet.statements) + 1);
  const others = (x: string[]) =>
    x
      .filter((q) => !q.startsWith('SELECT k.id') && !alertStatements([q]).length && !q.startsWith('(with next) INSERT INTO events'))
      .map((q) => (/^(\(with COMMIT\) )?WITH d0 AS/.test(q) ? 'combined deferred writes' : q));
  assert.deepEqual(others(first.statements), others(quiet.statements));
  // Round trips: the lock travels with the dedupe UPDATE, then the case-and-alert statement (3 before).
  assert.equal(first.trips, quiet.trips + 2, first.statements.join('\n'));

  const repeat = await post(hitsJurisdiction('cus_al'));
  assert.equal(repeat.json.alerts[0].deduplicated, true);
  assert.equal(repeat.json.alerts[0].id, raised[0].id);
  assert.deepEqual(alertStatements(repeat.statements).length, 2, alertStatements(repeat.statements).join('\n'));
  assert.equal(events(repeat.statements), events(quiet.statements));
  assert.deepEqual(others(repeat.statements), others(quiet.statements));
  // A repeat within the cooldown: the lock and the dedupe in one round trip (2 before).
  assert.equal(repeat.trips, quiet.trips + 1, repeat.statements.join('\n'));
});

test('a transaction whose hit rules all repeat their alerts counts them in one round trip', async () => {
  const o = await t.tenant();
  await publishStarter(o);
  const post = (b: Record<string, unknown>) => postCounted(o, b);
  type Hit = { key: string; outcome: string };
  const hits = (j: { rules: Hit[] }) => j.rules.filter((r) => r.outcome === 'hit').map((r) => r.key);
  await post(body('cus_multi', '131.00'));
  const quiet = await post(body('cus_multi', '147.00'));
  assert.equal(quiet.json.alerts.length, 0);
  // A round amount to a counterparty in a high-risk jurisdiction: several rules hit at once.
  const shape = () => ({
    ...body('cus_multi', '9000.00'),
    direction: 'out',
    counterparty: { reference: 'cp_kp_multi', name: 'Counterparty', bank_country: 'KP' },
  });
  const first = await post(shape());
  const firstHits = hits(first.json);
  const again = await post(shape());
  const againHits = hits(again.json);
  assert.ok(againHits.length >= 2, `hits ${againHits.join(', ')}`);
  assert.ok(
    againHits.every((k) => firstHits.includes(k)),
    `first ${firstHits.join(', ')}; again ${againHits.join(', ')}`,
  );
  assert.equal(again.json.alerts.length, againHits.length);
  assert.ok(again.json.alerts.every((a: { deduplicated: boolean }) => a.deduplicated));
  // The lock and one UPDATE per repeated alert, all in one round trip (one round trip per alert before).
  assert.equal(alertStatements(again.statements).length, 1 + againHits.length, alertStatements(again.statements).join('\n'));
  assert.equal(again.trips, quiet.trips + 1, again.statements.join('\n'));
  // Each repeated alert counted once more.
  const rows = await t.db.query<{ occurrences: number }>(
    "SELECT occurrences FROM alerts WHERE account_id = $1 AND subject_id = 'cus_multi' AND kind = 'transaction_rule' AND id = ANY($2::text[])",
    [o.accountId, again.json.alerts.map((a: { id: string }) => a.id)],
  );
  assert.equal(rows.length, againHits.length);
  for (const r of rows) assert.equal(r.occurrences, 2);
});

test('every statement of a POST can travel in a batch and be prepared: values written in, the same texts for every transaction', async () => {
  const o = await t.tenant();
  await publishStarter(o);
  const capture = async (subject: string, amount: string) => {
    log = [];
    full = [];
    const res = await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: { ...body(subject, amount), direction: 'in' } });
    log = null;
    assert.equal(res.statusCode, 201, res.body);
    // The API key read is cached for a while and runs on its own (not in a batch): not counted here.
    return full.filter((s) => !s.sql.trimStart().startsWith('SELECT k.id'));
  };
  await capture('cus_pa', '900.00');
  await capture('cus_pb', '900.00');
  const a = await capture('cus_pa', '9500.00');
  const b = await capture('cus_pb', '9400.00');
  // An array or object value cannot be written into a batched message: the whole batch then goes one statement
  // at a time (the rule context's reads, the alert's case statement did before) and nothing in it is prepared.
  for (const s of [...a, ...b])
    assert.notEqual(sqlLiterals(s.params), null, `a value cannot be written in: ${s.sql.replace(/\s+/g, ' ').slice(0, 120)}`);
  // Prepared statements are keyed by text: a value inlined into the text would make a new statement per transaction.
  const texts = (x: typeof a) => x.map((s) => s.sql).sort();
  assert.deepEqual(texts(a), texts(b));
  assert.ok(a.length >= 15, `${a.length} statements`);
});

test('20 concurrent transactions of one subject hitting one rule raise one alert (20 occurrences) in one case', async () => {
  const o = await t.tenant();
  await publishStarter(o);
  const results = await Promise.all(
    Array.from({ length: 20 }, () => t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: hitsJurisdiction('cus_burst') })),
  );
  for (const r of results) assert.equal(r.statusCode, 201, r.body);
  const alerts = await t.db.query<{ kind: string; occurrences: number; case_id: string }>(
    "SELECT kind, occurrences, case_id FROM alerts WHERE account_id = $1 AND subject_id = 'cus_burst' AND kind = 'transaction_rule'",
    [o.accountId],
  );
  const byRule = await t.db.query<{ n: number }>(
    "SELECT count(DISTINCT dedupe_key)::int AS n FROM alerts WHERE account_id = $1 AND subject_id = 'cus_burst'",
    [o.accountId],
  );
  assert.equal(alerts.length, byRule[0]!.n, 'one alert per rule');
  const jurisdiction = await t.db.query<{ occurrences: number }>(
    `SELECT a.occurrences FROM alerts a WHERE a.account_id = $1 AND a.subject_id = 'cus_burst' AND a.details->>'rule_key' = 'high_risk_jurisdiction'`,
    [o.accountId],
  );
  assert.deepEqual(jurisdiction, [{ occurrences: 20 }]);
  assert.equal(new Set(alerts.map((a) => a.case_id)).size, 1);
  const cases = await t.db.query("SELECT 1 FROM cases WHERE account_id = $1 AND subject_id = 'cus_burst'", [o.accountId]);
  assert.equal(cases.length, 1);
});
