// An open-loop load generator at a fixed rate: request i is due at start + i / rate, whatever happened to the
// requests before it, and its latency is counted from that due time, not from when a connection was free to send
// it (as wrk2 does, so a stalled server is not hidden by the generator waiting with it: "coordinated omission").
// autocannon's overallRate instead lets each connection send its share at the start of every second and then
// wait for the next one, so a "250 req/s" run is a burst of 250 concurrent requests once a second: its p99 at a
// given rate measures the burst's queue, not the server at that load.
import http from 'node:http';
import { percentile } from './stats.js';

export interface PacedOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** The n-th request's body (JSON-encoded here); else `body` for all. */
  bodyOf?: (n: number) => unknown;
  body?: unknown;
  /** A fresh Idempotency-Key per request. */
  freshIdempotencyKey?: boolean;
  seconds: number;
  /** Requests per second in all, spread evenly over each second. */
  rate: number;
  /** Keep-alive connections at most (a due request waits for a free one, and that wait is in its latency). */
  connections?: number;
}

export interface PacedResult {
  /** Requests completed per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Requests that found every connection busy when they were due. */
  queued: number;
  /**
   * Per second of the run (by due time): requests and their p50 / p99 / max latency in ms. Shows whether a p99 comes
   * from the whole run or from an episode of a few seconds (`BENCH_TIMELINE=1` prints it in the KYT bench).
   */
  timeline: { second: number; n: number; p50: number; p99: number; max: number }[];
}

export async function pacedLoad(opts: PacedOptions): Promise<PacedResult> {
  const url = new URL(opts.url);
  const connections = opts.connections ?? 50;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const prefix = `${process.pid}-${Date.now()}-paced-`;
  const total = Math.round(opts.rate * opts.seconds);
  /** Latencies by the second of the run they were due in (sparse: a second with no answer has no entry). */
  const bySecond: number[][] = [];
  let errors = 0;
  let non2xx = 0;
  let queued = 0;
  let inFlight = 0;
  const start = performance.now();
  let sent = 0;

  const send = (i: number, due: number): Promise<void> =>
    new Promise((resolve) => {
      const body = opts.bodyOf ? JSON.stringify(opts.bodyOf(i)) : opts.body === undefined ? undefined : JSON.stringify(opts.body);
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      if (opts.freshIdempotencyKey) headers['idempotency-key'] = `${prefix}${i}`;
      if (inFlight >= connections) queued++;
      inFlight++;
      const done = (ok: boolean, status = 0) => {
        inFlight--;
        if (!ok) errors++;
        else if (status < 200 || status >= 300) non2xx++;
        // By the request's index, not from due − start: that float difference can land a request due at a
        // whole second in the second before.
        (bySecond[Math.floor(i / opts.rate)] ??= []).push(performance.now() - due);
        resolve();
      };
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname + url.search, method: opts.method ?? 'GET', headers, agent },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () => done(true, res.statusCode ?? 0));
          res.on('error', () => done(false));
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => done(false));
      req.end(body);
    });

  const pending: Promise<void>[] = [];
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      // Every request due by now goes out (a late timer sends the backlog at once, each timed from its due time).
      while (sent < total && start + (sent * 1000) / opts.rate <= now) {
        pending.push(send(sent, start + (sent * 1000) / opts.rate));
        sent++;
      }
      if (sent >= total) return resolve();
      const next = start + (sent * 1000) / opts.rate;
      setTimeout(tick, Math.max(0, next - performance.now()));
    };
    tick();
  });
  await Promise.all(pending);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  const latencies = bySecond.flat();
  const at = (p: number) => (latencies.length > 0 ? Math.round(percentile(latencies, p)) : 0);
  return {
    rps: Math.round(latencies.length / elapsed),
    p50: at(50),
    p99: at(99),
    errors,
    non2xx,
    queued,
    timeline: [...bySecond.entries()]
      .filter((e): e is [number, number[]] => e[1] !== undefined)
      .map(([second, ls]) => ({
        second,
        n: ls.length,
        p50: Math.round(percentile(ls, 50)),
        p99: Math.round(percentile(ls, 99)),
        max: Math.round(Math.max(...ls)),
      })),
  };
}
