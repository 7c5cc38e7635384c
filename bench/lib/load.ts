import autocannon from 'autocannon';
import { freePort } from '../../test/helpers/spawn-server.js';
import { startChild, stop } from './children.js';
import { formatSplit, startCpuSplit } from './cpu.js';
import { pacedLoad } from './paced.js';

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Cores used on average by the server, PostgreSQL and the load generator during the run (when measured). */
  cpu?: string;
}

/** `load` with the CPU split of the run: the server process `pid`, PostgreSQL's processes and this process. */
export async function loadWithCpu(pid: number | undefined, ...args: Parameters<typeof load>): Promise<LoadResult> {
  const stopSplit = startCpuSplit(pid);
  const r = await load(...args);
  return { ...r, cpu: formatSplit(stopSplit()) };
}

/**
 * Runs autocannon against one endpoint; POST bodies get a fresh Idempotency-Key per request when asked, and
 * `bodyOf(n)` gives the n-th request its own body (unique references, spread subjects).
 */
export async function load(
  name: string,
  opts: {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: unknown;
    freshIdempotencyKey?: boolean;
    bodyOf?: (n: number) => unknown;
    seconds?: number;
    connections?: number;
    /**
     * Requests per second in all, paced evenly and timed from each request's due time (`paced.ts`, open loop):
     * CPU per request compared at the same rate, and latency at a given load. Not autocannon's overallRate,
     * which sends each second's share as one burst.
     */
    rate?: number;
  },
): Promise<LoadResult> {
  if (opts.rate) {
    const r = await pacedLoad({ ...opts, seconds: opts.seconds ?? 10, rate: opts.rate });
    if (process.env.BENCH_TIMELINE === '1')
      for (const x of r.timeline)
        console.error(`  ${name}: second ${x.second}: ${x.n} requests, p50 ${x.p50} / p99 ${x.p99} / max ${x.max} ms`);
    return { name: `${name} [paced at ${opts.rate}/s]`, rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors, non2xx: r.non2xx };
  }
  let n = 0;
  const prefix = `${process.pid}-${Date.now()}-`;
  const run = autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    connections: opts.connections ?? 50,
    duration: opts.seconds ?? 10,
    headers: { 'content-type': 'application/json', ...(opts.headers ?? {}) },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    requests:
      opts.freshIdempotencyKey || opts.bodyOf
        ? [
            {
              setupRequest: (req: autocannon.Request) => {
                const i = n++;
                return {
                  ...req,
                  ...(opts.bodyOf ? { body: JSON.stringify(opts.bodyOf(i)) } : {}),
                  headers: { ...(req.headers ?? {}), ...(opts.freshIdempotencyKey ? { 'idempotency-key': `${prefix}${i}` } : {}) },
                };
              },
            },
          ]
        : undefined,
  });
  const perSecond: number[] = [];
  // autocannon's promise is also its tracker, which ticks once a second with that second's count.
  (run as unknown as import('node:events').EventEmitter).on('tick', (t: { counter: number }) => perSecond.push(t.counter));
  const result = await run;
  if (process.env.BENCH_TIMELINE === '1') console.error(`  ${name}: requests per second ${perSecond.join(' ')}`);
  return {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function table(rows: LoadResult[], baseline?: { name: string; rps: number }): string {
  const cpu = rows.some((r) => r.cpu);
  const lines = [
    '| run | req/s | p50 ms | p99 ms | errors | non-2xx |' + (baseline ? ` vs ${baseline.name} |` : '') + (cpu ? ' CPU (cores) |' : ''),
    '|---|---:|---:|---:|---:|---:|' + (baseline ? '---:|' : '') + (cpu ? '---|' : ''),
  ];
  for (const r of rows)
    lines.push(
      `| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |` +
        (baseline ? ` ${((100 * r.rps) / baseline.rps).toFixed(0)} % |` : '') +
        (cpu ? ` ${r.cpu ?? ''} |` : ''),
    );
  return lines.join('\n');
}

/**
 * The baseline every write benchmark is quoted against: a bare Fastify route doing one transaction of two
 * INSERTs (bench/lib/baseline-server.ts) on the same database kind, measured in the same run.
 */
export async function insertBaseline(opts: { dataDir: string; databaseUrl?: string; seconds: number }): Promise<LoadResult> {
  const port = await freePort();
  const child = await startChild(
    ['bench/lib/baseline-server.ts'],
    {
      BASELINE_MODE: 'insert',
      PORT: String(port),
      ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : { DATA_DIR: opts.dataDir }),
    },
    /listening/,
  );
  try {
    return await loadWithCpu(child.proc.pid, 'baseline: bare Fastify, 1 transaction of 2 INSERTs', {
      url: `http://127.0.0.1:${port}/insert`,
      method: 'POST',
      body: {},
      seconds: opts.seconds,
    });
  } finally {
    await stop(child.proc);
  }
}

/** One line per POST run: its share of the baseline and its p99 against the aim. */
export function aimLine(what: string, run: LoadResult, baseline: LoadResult, aim: { ratio: number; p99: number }): string {
  const ratio = (100 * run.rps) / baseline.rps;
  const met = ratio >= aim.ratio && run.p99 < aim.p99;
  return `${what} = ${ratio.toFixed(0)} % of the two-INSERT baseline (aim ≥ ${aim.ratio} %); p99 ${run.p99} ms (aim < ${aim.p99} ms): ${met ? 'met' : 'not met'}.`;
}
