// What screening the counterparty name costs one POST /v1/transactions (in-process, sequential, no HTTP socket):
// the same transactions posted by a tenant whose rule reads counterparty.bank_country only (no screening) and by a
// tenant running the starter sanctioned_counterparty rule (the name screened against OFAC SDN 2024-05-03 in the
// screening worker): counterparties repeating from a pool of 200 names (memo hits once warm) and every name new
// (a worker round trip each). Wall time per request (p50, p99, mean) and the process's CPU time per request
// (main thread + screening worker). PGlite by default; TEST_DATABASE_URL=postgres://… for PostgreSQL.
// Usage: npx tsx bench/kyt-counterparty-screening.ts (N per phase, default 400). On PostgreSQL the shell needs USER
// (or PGUSER) set when TEST_DATABASE_URL names no user.
import { loadavg } from 'node:os';
import { createTestApp, activateTestList } from '../test/helpers/test-app.js';
import { officialLists, seeded, syntheticName } from './screening-data.js';
import { percentile } from './lib/stats.js';
import { NAME_SCREENINGS } from '../src/modules/checks/index.js';
import { publishRuleSet, testAppTenant } from './lib/kyt-setup.js';

const N = Number(process.env.N ?? 400);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`database: ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; load average at start: ${load()} (2 cores shared)`);

const t = await createTestApp();
const { ofac } = officialLists();
await activateTestList(t, 'ofac_sdn', ofac);
const plain = await testAppTenant(t);
await publishRuleSet(plain.maker, plain.checker, {
  starter: [],
  extra: [['foreign', 'counterparty.bank_country != "" && counterparty.bank_country != "DE"']],
});
const screened = await testAppTenant(t);
await publishRuleSet(screened.maker, screened.checker, { starter: ['sanctioned_counterparty'], extra: [] });

const rnd = seeded(7);
const pool = Array.from({ length: 200 }, () => syntheticName(rnd));
// 1 in 50 of the pool is a listed name (the rule fires and raises an alert for those).
for (let i = 0; i < pool.length; i += 50) pool[i] = ofac[(i * 97) % ofac.length]!.names[0]!.full;
let seq = 0;
async function phase(label: string, o: typeof plain, nameOf: (i: number) => string) {
  const wall: number[] = [];
  let hits = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const s = performance.now();
    const r = await o.maker('POST', '/v1/transactions', {
      reference: `cps_${++seq}`,
      occurred_at: new Date().toISOString(),
      amount: `${100 + (i % 900)}.00`,
      currency: 'EUR',
      direction: 'out',
      subject: { reference: `cus_${i % 100}` },
      counterparty: { name: nameOf(i), bank_country: 'DE' },
    });
    wall.push(performance.now() - s);
    if (r.rules.some((x: { outcome: string }) => x.outcome === 'hit')) hits++;
  }
  const total = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const row = {
    phase: label,
    n: N,
    p50_ms: +percentile(wall, 50).toFixed(2),
    p99_ms: +percentile(wall, 99).toFixed(2),
    mean_ms: +(total / N).toFixed(2),
    cpu_ms_per_tx: +((cpu.user + cpu.system) / 1000 / N).toFixed(2),
    rule_hits: hits,
    load: load(),
  };
  console.log(JSON.stringify(row));
  return row;
}

await phase('warm-up (not counted)', plain, (i) => pool[i % pool.length]!);
await phase('warm-up screened (not counted)', screened, (i) => pool[i % pool.length]!);
const rows = [
  await phase('no screening (rule reads counterparty.bank_country)', plain, (i) => pool[i % pool.length]!),
  await phase('screening, repeat counterparties (200 names, memo warm)', screened, (i) => pool[i % pool.length]!),
  await phase('screening, every counterparty new (memo miss)', screened, (i) => `${syntheticName(rnd)} ${i}`),
  await phase('no screening again (drift check)', plain, (i) => pool[i % pool.length]!),
];
const memo = t.resources.get(NAME_SCREENINGS);
console.log(`memo: ${memo.hits} hits, ${memo.misses} misses, ${memo.size} entries; OFAC SDN entities ${ofac.length}`);
console.log('| phase | p50 ms | p99 ms | mean ms | CPU ms/tx | load |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.phase} | ${r.p50_ms} | ${r.p99_ms} | ${r.mean_ms} | ${r.cpu_ms_per_tx} | ${r.load} |`);
await t.close();
