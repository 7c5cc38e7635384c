// CPU time of the API process per idempotent audited POST. On the embedded database (the default) PGlite runs
// inside that process, so the figure holds the database's work too and no other process's; with BENCH_DATABASE_URL
// (PostgreSQL) it is the API process's own work. CPU time per request depends far less on the machine's load than
// requests per second do, which on a shared machine let an A/A run differ by half.
// Usage: BENCH_VERSIONS=dirA,dirB[,…] npx tsx bench/write-cpu.ts ; BENCH_WRITE=list (default: a list entry) or
// session (POST /v1/verifications); each version is measured BENCH_ROUNDS times (default 2), interleaved,
// BENCH_REQUESTS requests each (default 1,000, 4 at a time, after 200 of warm-up).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { freePort, firstKeys } from '../test/helpers/spawn-server.js';
import { freshSchema, startChild, stop } from './lib/children.js';

const versions = (process.env.BENCH_VERSIONS ?? process.cwd()).split(',');
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const requests = Number(process.env.BENCH_REQUESTS ?? 1000);
const write = process.env.BENCH_WRITE === 'session' ? 'session' : 'list';
const pgBase = process.env.BENCH_DATABASE_URL || null;
const request = (i: number) =>
  write === 'session'
    ? { path: '/v1/verifications', body: { journey: 'kyc_standard', subject: { type: 'individual', reference: `bench_subject_${i}` } } }
    : { path: '/v1/lists/blocklist/entries', body: { kind: 'email', value: `bench${i}@example.org`, reason: 'benchmark' } };
const ticksOf = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .slice(readFileSync(`/proc/${pid}/stat`, 'utf8').lastIndexOf(')') + 2)
    .split(' ');
  return Number(f[11]) + Number(f[12]); // utime + stime, in clock ticks (100 per second)
};

async function measure(dir: string): Promise<{ msPerRequest: number; load: string }> {
  const data = mkdtempSync(join(tmpdir(), 'verity-write-cpu-'));
  const schema = pgBase ? await freshSchema(pgBase) : null;
  const port = await freePort();
  const svc = await startChild(
    ['src/server.ts'],
    {
      PORT: String(port),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      MASTER_KEY: '22'.repeat(32),
      RATE_LIMIT_PER_MINUTE: '10000000',
      RUN_WORKER: 'false',
      DATA_DIR: data,
      ...(schema ? { DATABASE_URL: schema.url } : {}),
    },
    /Verity is running[\s\S]*New key/,
    { cwd: dir },
  );
  try {
    const key = firstKeys(data).sandbox;
    let n = 0;
    const post = async () => {
      const i = n++;
      const { path, body } = request(i);
      const r = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': `k-${i}` },
        body: JSON.stringify(body),
      });
      if (r.status !== 201) throw new Error(`POST answered ${r.status}: ${await r.text()}`);
    };
    const run = async (count: number) => {
      const end = n + count;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (n < end) await post();
        }),
      );
    };
    await run(200);
    const t0 = ticksOf(svc.proc.pid!);
    const from = n;
    await run(requests);
    return { msPerRequest: ((ticksOf(svc.proc.pid!) - t0) * 10) / (n - from), load: loadavg()[0]!.toFixed(1) };
  } finally {
    await stop(svc.proc);
    await schema?.drop().catch(() => undefined);
    rmSync(data, { recursive: true, force: true });
  }
}

for (let r = 0; r < rounds; r++) {
  for (const dir of versions) {
    const m = await measure(dir);
    console.log(
      `round ${r + 1}\t${dir}\t${m.msPerRequest.toFixed(2)} ms CPU per POST (${write}, ${pgBase ? 'PostgreSQL' : 'PGlite'})\tload ${m.load}`,
    );
  }
}
