// A probe for a server under a benchmark: preload it into the API process with
//   BENCH_NODE_ARGS="--import ./bench/lib/gc-probe.mjs" npm run bench -- kyt-transactions
// and it appends one line per second to GC_PROBE_DIR/<pid>.log (default the OS temp directory): the event loop's
// p99 and worst delay, the young-generation collections (count, total pause), the full collections, the young
// generation's size after a collection (what survived), the old generation's size (what was promoted), the young
// generation's committed size and the process's resident set.
// docs/performance.md, "KYT on a slow machine", measured the API's garbage collector with it. Never loaded by the service.
import { monitorEventLoopDelay, PerformanceObserver, constants } from 'node:perf_hooks';
import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';

const file = join(process.env.GC_PROBE_DIR || tmpdir(), `${process.pid}.log`);
const delay = monitorEventLoopDelay({ resolution: 2 });
delay.enable();
const t0 = Date.now();
/** A heap space's used bytes, or another of its statistics (`space_size`: committed). */
const space = (name, stat = 'space_used_size') => v8.getHeapSpaceStatistics().find((s) => s.space_name === name)?.[stat] ?? 0;
const mb = (bytes) => (bytes / 1e6).toFixed(1);
let minor = { n: 0, ms: 0 };
let major = { n: 0, ms: 0 };
let survived = [];

setInterval(() => {
  survived.sort((a, b) => a - b);
  const line = [
    ((Date.now() - t0) / 1000).toFixed(0),
    `eld p99 ${(delay.percentile(99) / 1e6).toFixed(1)} max ${(delay.max / 1e6).toFixed(1)}`,
    `minor ${minor.n} ${minor.ms.toFixed(0)}ms`,
    `major ${major.n} ${major.ms.toFixed(0)}ms`,
    `young-after median ${mb(survived[survived.length >> 1] ?? 0)}MB`,
    `old ${mb(space('old_space'))}MB`,
    `new-committed ${mb(space('new_space', 'space_size'))}MB`,
    `rss ${mb(process.memoryUsage.rss())}MB`,
  ].join(' ');
  appendFileSync(file, `${line}\n`);
  delay.reset();
  minor = { n: 0, ms: 0 };
  major = { n: 0, ms: 0 };
  survived = [];
}, 1000).unref();

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      minor.n++;
      minor.ms += e.duration;
      survived.push(space('new_space'));
    } else {
      major.n++;
      major.ms += e.duration;
    }
  }
}).observe({ entryTypes: ['gc'] });
