// Where PostgreSQL spends its time in one POST /v1/transactions: imports a bench-like history (BENCH_HISTORY rows,
// 1,000 subjects, one heavy subject holding 10 %), publishes the bench's 20 active rules, captures every statement
// node-postgres sends for one request on an ordinary subject and one on the heavy subject, then runs each read
// (statements sent together are split) under EXPLAIN (ANALYZE, BUFFERS) REPEAT times, rolled back, and prints the median
// planning and execution time of each: the server's cost without the round trips, comparable under load.
// Usage: TEST_DATABASE_URL=postgres://127.0.0.1:5432/test npm run bench -- kyt-explain (BENCH_HISTORY, REPEAT, VERBOSE,
// BENCH_DERIVED_INDEXES=false to leave out the indexes derived from the published rule set).
// By default (TEST_PREPARED_STATEMENTS=false sends text instead) the statements travel as EXECUTE of prepared statements: each is then explained
// twice, under plan_cache_mode force_custom_plan and force_generic_plan (the plan PostgreSQL may settle on after five
// executions), so a statement whose generic plan is worse shows.
import pg from 'pg';
import { createTestApp } from '../test/helpers/test-app.js';
import { historyLines, importHistory, publishRuleSet, testAppTenant } from './lib/kyt-setup.js';
import { syncDerivedIndexes } from '../src/modules/transactions/derived-indexes.js';

const history = Number(process.env.BENCH_HISTORY ?? 20_000);
const REPEAT = Number(process.env.REPEAT ?? 9);
const VERBOSE = Number(process.env.VERBOSE ?? 6);
if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL (PostgreSQL) is required');

const t = await createTestApp();
const { maker: call, checker } = await testAppTenant(t);
await publishRuleSet(call, checker, { note: 'explain' });
await importHistory(call, historyLines(history));
// What the job publishing queues would have built by now (BENCH_DERIVED_INDEXES=false: the fixed indexes only).
if (process.env.BENCH_DERIVED_INDEXES !== 'false') console.log('derived indexes:', JSON.stringify(await syncDerivedIndexes(t.db)));

let captured: { text: string; values: unknown[] }[] | null = null;
/** Prepared statements' texts by name, as the service PREPAREs them (the default; TEST_PREPARED_STATEMENTS=false sends text). */
const preparedText = new Map<string, string>();
const orig = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const a = args[0] as string | { text: string; values?: unknown[] };
  if (typeof a === 'string')
    for (const part of a.split(';\n')) {
      const m = /^PREPARE (v_\w+) AS ([\s\S]*)$/.exec(part.trim());
      if (m) preparedText.set(m[1]!, m[2]!);
    }
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
const preparedHere = new Set<string>();
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
    if (/^(BEGIN|COMMIT|ROLLBACK)$/i.test(text) || /^(PREPARE|DEALLOCATE) /.test(text)) continue;
    const name = /^EXECUTE (v_\w+)\(/.exec(text)?.[1];
    if (name !== undefined && !preparedText.has(name)) {
      console.log(`  (its PREPARE was sent before the capture began) ${text.slice(0, 60)}`);
      continue;
    }
    if (name !== undefined && !preparedHere.has(name)) {
      await client.query(`PREPARE ${name} AS ${preparedText.get(name)}`);
      preparedHere.add(name);
    }
    // Server-side cost: median planning and execution time of EXPLAIN ANALYZE, REPEAT times, rolled back.
    for (const mode of name === undefined ? [null] : ['force_custom_plan', 'force_generic_plan']) {
      const plan: number[] = [];
      const exec: number[] = [];
      let lines: string[] = [];
      try {
        if (mode) await client.query(`SET plan_cache_mode = ${mode}`);
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
      if (mode !== 'force_generic_plan') total += med(plan) + med(exec);
      const detail = lines
        .filter((l) => /Scan|rows=\d+ loops|Buffers: shared|Trigger/.test(l) && !/Planning|Execution/.test(l))
        .slice(0, VERBOSE);
      const shown = name === undefined ? text : `${mode === 'force_generic_plan' ? 'generic' : 'custom'} ${preparedText.get(name)}`;
      console.log(
        `  plan ${med(plan).toFixed(3)} + exec ${med(exec).toFixed(3)} ms: ${shown.replace(/\s+/g, ' ').slice(0, 150)}${detail.length ? `\n      ${detail.join('\n      ')}` : ''}`,
      );
    }
  }
  console.log(`  sum of planning and execution: ${total.toFixed(2)} ms`);
}
await client.end();
await t.close();
