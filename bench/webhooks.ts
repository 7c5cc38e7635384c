// Webhook delivery benchmark on PostgreSQL: events are committed at a fixed rate straight into the
// outbox; worker processes (src/worker.ts) deliver them to a receiver in this process. Measures the
// time from the committing transaction to the receiver's 200 (p50, p99) and deliveries per second,
// with one and with two worker processes.
// Usage: npm run bench -- webhooks ; BENCH_DATABASE_URL, BENCH_RATE (500), BENCH_SECONDS (10).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { withUser, openDb, migrate } from '../src/platform/db.js';
import { Sealer } from '../src/platform/crypto.js';
import { newId } from '../src/platform/ids.js';

const base = process.env.BENCH_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test';
const rate = Number(process.env.BENCH_RATE ?? 500);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const MASTER_KEY = '44'.repeat(32);

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
}

async function run(workers: number): Promise<string> {
  const schema = `whb_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withUser(base) });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const u = new URL(withUser(base));
  u.searchParams.set('options', `-c search_path=${schema}`);
  const url = u.toString();
  const db = await openDb({ databaseUrl: url, poolSize: 20 });
  await migrate(db);
  const committedAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  let lastAt = 0;
  const rx = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = performance.timeOrigin + performance.now();
      const id = JSON.parse(Buffer.concat(chunks).toString()).id as string;
      const t0 = committedAt.get(id);
      if (t0 !== undefined && !res.headersSent) latencies.push(now - t0);
      received++;
      lastAt = now;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', () => r()));
  const port = (rx.address() as { port: number }).port;
  const sealer = new Sealer(Buffer.from(MASTER_KEY, 'hex'));
  await db.query("INSERT INTO accounts (id, name) VALUES ('acct_bench', 'bench')");
  const dest = newId('webhook');
  await db.query(
    `INSERT INTO webhook_destinations (id, account_id, environment, url, event_types, secret_sealed) VALUES ($1, 'acct_bench', 'sandbox', $2, '{*}', $3)`,
    [dest, `http://127.0.0.1:${port}/hook`, sealer.seal('webhook-signing-secret', 'whsec_bench')],
  );
  const procs: ChildProcess[] = [];
  for (let i = 0; i < workers; i++) {
    procs.push(
      spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
        env: { ...process.env, DATABASE_URL: url, MASTER_KEY, LOG_LEVEL: 'warn', WEBHOOK_POLL_MS: '20', WEBHOOK_CONCURRENCY: '64' },
        stdio: 'inherit',
      }),
    );
  }
  await new Promise((r) => setTimeout(r, 4000)); // workers start and migrate
  const total = rate * seconds;
  const start = performance.now();
  let sent = 0;
  const inserts: Promise<void>[] = [];
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
    for (; sent < due; sent++) {
      const id = newId('event');
      inserts.push(
        db
          .query(
            "INSERT INTO events (id, account_id, environment, type, data) VALUES ($1, 'acct_bench', 'sandbox', 'webhook.test', '{}'::jsonb)",
            [id],
          )
          .then(() => {
            committedAt.set(id, performance.timeOrigin + performance.now());
          }),
      );
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(inserts);
  const producedIn = (performance.now() - start) / 1000;
  const deadline = Date.now() + 60_000;
  while (received < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const elapsed = (lastAt - (performance.timeOrigin + start)) / 1000;
  await Promise.all(procs.map((p) => new Promise((r) => (p.once('exit', r), p.kill('SIGTERM')))));
  rx.close();
  await db.close();
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.end();
  return `| ${workers} | ${rate} | ${total} | ${received} | ${(received / elapsed).toFixed(0)} | ${pct(latencies, 50).toFixed(0)} | ${pct(latencies, 99).toFixed(0)} | ${producedIn.toFixed(1)} s |`;
}

const rows: string[] = [];
for (const w of [1, 2]) {
  console.error(`webhooks: ${w} worker(s), ${rate} events/s for ${seconds} s…`);
  rows.push(await run(w));
}
const report = `## Webhook delivery (${new Date().toISOString().slice(0, 10)}, PostgreSQL, receiver on loopback)\n\n| workers | offered events/s | events | delivered | deliveries/s | commit→200 p50 ms | p99 ms | produced in |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n${rows.join('\n')}\n`;
console.log(report);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/webhooks.md', report);
