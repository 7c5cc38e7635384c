import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { test } from 'node:test';
import { pacedLoad } from '../../bench/lib/paced.js';

// The benchmarks' open-loop load generator: requests spread over each second, latency counted from each
// request's due time. Only lower bounds are asserted (a slower machine can only raise them), never timings.

async function server(delayMs: number, arrivals: number[], bodies: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const s: Server = createServer((req, res) => {
    arrivals.push(performance.now());
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(`${req.headers['idempotency-key'] ?? ''} ${body}`);
      setTimeout(() => res.writeHead(201, { 'content-type': 'application/json' }).end('{}'), delayMs);
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/x`, close: () => new Promise((r) => s.close(() => r())) };
}

test('paced load: every request is sent once, spread over the run (not one burst per second), each with its own body and key', async () => {
  const arrivals: number[] = [];
  const bodies: string[] = [];
  const s = await server(0, arrivals, bodies);
  try {
    // 40 requests at 50/s: due over 780 ms. A per-second burst would send them all within a few milliseconds.
    const r = await pacedLoad({ url: s.url, method: 'POST', rate: 50, seconds: 0.8, bodyOf: (i) => ({ i }), freshIdempotencyKey: true });
    assert.equal(arrivals.length, 40);
    assert.equal(r.errors, 0);
    assert.equal(r.non2xx, 0);
    assert.ok(arrivals[39]! - arrivals[0]! >= 500, `the 40 requests arrived within ${Math.round(arrivals[39]! - arrivals[0]!)} ms`);
    assert.equal(new Set(bodies).size, 40);
    assert.ok(bodies.some((b) => b.endsWith(' {"i":39}')));
  } finally {
    await s.close();
  }
});

test('paced load: a server slower than the rate shows as latency from the due time (no coordinated omission)', async () => {
  const s = await server(30, [], []);
  try {
    // One connection, 30 ms per request, a request due every 10 ms: request n waits about 20·n ms for its turn.
    // A closed-loop generator would report ~30 ms for each; timed from their due times the last ones waited ~1 s.
    const r = await pacedLoad({ url: s.url, rate: 100, seconds: 0.5, connections: 1 });
    assert.equal(r.errors, 0);
    assert.ok(r.p99 >= 900, `p99 ${r.p99} ms`);
    assert.ok(r.p50 >= 400, `p50 ${r.p50} ms`);
    assert.ok(r.queued > 0);
  } finally {
    await s.close();
  }
});

test('paced load: the timeline counts each request in the second it was due, with the latencies of that second', async () => {
  const s = await server(0, [], []);
  try {
    // 50 requests at 20/s: due in seconds 0 (20), 1 (20) and 2 (10).
    const r = await pacedLoad({ url: s.url, rate: 20, seconds: 2.5 });
    assert.deepEqual(
      r.timeline.map((x) => [x.second, x.n]),
      [
        [0, 20],
        [1, 20],
        [2, 10],
      ],
    );
    for (const x of r.timeline) assert.ok(x.p50 <= x.p99 && x.p99 <= x.max, JSON.stringify(x));
  } finally {
    await s.close();
  }
});

test('paced load: a server falling behind shows in the later seconds of the timeline', async () => {
  const s = await server(30, [], []);
  try {
    // One connection, 30 ms per request, one due every 20 ms: the queue (and each second's latency) grows.
    const r = await pacedLoad({ url: s.url, rate: 50, seconds: 2, connections: 1 });
    assert.equal(r.timeline.length, 2);
    assert.ok(r.timeline[1]!.p50 > r.timeline[0]!.p50 + 200, JSON.stringify(r.timeline));
  } finally {
    await s.close();
  }
});
