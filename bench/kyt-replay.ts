// The backtest replay alone (BacktestReplay: sliding windows + 20 rules, no database), on history shaped like
// bench/kyt-transactions.ts's (1,000 subjects, BENCH_HEAVY heavy subjects holding 10 %, 90 days), fed in pages
// of 5,000 as the worker is. Prints tx/s and tx per CPU second (the figure that survives a loaded machine) per repeat. Usage: BENCH_HISTORY=100000 npx tsx bench/kyt-replay.ts
// (BENCH_CPU_PROF: run with node --cpu-prof for a profile). The first repeat also hashes every evaluated
// transaction's status, score and rule outcomes (sha256, printed), so two versions of the engine can be shown to
// give the same outcomes; later repeats do not hash, so their CPU figures are the replay's alone.
import { createHash } from 'node:crypto';
import { starterRuleSet } from '../src/engines/rules/index.js';
import { ruleOf } from '../test/helpers/rules.js';
import { BacktestReplay, type ReplayRow } from '../src/modules/transactions/backtest-replay.js';

const history = Number(process.env.BENCH_HISTORY ?? 100_000);
const heavyCount = Math.max(1, Number(process.env.BENCH_HEAVY ?? 1));
const repeats = Number(process.env.REPEAT ?? 3);
const DAY = 86_400_000;
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
const rs = starterRuleSet();
rs.rules = rs.rules.map((r) => ({ ...r, status: 'active' }));
const plain: [string, string][] = [
  ['amount_10k', 'tx.amount >= 10000.0'],
  ['amount_50k', 'tx.amount >= 50000.0'],
  ['night', 'tx.hour < 5 && tx.amount > 2000.0'],
  ['crypto', 'tx.type == "crypto" && tx.amount > 1000.0'],
  ['cash_out', 'tx.type == "cash_out" && tx.direction == "out"'],
  ['foreign', 'counterparty.country != "" && counterparty.country != "DE"'],
  ['weekend_big', 'tx.weekday == 0 && tx.amount > 5000.0'],
  ['new_subject', 'subject.relationship_days < 7 && tx.amount > 3000.0'],
  ['channel_atm', 'tx.channel == "atm" && tx.amount > 1000.0'],
];
for (const [key, expression] of plain) rs.rules.push(ruleOf(key, expression, 'active', { severity: 'medium', author: 'bench' }));

const rnd = lcg(42);
const now = Date.UTC(2026, 10, 1);
const rows: ReplayRow[] = [];
for (let i = 0; i < history; i++) {
  const heavy = i % 10 === 0;
  rows.push({
    id: `txn_${String(i).padStart(9, '0')}`,
    reference: `hist_${i}`,
    occurred_at: now - 90 * DAY + Math.floor((i / history) * 89 * DAY),
    amount: (10 + Math.floor(rnd() * 500000) / 100).toFixed(2),
    currency: 'EUR',
    direction: rnd() < 0.5 ? 'in' : 'out',
    type: rnd() < 0.1 ? 'cash' : 'transfer',
    subject: heavy ? `cus_heavy_${(i / 10) % heavyCount}` : `cus_${Math.floor(rnd() * 1000)}`,
    counterparty: `cp_${Math.floor(rnd() * 5000)}`,
    country: rnd() < 0.9 ? 'DE' : 'FR',
    label: null,
  });
}
for (let k = 0; k < repeats; k++) {
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const hash = k === 0 ? createHash('sha256') : null;
  const replay = new BacktestReplay(
    rs,
    { from: new Date(now - 100 * DAY).toISOString(), to: new Date(now + DAY).toISOString(), direction: 'any' },
    hash
      ? (row, e) => {
          let line = `${row.reference} ${e.status} ${e.score}`;
          for (const o of e.outcomes) line += ` ${o.key}:${o.outcome}${o.error ? `:${o.error.code}` : ''}`;
          hash.update(line + '\n');
        }
      : undefined,
  );
  for (let i = 0; i < rows.length; i += 5000) replay.page(rows.slice(i, i + 5000));
  const r = replay.result();
  const s = (performance.now() - started) / 1000;
  const c = process.cpuUsage(cpu0);
  const cpuS = (c.user + c.system) / 1e6;
  console.log(
    `replay ${k + 1}: ${r.evaluated} transactions in ${s.toFixed(2)} s (${Math.round(r.evaluated / s)} tx/s); CPU ${cpuS.toFixed(2)} s (${Math.round(r.evaluated / cpuS)} tx per CPU second), flagged ${r.flagged.count}${hash ? `, outcomes sha256 ${hash.digest('hex').slice(0, 16)}` : ''}`,
  );
}
