// What a server under a benchmark allocates, and what of it reaches the old generation. Preload it into the API process:
//   BENCH_NODE_ARGS="--import ./bench/lib/alloc-probe.mjs" ALLOC_PROBE_DIR=/tmp/ap npm run bench -- kyt-transactions
// It runs V8's sampling heap profiler in 10-second windows, alternating: `all` windows keep every sampled object
// (what was allocated), `promoted` windows drop the objects young-generation collections freed (what survived them:
// promoted, pretenured or still alive). Each window is written as ALLOC_PROBE_DIR/<pid>-<n>-<kind>-t<seconds>.json.
// Summarise one by allocating function, or by the first frame in src/:
//   node bench/lib/alloc-probe.mjs summarize FILE [self|src] [rows]
// docs/performance.md, "Pretenuring", found V8's pretenuring with it. Never loaded by the service.
import { Session } from 'node:inspector';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (process.argv[2] === 'summarize') summarize(process.argv[3], process.argv[4] ?? 'self', Number(process.argv[5] ?? 30));
else probe();

function probe() {
  const dir = process.env.ALLOC_PROBE_DIR || tmpdir();
  const session = new Session();
  session.connect();
  const post = (method, params = {}) => new Promise((res, rej) => session.post(method, params, (e, r) => (e ? rej(e) : res(r))));
  const t0 = Date.now();
  let n = 0;
  const window = async () => {
    const promoted = n % 2 === 0;
    await post('HeapProfiler.startSampling', {
      samplingInterval: 8192,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: !promoted,
    });
    setTimeout(async () => {
      const { profile } = await post('HeapProfiler.stopSampling');
      const name = `${process.pid}-${String(n).padStart(3, '0')}-${promoted ? 'promoted' : 'all'}-t${Math.round((Date.now() - t0) / 1000)}.json`;
      writeFileSync(join(dir, name), JSON.stringify(profile));
      n++;
      void window();
    }, 10_000).unref();
  };
  void window();
}

function summarize(file, mode, rows) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map();
  const walk = (node, stack) => {
    nodes.set(node.id, [...stack, node.callFrame]);
    for (const c of node.children ?? []) walk(c, nodes.get(node.id));
  };
  walk(p.head, []);
  const short = (f) =>
    `${f.functionName || '(anonymous)'} ${f.url.replace(/.*node_modules\//, '').replace(/^.*?\/(src|bench)\//, '$1/')}:${f.lineNumber + 1}`;
  const by = new Map();
  let total = 0;
  for (const s of p.samples) {
    total += s.size;
    const frames = (nodes.get(s.nodeId) ?? []).filter((f) => f.functionName !== '(root)');
    if (frames.length === 0) continue;
    const top = frames[frames.length - 1];
    const own = [...frames].reverse().find((f) => f.url.includes('/src/'));
    const key = mode === 'src' ? `${own ? short(own) : '(no src frame)'} <- ${short(top)}` : short(top);
    by.set(key, (by.get(key) ?? 0) + s.size);
  }
  console.log(`${file}: ${(total / 1e6).toFixed(1)} MB sampled`);
  for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, rows))
    console.log(`${((v / total) * 100).toFixed(1).padStart(5)} % ${(v / 1e6).toFixed(2).padStart(8)} MB  ${k}`);
}
