// The wallet warm-up after a start (issue 15): TRANSFERS (default 1,000,000) transfers of one tenant written
// straight into wallet_transfers, then an app started with WALLETS_PREWARM=true on the same database. While
// it warms, /readyz is asked every 50 ms and the event loop's delay is sampled; every stall over 100 ms is
// listed with the time it began, so a long piece of work can be found. The same sampling over 5 s of an idle
// app on the same data is the same-run baseline (what the machine's load alone does to the event loop).
// Run: npm run bench -- wallets-warm   (WARM_TRANSFERS=200000 for a shorter run; PGlite in memory)
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDb, migrate } from '../src/platform/db.js';
import { MemoryRateLimiter } from '../src/platform/rate-limit.js';
import { createAccount } from '../src/platform/accounts.js';
import { createResources } from '../src/platform/resources.js';
import { READINESS } from '../src/platform/readiness.js';
import { WALLET_INDEXES } from '../src/modules/wallets/indexes.js';
import { percentile } from './lib/stats.js';

const TRANSFERS = Number(process.env.WARM_TRANSFERS ?? 1_000_000);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`load average at start: ${load()} (2 cores shared)`);
const db = await openDb({ dataDir: 'memory://' });
await migrate(db);
const account = await createAccount(db, { name: 'bench' });
let t0 = performance.now();
// 200,000 addresses, amounts 1-13: the shape of bench/wallets-http.ts part 3.
await db.query(
  `INSERT INTO wallet_transfers (account_id, environment, chain, from_address, to_address, amount, import_id)
   SELECT $1, 'production', 'ethereum', '0x' || lpad(to_hex(g % 199999 + 1), 40, '0'), '0x' || lpad(to_hex((g::bigint * 7919) % 199999 + 1), 40, '0'),
          (g % 13 + 1)::text, 'imp_bench' FROM generate_series(1, $2::int) g`,
  [account.id, TRANSFERS],
);
await db.query('ANALYZE wallet_transfers');
console.log(`${TRANSFERS.toLocaleString('en')} transfers written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

/** Samples the event loop while `until` runs: delay histogram, stalls over 100 ms with their start, /readyz probes. */
async function sample(app: Awaited<ReturnType<typeof buildApp>>, until: Promise<unknown>) {
  const eld = monitorEventLoopDelay({ resolution: 10 });
  eld.enable();
  const start = performance.now();
  const stalls: Array<{ at: number; ms: number }> = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > 120) stalls.push({ at: last - start, ms: now - last - 20 });
    last = now;
  }, 20);
  const probes: number[] = [];
  let done = false;
  const probing = (async () => {
    while (!done) {
      const p0 = performance.now();
      await app.inject({ method: 'GET', url: '/readyz' });
      probes.push(performance.now() - p0);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  await until;
  done = true;
  await probing;
  clearInterval(timer);
  eld.disable();
  return {
    ms: performance.now() - start,
    probes,
    p99: eld.percentile(99) / 1e6,
    max: eld.max / 1e6,
    stalls: stalls.sort((a, b) => b.ms - a.ms).slice(0, 8),
  };
}

const report = (label: string, r: Awaited<ReturnType<typeof sample>>) =>
  console.log(
    `${label}: ${(r.ms / 1000).toFixed(1)} s; /readyz answered ${r.probes.length} times, p50 ${percentile(r.probes, 50).toFixed(1)} ms, max ${Math.max(...r.probes).toFixed(1)} ms; event-loop delay p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms; longest stalls ${r.stalls.map((s) => `${s.ms.toFixed(0)} ms at ${(s.at / 1000).toFixed(1)} s`).join(', ') || 'none over 100 ms'} (load ${load()})`,
  );

const config = loadConfig({ NODE_ENV: 'test', MASTER_KEY: '33'.repeat(32), LOG_LEVEL: 'silent', WALLETS_PREWARM: 'true' });
const resources = createResources(config, db);
t0 = performance.now();
const app = await buildApp({ config, db, rateLimiter: new MemoryRateLimiter(), resources });
await app.ready();
console.log(`listening after ${(performance.now() - t0).toFixed(0)} ms`);
const warm = await sample(app, resources.get(READINESS).whenReady());
report(`warm-up of ${TRANSFERS.toLocaleString('en')} transfers (WALLETS_PREWARM=true) until /readyz 200`, warm);
const state = resources.get(WALLET_INDEXES).state();
if (!state.tenants.includes(`${account.id}:production`)) throw new Error('the tenant was not warmed');
const idle = await sample(app, new Promise((r) => setTimeout(r, 5_000)));
report('baseline: the same app idle for 5 s', idle);
await app.close();
await resources.close();
await db.close();
