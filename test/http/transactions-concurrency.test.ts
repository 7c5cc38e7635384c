import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { KeyedQueue, SUBJECT_QUEUE, WRITE_BATCHER, subjectKey } from '../../src/modules/transactions/subject-queue.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

let seq = 0;
const txn = (subject: string, amount: string, at: number) => ({
  reference: `conc_${++seq}_${Math.random().toString(36).slice(2)}`,
  occurred_at: new Date(at).toISOString(),
  amount,
  currency: 'EUR',
  direction: 'out',
  type: 'transfer',
  subject: { reference: subject },
  counterparty: { name: `cp ${seq}`, account: `ACC${seq}` },
});

async function publish(o: Tenant, extra: Record<string, unknown>[] = []) {
  const start = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json();
  for (const r of start.rules) await t.call('PATCH', `/v1/rules/${r.id}`, { key: o.sandboxKey, body: { status: 'disabled' } });
  const d = await t.call('PATCH', '/v1/rules/draft', {
    key: o.sandboxKey,
    body: {
      aggregates: [
        ...start.aggregates,
        { key: 'c_out_count_24h', fn: 'count', window: '24h', group_by: 'subject', direction: 'out' },
        { key: 'c_out_sum_24h', fn: 'sum', field: 'amount', window: '24h', group_by: 'subject', direction: 'out' },
      ],
    },
  });
  assert.equal(d.statusCode, 200, d.body);
  const r = await t.call('POST', '/v1/rules', {
    key: o.sandboxKey,
    body: {
      key: 'reads_both',
      name: 'reads both',
      expression: 'agg.c_out_count_24h >= 0 && agg.c_out_sum_24h >= 0.0',
      score: 0,
      severity: 'low',
      status: 'active',
    },
  });
  assert.equal(r.statusCode, 201, r.body);
  for (const rule of extra) {
    const x = await t.call('POST', '/v1/rules', { key: o.sandboxKey, body: rule });
    assert.equal(x.statusCode, 201, x.body);
  }
  const revision = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json().revision;
  const pub = await t.call('POST', '/v1/rules/publish', { key: await o.keyWith(['rules:publish']), body: { revision } });
  assert.equal(pub.statusCode, 201, pub.body);
}

describe('per-subject serialisation', () => {
  test('KeyedQueue: one task at a time per key in arrival order, other keys not held back, a failure does not stop the queue', async () => {
    const q = new KeyedQueue();
    const log: string[] = [];
    let running = 0;
    let maxRunning = 0;
    const releases: (() => void)[] = [];
    const task = (name: string) => async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      log.push(`start ${name}`);
      await new Promise<void>((r) => releases.push(r));
      running--;
      log.push(`end ${name}`);
      if (name === 'a2') throw new Error('boom');
      return name;
    };
    const a = [1, 2, 3].map((i) => q.run('A', task(`a${i}`)));
    const b = q.run('B', task('b1'));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(log, ['start a1', 'start b1'], 'B starts while A1 holds its key');
    releases.pop()!(); // b1
    assert.equal(await b, 'b1');
    releases.pop()!(); // a1
    assert.equal(await a[0], 'a1');
    await new Promise((r) => setImmediate(r));
    releases.pop()!(); // a2
    await assert.rejects(a[1]!, /boom/);
    await new Promise((r) => setImmediate(r));
    releases.pop()!(); // a3
    assert.equal(await a[2], 'a3');
    assert.deepEqual(
      log.filter((l) => / a\d$/.test(l)),
      ['start a1', 'end a1', 'start a2', 'end a2', 'start a3', 'end a3'],
    );
    assert.equal(maxRunning, 2); // one A and one B at most
    await new Promise((r) => setImmediate(r));
    assert.equal(q.activeKeys, 0, 'keys are released when their last task settles');
  });

  test('KeyedQueue.admit: counts a request from its admission, refuses beyond the limit per key, a release counts once', () => {
    const q = new KeyedQueue();
    const a1 = q.admit('A', 2);
    const a2 = q.admit('A', 2);
    assert.ok(a1 && a2);
    assert.equal(q.admit('A', 2), null, 'two admitted and neither queued yet: the third is refused');
    assert.ok(q.admit('B', 2), 'another key has its own count');
    assert.equal(q.depth('A'), 2);
    a1();
    a1();
    assert.equal(q.depth('A'), 1, 'a second release of the same admission does nothing');
    assert.ok(q.admit('A', 2));
    assert.equal(q.depth('A'), 2);
  });

  test('a burst of N on one subject does not hold back another subject, and its aggregates stay exact', async () => {
    const o = await t.tenant();
    await publish(o);
    const N = 24;
    const base = Date.now() - 60 * 60_000;
    const order: string[] = [];
    const amounts = Array.from({ length: N }, (_, i) => `${i + 1}.${String(i % 100).padStart(2, '0')}`);
    // All at the same moment: whatever order they are evaluated in, each must count exactly the ones stored before it.
    const burst = amounts.map(async (amount) => {
      const res = await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: txn('cus_heavy', amount, base) });
      order.push('heavy');
      return res;
    });
    // Another subject's request, sent after the whole burst is in flight.
    await new Promise((r) => setImmediate(r));
    const other = t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: txn('cus_light', '5.00', base) }).then((res) => {
      order.push('light');
      return res;
    });
    const results = await Promise.all(burst);
    const light = await other;
    assert.equal(light.statusCode, 201, light.body);
    for (const r of results) assert.equal(r.statusCode, 201, r.body);
    // The light subject waits for no queue: it finishes before most of the heavy subject's burst.
    // On PostgreSQL only: embedded PGlite is one connection that runs every statement in turn, so there
    // is no pool to starve and no concurrency to show (the exactness below is checked on both).
    if (t.db.kind === 'postgres') {
      const lightAt = order.indexOf('light');
      assert.ok(lightAt < N / 2, `light finished at position ${lightAt} of ${N + 1}: ${order.join(',')}`);
    }

    // Exact aggregates: each heavy evaluation saw precisely the heavy transactions stored before it
    // (serialised), so the counts are 0..N-1 once each, and each sum is the exact decimal sum of the
    // amounts of the transactions counted (all occurred within the 24 h window).
    const seen = results.map((r) => {
      const x = r.json();
      const v = x.rules.find((y: { key: string }) => y.key === 'reads_both').values_used;
      return { count: Number(v['agg.c_out_count_24h']), sum: String(v['agg.c_out_sum_24h']), created: x.created_at as string, id: x.id };
    });
    assert.deepEqual(
      seen.map((s) => s.count).sort((a, b) => a - b),
      Array.from({ length: N }, (_, i) => i),
    );
    const stored = await t.db.query<{ id: string; amount: string }>(
      `SELECT id, amount::text AS amount FROM transactions WHERE account_id = $1 AND subject_reference = 'cus_heavy' ORDER BY created_at, id`,
      [o.accountId],
    );
    assert.equal(stored.length, N);
    // Order of storage = order of evaluation: the k-th stored saw the sum of the k before it (in cents).
    const byId = new Map(seen.map((s) => [s.id, s]));
    let cents = 0n;
    for (const [k, row] of stored.entries()) {
      const s = byId.get(row.id)!;
      assert.equal(s.count, k, `stored #${k} saw count ${s.count}`);
      const [whole, frac = ''] = s.sum.split('.');
      assert.equal(BigInt(whole!) * 100n + BigInt((frac + '00').slice(0, 2)), cents, `stored #${k} saw sum ${s.sum}`);
      const [w2, f2 = ''] = row.amount.split('.');
      cents += BigInt(w2!) * 100n + BigInt((f2 + '00').slice(0, 2));
    }
    const [daily] = await t.db.query<{ n: string }>(
      `SELECT sum(n)::text AS n FROM transaction_daily WHERE account_id = $1 AND subject_reference = 'cus_heavy'`,
      [o.accountId],
    );
    assert.equal(Number(daily!.n), N, 'the rollup counted every transaction once');
  });

  test('many subjects at once: their write steps share database transactions (group commit), each evaluation as if alone', async () => {
    const o = await t.tenant();
    const big = {
      key: 'big',
      name: 'Big',
      expression: 'tx.amount >= 1000.0',
      score: 0,
      severity: 'high',
      status: 'active',
      force_outcome: 'review',
    };
    await publish(o, [big]);
    const batcher = t.resources.get(WRITE_BATCHER);
    const before = { ...batcher.stats };
    const S = 12;
    const K = 4;
    const base = Date.now() - 60 * 60_000;
    // Every subject's k-th transaction is sent in round k, all subjects at once; the last one of each is big (an alert).
    // (A subject with more of its own waiting is written alone: one transaction per subject and round here.)
    const results: { subject: string; res: Awaited<ReturnType<TestApp['call']>> }[] = [];
    for (let k = 0; k < K; k++) {
      const round = Array.from({ length: S }, (_, s) => {
        const subject = `cus_many_${s}`;
        const amount = k === K - 1 ? `${1000 + s}.00` : `${s + 1}.${k}0`;
        return t
          .call('POST', '/v1/transactions', { key: o.sandboxKey, body: txn(subject, amount, base) })
          .then((res) => ({ subject, res }));
      });
      results.push(...(await Promise.all(round)));
    }
    for (const { res } of results) assert.equal(res.statusCode, 201, res.body);
    const after = batcher.stats;
    assert.ok(after.batches > before.batches, `no write step was batched: ${JSON.stringify(after)}`);
    assert.equal(after.fallbacks, before.fallbacks, 'no batch failed');
    // Each subject's counts are 0..K-1 in order and its sums exact: its evaluations saw exactly its rows stored before.
    for (let s = 0; s < S; s++) {
      const mine = results.filter((r) => r.subject === `cus_many_${s}`).map((r) => r.res.json());
      const used = mine.map((x) => x.rules.find((y: { key: string }) => y.key === 'reads_both').values_used);
      assert.deepEqual(
        used.map((v) => Number(v['agg.c_out_count_24h'])),
        Array.from({ length: K }, (_, i) => i),
        `cus_many_${s}`,
      );
      // And each sum is exactly the subject's earlier amounts (in cents).
      const cents = (a: unknown) => Math.round(Number(a) * 100);
      let sum = 0;
      for (const [k, x] of mine.entries()) {
        assert.equal(cents(used[k]['agg.c_out_sum_24h']), sum, `cus_many_${s} #${k}`);
        sum += cents(x.amount);
      }
      const bigOne = mine.find((x) => Number(x.amount) >= 1000)!;
      assert.equal(bigOne.status, 'review');
      // The review raises an alert per hit rule (big, and reads_both which always hits), in the subject's one case.
      assert.equal(bigOne.alerts.length, 2);
      assert.equal(mine.filter((x) => x.status === 'approved').length, K - 1);
    }
    // Two alerts and one case per subject, as alone; every transaction and rollup row stored once.
    const [counts] = await t.db.query<{ tx: number; alerts: number; cases: number; daily: number }>(
      `SELECT (SELECT count(*)::int FROM transactions WHERE account_id = $1) AS tx,
              (SELECT count(*)::int FROM alerts WHERE account_id = $1 AND kind = 'transaction_rule') AS alerts,
              (SELECT count(DISTINCT case_id)::int FROM alerts WHERE account_id = $1 AND kind = 'transaction_rule') AS cases,
              (SELECT sum(n)::int FROM transaction_daily WHERE account_id = $1) AS daily`,
      [o.accountId],
    );
    assert.deepEqual(counts, { tx: S * K, alerts: 2 * S, cases: S, daily: S * K });
  });

  test('a subject with TRANSACTIONS_SUBJECT_QUEUE_LIMIT transactions queued gets 429 rate_limited with Retry-After; others go on; the refused key is free for the retry', async () => {
    const small = await createTestApp({ env: { TRANSACTIONS_SUBJECT_QUEUE_LIMIT: '3' } });
    try {
      const o = await small.tenant();
      const queue = small.resources.get(SUBJECT_QUEUE);
      const key = subjectKey({ accountId: o.accountId, environment: 'sandbox' }, 'cus_busy');
      // The subject's evaluation in progress (admitted as a request is), held until released.
      let release!: () => void;
      const slot = queue.admit(key, 3)!;
      const holding = queue.run(key, () => new Promise<void>((r) => (release = r))).finally(slot);
      const base = Date.now() - 60_000;
      const post = (body: object, idem: string) =>
        small.call('POST', '/v1/transactions', { key: o.sandboxKey, body, headers: { 'idempotency-key': idem } });
      const waiting = [post(txn('cus_busy', '1.00', base), 'busy-1'), post(txn('cus_busy', '2.00', base), 'busy-2')];
      for (let i = 0; i < 100_000 && queue.depth(key) < 3; i++) await new Promise((r) => setImmediate(r));
      assert.equal(queue.depth(key), 3, 'the held evaluation and two waiting');

      const refusedBody = txn('cus_busy', '3.00', base);
      const answer = post(refusedBody, 'busy-3');
      let answered = false;
      void answer.then(() => (answered = true));
      // Answered while the subject's queue is still full, or queued behind it (then the test fails now, not at the runner's timeout).
      for (let i = 0; i < 100_000 && !answered && queue.depth(key) < 4; i++) await new Promise((r) => setImmediate(r));
      if (!answered) release();
      assert.ok(answered, 'the fourth transaction of the subject was queued instead of refused');
      const refused = await answer;
      assert.equal(refused.statusCode, 429, refused.body);
      assert.equal(refused.json().error.code, 'rate_limited');
      assert.match(refused.json().error.message, /3 transactions of this subject are already waiting/);
      assert.equal(refused.headers['retry-after'], '1');
      assert.ok(refused.headers['x-ratelimit-limit'], 'the rate-limit headers are on every response');
      assert.equal(queue.depth(key), 3, 'the refused one was never queued');

      // Another subject is not held back by the full queue.
      const other = await post(txn('cus_calm', '4.00', base), 'calm-1');
      assert.equal(other.statusCode, 201, other.body);

      release();
      await holding;
      for (const w of await Promise.all(waiting)) assert.equal(w.statusCode, 201, w.body);
      // The client's retry with the same key and body: the 429 did not use the key up.
      const retried = await post(refusedBody, 'busy-3');
      assert.equal(retried.statusCode, 201, retried.body);
      assert.equal(retried.json().amount, '3.00');
      await new Promise((r) => setImmediate(r));
      assert.equal(queue.depth(key), 0);
      const stored = await small.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM transactions WHERE account_id = $1 AND subject_reference = 'cus_busy'",
        [o.accountId],
      );
      assert.equal(stored[0]!.n, 3, 'two waiting and the retried one, each once');
    } finally {
      await small.close();
    }
  });
});
