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

/**
 * Seconds of the same load sent before every measured run and not counted (`BENCH_WARMUP`, default 10; 0 for
 * none). Every server these benches start is cold, and its first 5–8 seconds run mostly in V8's baseline tier
 * (docs/performance.md, "the runs' first seconds"), so a 10 s run without it mixes a start-up into the figures
 * of a service that in production runs warm. Baselines and Verity are warmed alike.
 */
export const warmupSeconds = Math.max(0, Number(process.env.BENCH_WARMUP ?? 10));

/** A line for a report's header: how the runs were warmed. */
export function warmupNote(): string {
  return warmupSeconds > 0 ? `after ${warmupSeconds} s of warm-up with the same load (BENCH_WARMUP)` : 'cold (BENCH_WARMUP=0)';
}

type LoadOptions = Parameters<typeof load>[1];

/** Sends the load for the warm-up seconds, results dropped; the number of requests it made (the next index). */
async function warmUp(name: string, opts: LoadOptions): Promise<number> {
  const seconds = opts.warmup ?? warmupSeconds;
  if (seconds <= 0) return opts.first ?? 0;
  const r = await measured(`${name} (warm-up)`, { ...opts, seconds });
  return r.next;
}

/**
 * `load` with the CPU split of the measured run: the server process `pid`, PostgreSQL's processes and this process.
 * `measuring` runs after the warm-up, right before the measured run: where a caller reads counters of its own
 * (WAL, backends' CPU), so that the warm-up's share is not in them.
 */
export async function loadWithCpu(
  pid: number | undefined,
  name: string,
  opts: LoadOptions,
  measuring?: () => Promise<void>,
): Promise<LoadResult> {
  const first = await warmUp(name, opts);
  await measuring?.();
  const stopSplit = startCpuSplit(pid);
  const r = await measured(name, { ...opts, first });
  return { ...r.result, cpu: formatSplit(stopSplit()) };
}

/**
 * Runs autocannon against one endpoint, after the warm-up (`warmupSeconds`); POST bodies get a fresh
 * Idempotency-Key per request when asked, and `bodyOf(n)` gives the n-th request its own body (unique references,
 * spread subjects; the measured run goes on counting from the warm-up's last n).
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
    /** Warm-up seconds before the measured run (default `warmupSeconds`). */
    warmup?: number;
    /** The index of the first request's body (`bodyOf`). */
    first?: number;
  },
): Promise<LoadResult> {
  const first = await warmUp(name, opts);
  return (await measured(name, { ...opts, first })).result;
}

/** One run of the load, nothing before it: its figures and the index after its last request. */
async function measured(name: string, opts: LoadOptions): Promise<{ result: LoadResult; next: number }> {
  const first = opts.first ?? 0;
  if (opts.rate) {
    const bodyOf = opts.bodyOf;
    const r = await pacedLoad({
      ...opts,
      seconds: opts.seconds ?? 10,
      rate: opts.rate,
      ...(bodyOf ? { bodyOf: (i: number) => bodyOf(first + i) } : {}),
    });
    if (process.env.BENCH_TIMELINE === '1')
      for (const x of r.timeline)
        console.error(`  ${name}: second ${x.second}: ${x.n} requests, p50 ${x.p50} / p99 ${x.p99} / max ${x.max} ms`);
    return {
      result: { name: `${name} [paced at ${opts.rate}/s]`, rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors, non2xx: r.non2xx },
      next: first + Math.round(opts.rate * (opts.seconds ?? 10)),
    };
  }
  let n = first;
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
    result: {
      name,
      rps: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
    },
    next: n,
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
