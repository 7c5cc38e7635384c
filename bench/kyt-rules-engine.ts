// KYT rule engine alone: evaluations per second for the starter rules plus 9 simple ones (22 since the starter
// set has 13), aggregates given (no database).
// Data: 10,000 synthetic contexts generated here (seeded), cycled; figures are per full evaluate() call
// (context normalisation, CEL conversion, every rule, values_used) and for the CEL calls alone.
import { seeded } from './lib/random.js';
import { percentile } from './lib/stats.js';
import { compileRuleSet, evaluate, starterRuleSet, type Rule, type RuleContextInput } from '../src/engines/rules/index.js';

const base = starterRuleSet();
const extra: [string, string][] = [
  ['big_amount', 'tx.amount >= 15000.0'],
  ['night_cash', 'tx.type == "cash" && (tx.hour < 6 || tx.hour >= 23)'],
  ['velocity_1h', 'agg.out_count_1h >= 5'],
  ['high_risk_subject', 'subject.risk_band == "high" && tx.amount >= 1000.0'],
  ['kyc_not_approved', 'subject.kyc_decision != "approved"'],
  ['young_relationship_big', 'subject.relationship_days < 30 && tx.amount >= 3000.0'],
  ['wallet_risky', 'wallet.screened && (wallet.risk == "high" || wallet.categories.exists(c, c == "mixer"))'],
  ['ip_or_wallet_blocked', 'lists.ip_blocked || lists.wallet_blocked'],
  ['crypto_cross_border', 'tx.type == "crypto" && counterparty.country != "" && counterparty.country != subject.country'],
];
const rules: Rule[] = [
  ...base.rules.map((r) => ({ ...r, status: 'active' as const })),
  ...extra.map(([key, expression], i) => ({
    id: `rul_x${i}`,
    key,
    version: 1,
    name: key,
    description: key,
    expression,
    score: 10,
    severity: 'low' as const,
    typologies: [],
    status: 'active' as const,
    author: 'bench',
  })),
];
const aggregates = [
  ...base.aggregates,
  { key: 'out_count_1h', fn: 'count' as const, window: '1h', group_by: 'subject' as const, direction: 'out' as const },
];
const t0 = performance.now();
const c = compileRuleSet({ ...base, rules, aggregates });
const compileMs = performance.now() - t0;
if (!c.ok) throw new Error(JSON.stringify(c.errors));
const compiled = c.compiled;
const R = compiled.rules.length;
if (R !== rules.length) throw new Error(`expected ${rules.length} rules, got ${R}`);

const rnd = seeded(42);
const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
const money = (max: number) => (rnd() * max).toFixed(2);
const contexts: RuleContextInput[] = Array.from({ length: 10_000 }, () => {
  const agg: Record<string, number | string | null> = {};
  for (const a of aggregates)
    agg[a.key] = a.fn === 'count' || a.fn === 'count_distinct' ? Math.floor(rnd() * 6) : rnd() < 0.1 ? null : money(20000);
  return {
    tx: {
      amount: money(20000),
      currency: 'EUR',
      occurred_at: Date.UTC(2024, 0, 1) + Math.floor(rnd() * 3e10),
      direction: pick(['in', 'out']),
      type: pick(['card', 'sepa', 'cash', 'crypto', 'transfer', 'cash_out']),
      counterparty: `c${Math.floor(rnd() * 100)}`,
    },
    subject: {
      type: pick(['individual', 'business']),
      kyc_decision: pick(['approved', 'approved', 'review']),
      risk_band: pick(['low', 'medium', 'high']),
      country: 'DE',
      relationship_days: Math.floor(rnd() * 2000),
    },
    counterparty: {
      reference: 'c1',
      country: pick(['DE', 'FR', 'IR', '']),
      screening: { status: pick(['clear', 'clear', 'hit']), score: rnd() },
    },
    wallet: { screened: rnd() < 0.2, risk: pick(['low', 'high']), categories: rnd() < 0.1 ? ['mixer'] : [] },
    lists: { ip_blocked: rnd() < 0.01 },
    agg,
  };
});

function run(n: number): { perEval: number[]; hits: number; errors: number } {
  const perEval: number[] = [];
  let hits = 0;
  let errors = 0;
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    const e = evaluate(compiled, contexts[i % contexts.length]!);
    perEval.push(performance.now() - s);
    for (const o of e.outcomes) o.outcome === 'hit' ? hits++ : o.outcome === 'error' ? errors++ : 0;
  }
  return { perEval, hits, errors };
}
run(20_000); // warm-up
const N = 100_000;
const wall = performance.now();
const { perEval, hits, errors } = run(N);
const wallMs = performance.now() - wall;
const us = perEval.map((x) => x * 1000);

// CEL alone, on prepared contexts: isolates the expression engine from our context building.
const { normalizeContext, toCelContext } = await import('../src/engines/rules/context.js');
const prepared = contexts.map((x) => toCelContext(compiled.environment, normalizeContext(x, aggregates)));
const celStart = performance.now();
let celHits = 0;
for (let i = 0; i < N; i++) {
  const ctx = prepared[i % prepared.length]!;
  for (const r of compiled.rules) {
    try {
      if (r.expression.run(ctx) === true) celHits++;
    } catch {
      /* counted above */
    }
  }
}
const celUs = ((performance.now() - celStart) * 1000) / N;

console.log(
  `KYT rule engine bench (synthetic contexts, seeded; ${R} active rules: ${base.rules.length} starter typologies + ${extra.length} simple rules; aggregates given)`,
);
console.log(
  `node ${process.version}; compile ${R} rules + ${aggregates.length} aggregates: ${compileMs.toFixed(1)} ms (includes environment build)`,
);
console.log(
  `evaluate(): ${N.toLocaleString()} evaluations in ${wallMs.toFixed(0)} ms → ${Math.round((N / wallMs) * 1000).toLocaleString()} evaluations/s`,
);
console.log(
  `  per evaluation µs: mean ${(us.reduce((a, b) => a + b, 0) / N).toFixed(1)}  p50 ${percentile(us, 50).toFixed(1)}  p99 ${percentile(us, 99).toFixed(1)}  max ${Math.max(...us).toFixed(0)}`,
);
console.log(
  `  rule hits ${hits.toLocaleString()}, rule errors ${errors.toLocaleString()} (over ${(N * R).toLocaleString()} rule evaluations)`,
);
console.log(`CEL calls alone (${R} rules, prepared context): ${celUs.toFixed(1)} µs per transaction; hits ${celHits.toLocaleString()}`);
