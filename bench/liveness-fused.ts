// Passive liveness calibration and report on real captures (issue #19): fits the fused passive score
// (src/engines/face/passive-score.ts) on the calibration half of ../shared/data/real/liveness and reports the
// shipped decision (decideLiveness) in ISO/IEC 30107-3 terms on both halves: APCER per attack type (attacks
// `passed`) and BPCER (bona fide not `passed`; how many `failed` is given apart), 95 % Wilson intervals.
// Subject groups are split by the FNV-1a hash of the group name (as bench/liveness-real-quality.ts): no
// subject in both halves. A leave-one-group-out run of the same fitting recipe gives a second estimate.
// The signals come from `npx tsx bench/liveness-features.ts FEATURES.json` (face models, slow; this is not).
//
// Run: npx tsx bench/liveness-fused.ts FEATURES.json
import { readFileSync } from 'node:fs';
import { decideLiveness } from '../src/engines/face/liveness-decision.js';
import { PASSIVE_LIVENESS_MODEL } from '../src/engines/face/passive-score.js';
import { half, rateWithInterval } from './lib/stats.js';
import { fitFusedRecipe, fusedFeatures, rowAnalysis, type LivenessRow } from './lib/liveness-rows.js';

type Row = LivenessRow;
const file = process.argv[2];
if (!file) {
  console.log('usage: npx tsx bench/liveness-fused.ts FEATURES.json (from bench/liveness-features.ts)');
  process.exit(1);
}
const rows: Row[] = JSON.parse(readFileSync(file, 'utf8')) as Row[];

const rate = rateWithInterval;
const q = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))] ?? NaN;
const spread = (xs: number[]): string => [0.05, 0.25, 0.5, 0.75, 0.95].map((p) => q(xs, p).toFixed(2)).join(' / ');

const analysis = rowAnalysis;
const x = fusedFeatures;

const liveness = rows.filter((r) => r.set === 'liveness');
const photos = rows.filter((r) => r.set === 'photos');
const cal = liveness.filter((r) => half(r.group) === 0);
const test = liveness.filter((r) => half(r.group) === 1);
const groups = (rs: Row[]): string => [...new Set(rs.map((r) => r.group))].join(', ');
console.log(
  `# Passive liveness, fused score: ${liveness.length} images; calibration ${cal.length} (${groups(cal)}); test ${test.length} (${groups(test)})`,
);

console.log('\n## Signals on the calibration half (live vs attacks, p5/p25/p50/p75/p95)');
for (const [name, pick] of [
  ['antispoof', (r: Row) => r.face!.antispoof ?? NaN],
  ['liveness model', (r: Row) => r.face!.liveness ?? NaN],
  ['sharpness (raw)', (r: Row) => r.face!.texture!.sharpness],
  ['sharpness feature (scale-normalised ln)', (r: Row) => x(r)[0]!],
  ['moiré peak ratio', (r: Row) => r.face!.texture!.moirePeakRatio],
  ['glare share', (r: Row) => r.face!.texture!.glareShare],
  ['high-frequency share', (r: Row) => r.face!.texture!.highFrequencyShare],
] as const) {
  const withFace = cal.filter((r) => r.face);
  console.log(
    `  ${name}: live ${spread(withFace.filter((r) => r.live).map(pick))}; attacks ${spread(withFace.filter((r) => !r.live).map(pick))}`,
  );
}
const why = new Map<string, number>();
for (const r of cal.filter((r) => r.live)) {
  const k = `${r.shipped.verdict} (${r.shipped.failed.join(' + ') || 'no failed signal'})`;
  why.set(k, (why.get(k) ?? 0) + 1);
}
console.log(`  genuine captures under the decision the features were dumped with: ${[...why].map(([k, n]) => `${n} ${k}`).join('; ')}`);

const fit = fitFusedRecipe;
const fitted = fit(cal);
console.log(
  `\n## Fitted on the calibration half: intercept ${fitted.intercept.toFixed(4)}, sharpness ${fitted.sharpness.toFixed(4)}, moire ${fitted.moire.toFixed(4)}, failBelow ${fitted.failBelow.toFixed(4)}`,
);
console.log(
  `   in code (passive-score.ts): intercept ${PASSIVE_LIVENESS_MODEL.intercept}, sharpness ${PASSIVE_LIVENESS_MODEL.sharpness}, moire ${PASSIVE_LIVENESS_MODEL.moire}, failBelow ${PASSIVE_LIVENESS_MODEL.failBelow}`,
);

function report(title: string, set: Row[]): void {
  const v = set.map((r) => ({ r, d: decideLiveness([analysis(r)]) }));
  const live = v.filter((e) => e.r.live);
  const notPassed = live.filter((e) => e.d.verdict !== 'passed').length;
  const failed = live.filter((e) => e.d.verdict === 'failed').length;
  console.log(
    `  ${title}: BPCER ${rate(notPassed, live.length)}; of them failed ${rate(failed, live.length)}, review ${notPassed - failed}`,
  );
  const attacks = v.filter((e) => !e.r.live);
  for (const a of [...new Set(attacks.map((e) => e.r.attack))]) {
    const of = attacks.filter((e) => e.r.attack === a);
    console.log(
      `    APCER ${a}: ${rate(of.filter((e) => e.d.verdict === 'passed').length, of.length)} (failed ${of.filter((e) => e.d.verdict === 'failed').length})`,
    );
  }
  console.log(`    APCER all attacks: ${rate(attacks.filter((e) => e.d.verdict === 'passed').length, attacks.length)}`);
}
console.log('\n## Shipped decision (decideLiveness, defaults)');
report('calibration half (TUNED on it)', cal);
report('test half', test);

console.log(
  '\n## Leave-one-subject-group-out (the fitting recipe, score only, no model floors): each group scored by a fit on the 12 others',
);
let lp = 0;
let lf = 0;
let nl = 0;
const perAttack = new Map<string, [number, number]>();
for (const g of new Set(liveness.map((r) => r.group))) {
  const m = fit(liveness.filter((r) => r.group !== g));
  for (const r of liveness.filter((r) => r.group === g)) {
    const f = x(r);
    const s = r.face ? 1 / (1 + Math.exp(-(m.intercept + m.sharpness * f[0]! + m.moire * f[1]!))) : 0;
    if (r.live) {
      nl++;
      if (s < 0.5) lp++;
      if (s < m.failBelow) lf++;
    } else {
      const [k, n] = perAttack.get(r.attack) ?? [0, 0];
      perAttack.set(r.attack, [k + (s >= 0.5 ? 1 : 0), n + 1]);
    }
  }
}
console.log(`  BPCER ${rate(lp, nl)}; failed ${rate(lf, nl)}`);
for (const [a, [k, n]] of perAttack) console.log(`    APCER ${a}: ${rate(k, n)}`);
const all = [...perAttack.values()].reduce((s, [k, n]) => [s[0] + k, s[1] + n], [0, 0]);
console.log(`    APCER all: ${rate(all[0], all[1])}`);

console.log('\n## Genuine single-face photos (not live captures; never fitted on): shipped decision');
for (const src of [...new Set(photos.map((r) => r.source))]) {
  const of = photos.filter((r) => r.source === src);
  const d = of.map((r) => decideLiveness([analysis(r)]));
  const moireFailed = d.filter((e) => e.signals.some((s) => s.name === 'screen_moire_strong' && s.passed === false)).length;
  const moireDoubt = d.filter((e) =>
    e.signals.some((s) => s.name === 'screen_moire_peak_ratio' && s.passed !== true && s.value !== null),
  ).length;
  const before = of.filter((r) => r.shipped.failed.includes('screen_moire_peak_ratio')).length;
  const beforeFailed = of.filter((r) => r.shipped.verdict === 'failed').length;
  console.log(
    `  ${src} (${of.length}): passed ${d.filter((e) => e.verdict === 'passed').length}, review ${d.filter((e) => e.verdict === 'needs_review').length}, failed ${d.filter((e) => e.verdict === 'failed').length} (before ${beforeFailed}); failed on moiré ${moireFailed} (before ${before}), moiré above the review threshold ${moireDoubt}`,
  );
}
