import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** Runs autocannon against one endpoint; POST bodies get a fresh Idempotency-Key per request when asked. */
export async function load(
  name: string,
  opts: {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: unknown;
    freshIdempotencyKey?: boolean;
    seconds?: number;
    connections?: number;
  },
): Promise<LoadResult> {
  let n = 0;
  const prefix = `${process.pid}-${Date.now()}-`;
  const result = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    connections: opts.connections ?? 50,
    duration: opts.seconds ?? 10,
    headers: { 'content-type': 'application/json', ...(opts.headers ?? {}) },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    requests: opts.freshIdempotencyKey
      ? [
          {
            setupRequest: (req: autocannon.Request) => ({
              ...req,
              headers: { ...(req.headers ?? {}), 'idempotency-key': `${prefix}${n++}` },
            }),
          },
        ]
      : undefined,
  });
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
  const lines = [
    '| run | req/s | p50 ms | p99 ms | errors | non-2xx |' + (baseline ? ` vs ${baseline.name} |` : ''),
    '|---|---:|---:|---:|---:|---:|' + (baseline ? '---:|' : ''),
  ];
  for (const r of rows)
    lines.push(
      `| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |` +
        (baseline ? ` ${((100 * r.rps) / baseline.rps).toFixed(0)} % |` : ''),
    );
  return lines.join('\n');
}
