// Where PostgreSQL spends its time in one POST /v1/transactions: imports a bench-like history (BENCH_HISTORY rows,
// 1,000 subjects, one heavy subject holding 10 %), publishes the bench's 20 active rules, captures every statement
// node-postgres sends for one request on an ordinary subject and one on the heavy subject, then runs each read
// (statements sent together are split) under EXPLAIN (ANALYZE, BUFFERS) REPEAT times, rolled back, and prints the median
// planning and execution time of each: the server's cost without the round trips, comparable under load.
// Usage: TEST_DATABASE_URL=postgres://127.0.0.1:5432/test npm run bench -- kyt-explain (BENCH_HISTORY, REPEAT, VERBOSE).
import pg from 'pg';
import { createTestApp } from '../test/helpers/test-app.js';

const history = Number(process.env.BENCH_HISTORY ?? 20_000);
const REPEAT = Number(process.env.REPEAT ?? 9);
const VERBOSE = Number(process.env.VERBOSE ?? 6);
const DAY = 86_400_000;
if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL (PostgreSQL) is required');
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const t = await createTestApp();
const o = await t.tenant();
const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, key = o.sandboxKey) => {
  const r = await t.call(method as 'GET', url, { key, body });
  if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body.slice(0, 300)}`);
  return r.json();
};
const draft = await call('GET', '/v1/rules/draft');
for (const r of draft.rules) await call('PATCH', `/v1/rules/${r.id}`, { status: 'active' });
for (const [key, expression] of [
  ['amount_10k', 'tx.amount >= 10000.0'],
  ['amount_50k', 'tx.amount >= 50000.0'],
  ['night', 'tx.hour < 5 && tx.amount > 2000.0'],
  ['crypto', 'tx.type == "crypto" && tx.amount > 1000.0'],
  ['cash_out', 'tx.type == "cash_out" && tx.direction == "out"'],
  ['foreign', 'counterparty.bank_country != "" && counterparty.bank_country != "DE"'],
  ['weekend_big', 'tx.weekday == 0 && tx.amount > 5000.0'],
  ['new_subject', 'subject.relationship_days < 7 && tx.amount > 3000.0'],
  ['channel_atm', 'tx.channel == "atm" && tx.amount > 1000.0'],
])
  await call('POST', '/v1/rules', { key, name: key, expression, score: 10, severity: 'medium', status: 'active' });
const revision = (await call('GET', '/v1/rules/draft')).revision;
await call('POST', '/v1/rules/publish', { revision, change_note: 'explain' }, await o.keyWith(['rules:publish']));

const rnd = lcg(42);
const now = Date.now();
const lines: string[] = [];
for (let i = 0; i < history; i++) {
  const heavy = i % 10 === 0;
  lines.push(
    JSON.stringify({
      reference: `hist_${i}`,
      occurred_at: new Date(now - 90 * DAY + Math.floor((i / history) * 89 * DAY)).toISOString(),
      amount: (10 + Math.floor(rnd() * 500000) / 100).toFixed(2),
      currency: 'EUR',
      direction: rnd() < 0.5 ? 'in' : 'out',
      type: rnd() < 0.1 ? 'cash' : 'transfer',
      subject: { reference: heavy ? 'cus_heavy' : `cus_${Math.floor(rnd() * 1000)}` },
      counterparty: { reference: `cp_${Math.floor(rnd() * 5000)}`, bank_country: rnd() < 0.9 ? 'DE' : 'FR' },
    }),
  );
}
for (let i = 0; i < lines.length; i += 20_000)
  await call('POST', '/v1/transactions/imports', { format: 'jsonl', data: lines.slice(i, i + 20_000).join('\n') });

let captured: { text: string; values: unknown[] }[] | null = null;
const orig = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const a = args[0] as string | { text: string; values?: unknown[] };
  if (captured)
    captured.push(typeof a === 'string' ? { text: a, values: (args[1] as unknown[]) ?? [] } : { text: a.text, values: a.values ?? [] });
  return (orig as (...x: unknown[]) => unknown).apply(this, args);
} as typeof orig;

let seq = 0;
const post = (subject: string) =>
  call('POST', '/v1/transactions', {
    reference: `x_${++seq}`,
    occurred_at: new Date().toISOString(),
    amount: `${100 + ((seq * 37) % 9000)}.00`,
    currency: 'EUR',
    direction: seq % 2 ? 'in' : 'out',
    subject: { reference: subject },
    counterparty: { reference: `cp_${seq % 5000}`, bank_country: 'DE' },
  });
for (let i = 0; i < 20; i++) await post(`cus_${i}`);

const client = new pg.Client({ connectionString: t.config.databaseUrl ?? process.env.TEST_DATABASE_URL });
await client.connect();
const schema = (await t.db.query<{ s: string }>('SELECT current_schema() AS s'))[0]!.s;
await client.query(`SET search_path TO ${schema}, public`);
for (const [label, subject, direction] of [
  ['ordinary subject, in', 'cus_7', 1],
  ['ordinary subject, out', 'cus_8', 0],
  ['heavy subject, in', 'cus_heavy', 1],
  ['heavy subject, out', 'cus_heavy', 0],
] as const) {
  while (seq % 2 !== direction) seq++;
  captured = [];
  await post(subject);
  const stmts = captured;
  captured = null;
  console.log(`\n## ${label}: ${stmts.length} sends`);
  let total = 0;
  const parts = stmts.flatMap((s) =>
    s.text.includes(';\n') ? s.text.split(';\n').map((text) => ({ text, values: [] as unknown[] })) : [{ text: s.text, values: s.values }],
  );
  for (const s of parts) {
    const text = s.text.trim();
    if (/^(BEGIN|COMMIT|ROLLBACK)$/i.test(text)) continue;
    // Server-side cost: median planning and execution time of EXPLAIN ANALYZE, REPEAT times, rolled back.
    const plan: number[] = [];
    const exec: number[] = [];
    let lines: string[] = [];
    try {
      for (let i = 0; i < REPEAT; i++) {
        await client.query('BEGIN');
        const rows = (await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, s.values)).rows as { 'QUERY PLAN': string }[];
        await client.query('ROLLBACK');
        lines = rows.map((r) => r['QUERY PLAN']);
        plan.push(Number(/Planning Time: ([\d.]+)/.exec(lines.join('\n'))?.[1] ?? 0));
        exec.push(Number(/Execution Time: ([\d.]+)/.exec(lines.join('\n'))?.[1] ?? 0));
      }
    } catch (e) {
      await client.query('ROLLBACK');
      console.log(`  (failed: ${(e as Error).message}) ${text.replace(/\s+/g, ' ').slice(0, 100)}`);
      continue;
    }
    const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]!;
    total += med(plan) + med(exec);
    const detail = lines
      .filter((l) => /Scan|rows=\d+ loops|Buffers: shared|Trigger/.test(l) && !/Planning|Execution/.test(l))
      .slice(0, VERBOSE);
    console.log(
      `  plan ${med(plan).toFixed(3)} + exec ${med(exec).toFixed(3)} ms: ${text.replace(/\s+/g, ' ').slice(0, 150)}${detail.length ? `\n      ${detail.join('\n      ')}` : ''}`,
    );
  }
  console.log(`  sum of planning and execution: ${total.toFixed(2)} ms`);
}
await client.end();
await t.close();
