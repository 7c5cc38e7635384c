// Wallet screening through the module (src/modules/wallets) on the embedded database:
//   1. every OFAC address of ../shared/data/crypto screened on its chain through POST /v1/wallets/screen
//      (per-chain files imported as an attribution list; the 2024-05-03 SDN CSV imported as the
//      ofac_sdn list snapshot through the list import path), misses reported with the reason;
//   2. screening latency with the lists loaded (OFAC + 100,000 synthetic attribution entries),
//      in-process (computeWalletScreen) and through HTTP (app.inject), against GET /v1/wallets/policy
//      (auth + one query) as the same-run baseline;
//   3. 2-hop exposure with TRANSFERS (default 1,000,000) imported transfers in the tenant's graph.
// Run: npm run bench -- wallets-http   (or npx tsx bench/wallets-http.ts [TRANSFERS])
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { bech32 } from '@scure/base';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDb, migrate, type Db, type Queryable } from '../src/platform/db.js';
import { MemoryRateLimiter } from '../src/platform/rate-limit.js';
import { createAccount } from '../src/platform/accounts.js';
import { createApiKey } from '../src/platform/api-keys.js';
import { Sealer } from '../src/platform/crypto.js';
import { importListFile } from '../src/modules/checks/screening/list-sync.js';
import { computeWalletScreen } from '../src/modules/wallets/screen-wallet.js';
import { WALLET_INDEXES } from '../src/modules/wallets/indexes.js';
import { createResources } from '../src/platform/resources.js';
import { READINESS } from '../src/platform/readiness.js';
import { walletData } from '../src/modules/wallets/repository.js';
import { CATEGORIES, resolveChainName, screenWallet, type Category } from '../src/engines/wallets/index.js';
import { sharedData } from '../src/providers/lists/fixtures/shared-data.js';
import { percentile } from './lib/stats.js';

const TRANSFERS = Number(process.argv[2] ?? 1_000_000);
const config = loadConfig({ NODE_ENV: 'test', MASTER_KEY: '33'.repeat(32), LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '10000000' });
const db = await openDb({ dataDir: 'memory://' });
await migrate(db);
const resources = createResources(config, db);
const app = await buildApp({ config, db, rateLimiter: new MemoryRateLimiter(), keyCacheTtlMs: 60_000, resources });
const wallets = resources.get(WALLET_INDEXES);
await app.ready();
const sealer = new Sealer(config.masterKey);
const account = await createAccount(db, { name: 'bench' });
const key = (await createApiKey(db, { accountId: account.id, environment: 'production' })).key;
const tenant = { db, accountId: account.id, environment: 'production' as const };
const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(body ? { payload: body as object } : {}) });
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`load average at start: ${load()} (2 cores shared)`);
const stats = (label: string, xs: number[]) => {
  console.log(
    `${label}: n=${xs.length} p50=${percentile(xs, 50).toFixed(3)} ms p99=${percentile(xs, 99).toFixed(3)} ms max=${Math.max(...xs).toFixed(3)} ms`,
  );
  return percentile(xs, 99);
};

let seed = 42;
function rnd(): number {
  let t = (seed = (seed + 0x6d2b79f5) >>> 0);
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
}
const evm = (n: number): string => `0x${n.toString(16).padStart(8, '0')}${'ab'.repeat(16)}`;
const bytes = (): Uint8Array => Uint8Array.from({ length: 20 }, () => Math.floor(rnd() * 256));

// ---- 1. OFAC coverage through the API -------------------------------------------------------------
const dir = sharedData('crypto', 'ofac_sanctioned_addresses');
const csv = sharedData('sanctions', 'ofac_sdn_csv_2024_snapshots', 'sdn_2024-05-03.csv');
const ofacQueries: Array<{ address: string; chain: string }> = [];
if (csv) {
  const r = await importListFile(db, { path: csv, format: 'ofac_csv', source: 'ofac_sdn' });
  console.log(`list snapshot ofac_sdn from sdn_2024-05-03.csv: ${r.ok ? 'active' : r.error}`);
} else console.log('note: ../shared/data/sanctions absent: no ofac_sdn snapshot');
if (dir) {
  const files = readdirSync(dir).filter((f) => /^sanctioned_addresses_[A-Z0-9]+\.txt$/.test(f));
  const lines = ['chain,address,category,entity'];
  for (const f of files) {
    const code = /_([A-Z0-9]+)\.txt$/.exec(f)![1]!;
    for (const a of readFileSync(join(dir, f), 'utf8').split(/\r?\n/)) {
      const address = a.trim();
      if (!address) continue;
      ofacQueries.push({ address, chain: code });
      lines.push(`${code},${address},sanctions,OFAC SDN (0xB10C per-chain file)`);
    }
  }
  const res = await call('POST', '/v1/wallets/attributions/imports', {
    list: 'ofac-0xb10c-2024-09-27',
    content: lines.join('\n'),
    on_error: 'skip',
  });
  const imp = res.json();
  console.log(
    `attribution import of ${files.length} per-chain files (2024-09-27): lines ${imp.lines}, imported ${imp.imported}, rejected ${imp.rejected}${imp.errors
      .map((e: { line: number; message: string }) => `\n  rejected line ${e.line}: ${e.message}`)
      .join('')}`,
  );
  const perChain = new Map<string, { total: number; flagged: number; inSnapshot: number }>();
  const misses: string[] = [];
  for (const q of ofacQueries) {
    const c = perChain.get(q.chain) ?? { total: 0, flagged: 0, inSnapshot: 0 };
    perChain.set(q.chain, c);
    c.total++;
    const res = await call('POST', '/v1/wallets/screen', q);
    if (res.statusCode !== 200) {
      // Screened without the chain OFAC filed it under: is it flagged on the chain it is valid on?
      const inferred = await call('POST', '/v1/wallets/screen', { address: q.address });
      const alt =
        inferred.statusCode === 200
          ? `without the chain: valid on ${inferred.json().chain}, level ${inferred.json().risk.level}`
          : `without the chain: HTTP ${inferred.statusCode} ${inferred.json().error.message}`;
      misses.push(`${q.chain} ${q.address}: HTTP ${res.statusCode} field=${res.json().error.field}: ${res.json().error.message}; ${alt}`);
      continue;
    }
    const body = res.json() as {
      chain: string;
      categories: Array<{ category: string; exposure: string; sources: Array<{ list: string }> }>;
    };
    const hosts = resolveChainName(q.chain).map((h) => h.id);
    const hit = body.categories.find((x) => x.category === 'sanctions' && x.exposure === 'direct');
    if (!hit) misses.push(`${q.chain} ${q.address}: no direct sanctions finding`);
    else if (!hosts.includes(body.chain))
      misses.push(`${q.chain} ${q.address}: flagged but screened on ${body.chain}, not ${hosts.join('/')}`);
    else {
      c.flagged++;
      if (hit.sources.some((s) => s.list === 'ofac_sdn')) c.inSnapshot++;
    }
  }
  const tot = [...perChain.values()].reduce((a, c) => ({ t: a.t + c.total, f: a.f + c.flagged, s: a.s + c.inSnapshot }), {
    t: 0,
    f: 0,
    s: 0,
  });
  console.log(`OFAC per-chain addresses flagged on their chain through POST /v1/wallets/screen: ${tot.f} of ${tot.t}`);
  console.log(
    `  per chain (flagged/total, also in the 2024-05-03 SDN CSV snapshot): ${[...perChain]
      .sort()
      .map(([k, c]) => `${k} ${c.flagged}/${c.total} (${c.inSnapshot})`)
      .join(', ')}`,
  );
  console.log(`  also found in the ofac_sdn list snapshot (SDN CSV 2024-05-03, older than the files): ${tot.s}`);
  for (const m of misses) console.log(`  miss: ${m}`);
} else console.log('note: ../shared/data/crypto absent: coverage part skipped');

// ---- 2. Screening with the lists loaded -------------------------------------------------------------
const NODES = 200_000;
const synthetic: Array<{ address: string; chain: string; category: Category }> = [];
const cats = CATEGORIES.filter((c) => c !== 'sanctions');
for (let i = 0; i < 100_000; i++) {
  const category = cats[i % cats.length] as Category;
  const address =
    i < 2_000 ? evm(Math.floor(rnd() * NODES)) : i < 60_000 ? evm(NODES + i) : bech32.encode('bc', [0, ...bech32.toWords(bytes())]);
  synthetic.push({ chain: i < 60_000 ? 'ETH' : 'XBT', address, category });
}
let t0 = performance.now();
const synth = await call('POST', '/v1/wallets/attributions/imports', {
  list: 'synthetic',
  content: ['chain,address,category,entity', ...synthetic.map((s, i) => `${s.chain},${s.address},${s.category},entity ${i}`)].join('\n'),
});
console.log(`import of 100,000 synthetic attribution lines: HTTP ${synth.statusCode}, ${(performance.now() - t0).toFixed(0)} ms`);
t0 = performance.now();
await computeWalletScreen(tenant, sealer, { address: evm(1) }, wallets);
console.log(`first screening after the imports (loads list snapshot and attribution indexes): ${(performance.now() - t0).toFixed(0)} ms`);

const queries: Array<{ address: string; chain?: string }> = [];
for (let i = 0; i < 3_000; i++) {
  if (i % 3 === 0 && ofacQueries.length) {
    const q = ofacQueries[Math.floor(rnd() * ofacQueries.length)]!;
    if (!/^[0-9a-f]{64}$/.test(q.address)) queries.push(q);
  } else if (i % 3 === 1) queries.push({ address: synthetic[Math.floor(rnd() * synthetic.length)]!.address });
  else queries.push({ address: bech32.encode('bc', [0, ...bech32.toWords(bytes())]), chain: 'bitcoin' });
}
for (const q of queries.slice(0, 200)) await computeWalletScreen(tenant, sealer, q, wallets);
const baseline: number[] = [];
for (let i = 0; i < 500; i++) {
  t0 = performance.now();
  await call('GET', '/v1/wallets/policy');
  baseline.push(performance.now() - t0);
}
const inProc: number[] = [];
for (const q of queries) {
  t0 = performance.now();
  await computeWalletScreen(tenant, sealer, q, wallets);
  inProc.push(performance.now() - t0);
}
// The engine alone on the same indexes (no database query): what the in-process figure costs beyond the two queries.
const cache = wallets;
const indexes = [...(await cache.listIndexes('production')), (await cache.tenant(tenant)).attributions];
const engine: number[] = [];
for (const q of queries) {
  t0 = performance.now();
  screenWallet(q, { indexes });
  engine.push(performance.now() - t0);
}
const http: number[] = [];
for (const q of queries.slice(0, 1000)) {
  t0 = performance.now();
  const r = await call('POST', '/v1/wallets/screen', q);
  http.push(performance.now() - t0);
  if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body}`);
}
const b99 = stats('baseline GET /v1/wallets/policy (auth + one query)', baseline);
stats('screening in-process (parse, list + attribution indexes, block list query, cached policy)', inProc);
stats('engine only on the same indexes (screenWallet, no database)', engine);
const h99 = stats('POST /v1/wallets/screen (+ the billed, audited write)', http);
console.log(`  ratio POST screen p99 / baseline p99: ${(h99 / b99).toFixed(2)}`);

// ---- 3. 2-hop exposure over imported transfers --------------------------------------------------
if (TRANSFERS > 0) {
  const BATCH = 20_000;
  t0 = performance.now();
  for (let i = 0; i < TRANSFERS; i += BATCH) {
    const rows: Parameters<typeof walletData.insertTransfers>[3] = [];
    for (let j = i; j < Math.min(TRANSFERS, i + BATCH); j++) {
      const a = Math.floor(NODES * rnd() ** 2);
      let b = Math.floor(NODES * rnd());
      if (b === a) b = (b + 1) % NODES;
      rows.push({
        chain: 'ethereum',
        asset: null,
        tx_hash: `0x${j.toString(16)}`,
        from: evm(a),
        to: evm(b),
        amount: `${Math.floor(rnd() * 10_000)}.${Math.floor(rnd() * 1e6)}`,
      });
    }
    await db.transaction((tx) => walletData.insertTransfers(tx, tenant, 'wimp_bench', rows));
  }
  console.log(`${TRANSFERS} transfers written to wallet_transfers (the import's write path): ${(performance.now() - t0).toFixed(0)} ms`);
  wallets.invalidateTenant(tenant);
  t0 = performance.now();
  const { graph } = await wallets.tenant(tenant);
  graph.freeze();
  const zero = graph.skipped.length;
  console.log(
    `graph loaded from the database: ${graph.edgeCount} transfers (${zero} skipped as unparseable), ${graph.nodeCount} nodes in ${(performance.now() - t0).toFixed(0)} ms; rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
  );
  for (let i = 0; i < 200; i++) await computeWalletScreen(tenant, sealer, { address: evm(Math.floor(rnd() * NODES)) }, wallets);
  const random: number[] = [];
  const hubs: number[] = [];
  let exposed = 0;
  for (let i = 0; i < 2_100; i++) {
    const n = i < 100 ? i : Math.floor(rnd() * NODES);
    t0 = performance.now();
    const r = await computeWalletScreen(tenant, sealer, { address: evm(n) }, wallets);
    const ms = performance.now() - t0;
    if (i < 100) hubs.push(ms);
    else {
      random.push(ms);
      if (r.categories.some((c) => c.exposure === 'indirect')) exposed++;
    }
  }
  // The engine alone on the same graph and indexes (no database, no cache check): the same-run reference.
  const ixs = [...(await wallets.listIndexes('production')), (await wallets.tenant(tenant)).attributions];
  const engineRandom: number[] = [];
  const engineHubs: number[] = [];
  for (let i = 0; i < 2_100; i++) {
    const n = i < 100 ? i : Math.floor(rnd() * NODES);
    t0 = performance.now();
    screenWallet({ address: evm(n) }, { indexes: ixs, graph });
    (i < 100 ? engineHubs : engineRandom).push(performance.now() - t0);
  }
  stats('engine only (screenWallet, direct + 2 hops), random addresses', engineRandom);
  stats('engine only (screenWallet, direct + 2 hops), the 100 busiest addresses', engineHubs);
  stats('screening with 2-hop exposure in-process, random addresses', random);
  stats('screening with 2-hop exposure in-process, the 100 busiest addresses', hubs);
  console.log(`  addresses with indirect exposure: ${exposed} of ${random.length}`);
  const httpHop: number[] = [];
  for (let i = 0; i < 500; i++) {
    t0 = performance.now();
    await call('POST', '/v1/wallets/screen', { address: evm(Math.floor(rnd() * NODES)) });
    httpHop.push(performance.now() - t0);
  }
  stats('POST /v1/wallets/screen with the graph (direct + 2 hops + write)', httpHop);
}
// ---- 4. First request after a start vs steady state (pre-warm) --------------------------------------
// A restart is simulated by a new app over a new Db handle on the same data (the wallet caches are per
// handle): once with WALLETS_PREWARM=false (indexes built by the first screening), once with the default.
// Auth is warmed first (GET /v1/wallets/policy) so the figures isolate the wallet screening state.
const handle = (): Db => ({
  kind: db.kind,
  hasVector: db.hasVector,
  query: <T>(sql: string, params?: readonly unknown[]) => db.query<T>(sql, params),
  transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction(fn),
  close: async () => undefined,
});
for (const prewarm of ['false', 'true']) {
  const cfg = loadConfig({
    NODE_ENV: 'test',
    MASTER_KEY: '33'.repeat(32),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '10000000',
    WALLETS_PREWARM: prewarm,
  });
  t0 = performance.now();
  const h = handle();
  const res = createResources(cfg, h);
  const a = await buildApp({ config: cfg, db: h, rateLimiter: new MemoryRateLimiter(), keyCacheTtlMs: 60_000, resources: res });
  await a.ready();
  const listenMs = performance.now() - t0;
  // The pre-warm runs in the background: "ready" is when /readyz would answer 200. Meanwhile /readyz is
  // asked every 50 ms (its answer time is what a load balancer sees) and the event loop's delay sampled.
  const eld = monitorEventLoopDelay({ resolution: 10 });
  eld.enable();
  const probes: number[] = [];
  let warm = true;
  const probing = (async () => {
    while (warm) {
      const p0 = performance.now();
      await a.inject({ method: 'GET', url: '/readyz' });
      probes.push(performance.now() - p0);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  await res.get(READINESS).whenReady();
  const readyMs = performance.now() - t0;
  warm = false;
  await probing;
  eld.disable();
  console.log(
    `  while warming (WALLETS_PREWARM=${prewarm}): ${probes.length} /readyz probes answered, p50 ${percentile(probes, 50).toFixed(1)} ms, max ${Math.max(...probes).toFixed(1)} ms; event-loop delay p99 ${(eld.percentile(99) / 1e6).toFixed(1)} ms, max ${(eld.max / 1e6).toFixed(1)} ms`,
  );
  const c = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    a.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(body ? { payload: body as object } : {}) });
  await c('GET', '/v1/wallets/policy');
  t0 = performance.now();
  const first = await c('POST', '/v1/wallets/screen', { address: evm(Math.floor(rnd() * NODES)) });
  const firstMs = performance.now() - t0;
  if (first.statusCode !== 200) throw new Error(`${first.statusCode} ${first.body}`);
  const steady: number[] = [];
  for (let i = 0; i < 300; i++) {
    t0 = performance.now();
    await c('POST', '/v1/wallets/screen', { address: evm(Math.floor(rnd() * NODES)) });
    steady.push(performance.now() - t0);
  }
  const p50 = percentile(steady, 50);
  console.log(
    `restart with WALLETS_PREWARM=${prewarm}: listening after ${listenMs.toFixed(0)} ms, /readyz 200 after ${readyMs.toFixed(0)} ms; first POST /v1/wallets/screen ${firstMs.toFixed(1)} ms; steady p50 ${p50.toFixed(1)} ms p99 ${percentile(steady, 99).toFixed(1)} ms; first/steady p50 = ${(firstMs / p50).toFixed(1)} (load ${load()})`,
  );
  await a.close();
  await res.close();
}
console.log(`load average at end: ${load()}`);
await app.close();
await resources.close();
await db.close();
