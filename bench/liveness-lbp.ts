// Passive liveness from LBP texture (issue #19 item 6): multi-scale uniform LBP histograms of the face crop
// (src/engines/face/lbp.ts) and an L2 logistic regression, fitted on the CALIBRATION half of
// ../shared/data/real/liveness only, reported on the test half and by leave-one-subject-group-out, in
// ISO/IEC 30107-3 terms with 95 % Wilson intervals, next to the fused score (passive-score.ts).
//
// Everything chosen is chosen on the calibration half: the descriptor variant and λ by leave-one-group-out
// inside it (pooled out-of-fold ROC AUC), the pass and fail points on those out-of-fold scores (a model with
// hundreds of weights separates its own training images, so in-sample scores cannot place a threshold).
// Pass point: at most 5 % of the out-of-fold attacks at or above it; fail point: 5 % of the out-of-fold live below.
// The leave-one-group-out estimate repeats the whole recipe (points by an inner leave-one-group-out) with the
// variant and λ chosen on the calibration half. Images without a face count as not passed (the decision fails them).
//
// Face boxes come from `npx tsx bench/liveness-features.ts FEATURES.json` (face models); the crops are re-decoded
// here as the face worker decodes them. Run: npx tsx bench/liveness-lbp.ts FEATURES.json [--model-out=MODEL.json]
// (--model-out writes the calibration-half model: variant, λ, coefficients on the raw features, pass logit 0).
//
// The model is NOT wired into the decision (docs/face.md, § LBP texture score: it separates NUAA prints well but
// does not carry to other capture sources). What the decision would do with it as its pass gate is emulated below.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decodeImage, DEFAULT_IMAGE_LIMITS } from '../src/engines/face/image-input.js';
import { faceCropRgb } from '../src/engines/face/texture.js';
import { lbpDescriptor, LBP_SCALES, type LbpChannel, type LbpScale } from '../src/engines/face/lbp.js';
import { decideLiveness } from '../src/engines/face/liveness-decision.js';
import { PASSIVE_FAIL_MIN_SIDE_PX, passiveFeatures } from '../src/engines/face/passive-score.js';
import type { Box } from '../src/engines/face/types.js';
import { fitLogisticWide } from './lib/logistic.js';
import { half } from './lib/stats.js';
import { auc, fitFusedRecipe, fusedFeatures, rowAnalysis, shippedPassive, type LivenessRow as Row } from './lib/liveness-rows.js';
import { report, writeModelFile, type Points } from './lib/liveness-lbp-report.js';

/** The recipe's fail point is reported on the score (faces of at least this side) but not used by the decision: the
 * LBP score never fails a capture on its own (docs/face.md: it failed genuine photos of other kinds). */
const LBP_FAIL_MIN_SIDE_PX = 128;
const DATA = fileURLToPath(new URL('../../shared/data/', import.meta.url));
const file = process.argv[2];
if (!file) {
  console.log(
    'usage: npx tsx bench/liveness-lbp.ts FEATURES.json [--model-out=MODEL.json] (FEATURES.json from bench/liveness-features.ts)',
  );
  process.exit(1);
}
const rows = JSON.parse(readFileSync(file, 'utf8')) as Row[];

interface Variant {
  name: string;
  channels: LbpChannel[];
  size: number;
  scales: readonly LbpScale[];
}
// Declared before any fit: grey (Määttä et al.), YCbCr (Boulkenafet et al.), HSV + YCbCr at LBP(8,1) only, YCbCr at 128 px.
const VARIANTS: Variant[] = [
  { name: 'grey 64px LBP(8,1)+(8,2)+(16,2)', channels: ['grey'], size: 64, scales: LBP_SCALES },
  { name: 'YCbCr 64px LBP(8,1)+(8,2)+(16,2)', channels: ['y', 'cb', 'cr'], size: 64, scales: LBP_SCALES },
  { name: 'HSV+YCbCr 64px LBP(8,1)', channels: ['h', 's', 'v', 'y', 'cb', 'cr'], size: 64, scales: [LBP_SCALES[0]!] },
  { name: 'YCbCr 128px LBP(8,1)+(8,2)+(16,2)', channels: ['y', 'cb', 'cr'], size: 128, scales: LBP_SCALES },
];
const LAMBDAS = [1, 10, 100, 1000];

// Descriptors: square-rooted histograms (the Hellinger map, so a linear model compares them sensibly) per variant.
const desc = new Map<Row, Float32Array[]>();
const timing: [number, number, number][][] = VARIANTS.map(() => []);
for (const r of rows.filter((r) => r.face)) {
  const decoded = await decodeImage(readFileSync(`${DATA}${r.file}`), DEFAULT_IMAGE_LIMITS);
  const box = r.face!.box.map((v) => v / decoded.info.scale) as Box;
  const out: Float32Array[] = [];
  for (const v of VARIANTS) {
    const t0 = performance.now();
    const crop = await faceCropRgb(decoded.rgb, decoded.width, decoded.height, box, v.size);
    const t1 = performance.now();
    const cpu = process.cpuUsage();
    out.push(lbpDescriptor(crop, v.size, v.channels, v.scales).map(Math.sqrt));
    const used = process.cpuUsage(cpu);
    timing[out.length - 1]!.push([t1 - t0, performance.now() - t1, (used.user + used.system) / 1000]);
  }
  desc.set(r, out);
}
const ms = (xs: number[], p: number): string => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]!.toFixed(1);
console.log(
  `# Passive liveness, LBP texture: ${rows.length} images, ${desc.size} with a face; crop (sharp) and descriptor per face, p50 / p95 ms wall (shared machine), descriptor CPU ms in brackets:`,
);
VARIANTS.forEach((v, i) => {
  const [c, d, u] = [0, 1, 2].map((k) => timing[i]!.map((x) => x[k]!));
  console.log(
    `  ${v.name}: ${desc.values().next().value![i]!.length} values; crop ${ms(c!, 0.5)} / ${ms(c!, 0.95)}, descriptor ${ms(d!, 0.5)} / ${ms(d!, 0.95)} (CPU ${ms(u!, 0.5)} / ${ms(u!, 0.95)})`,
  );
});

const liveness = rows.filter((r) => r.set === 'liveness');
const photos = rows.filter((r) => r.set === 'photos' && r.face);
const cal = liveness.filter((r) => half(r.group) === 0);
const test = liveness.filter((r) => half(r.group) === 1);
const groupsOf = (rs: Row[]): string[] => [...new Set(rs.map((r) => r.group))];
console.log(`  calibration ${cal.length} images (${groupsOf(cal).join(', ')}); test ${test.length} (${groupsOf(test).join(', ')})`);
const side = (r: Row): number => (r.face ? (passiveFeatures(rowAnalysis(r).faces[0]!, r.image).sidePx ?? 0) : 0);

type Model = ReturnType<typeof fitLogisticWide>;
const logit = (m: Model, x: Float32Array): number => m.b + m.w.reduce((s, w, j) => s + (w * (x[j]! - m.mean[j]!)) / m.sd[j]!, 0);
/** A row's logit under `m` (variant vi); no face: −∞ (the decision fails it). */
const scoreOf = (m: Model, vi: number, r: Row): number => (r.face ? logit(m, desc.get(r)![vi]!) : -Infinity);
const fit = (train: Row[], vi: number, lambda: number): Model => {
  const tr = train.filter((r) => r.face);
  return fitLogisticWide(
    tr.map((r) => desc.get(r)![vi]!),
    tr.map((r) => (r.live ? 1 : 0)),
    lambda,
    { maxIterations: 3000 },
  );
};
/** Out-of-fold logits by leave-one-group-out inside `set` (rows with a face). */
function outOfFold(set: Row[], vi: number, lambda: number): Map<Row, number> {
  const s = new Map<Row, number>();
  for (const g of groupsOf(set)) {
    const m = fit(
      set.filter((r) => r.group !== g),
      vi,
      lambda,
    );
    for (const r of set.filter((r) => r.group === g && r.face)) s.set(r, scoreOf(m, vi, r));
  }
  return s;
}
/** The recipe's operating points on (out-of-fold) logits: pass at ≤ 5 % of attacks, fail under 5 % of live. */
function points(scores: Map<Row, number>): Points {
  const e = [...scores];
  const attacks = e
    .filter(([r]) => !r.live)
    .map(([, s]) => s)
    .sort((a, b) => b - a);
  const live = e
    .filter(([r]) => r.live)
    .map(([, s]) => s)
    .sort((a, b) => a - b);
  const pass = attacks[Math.floor(0.05 * attacks.length)]! + 1e-6;
  return { pass, fail: Math.min(live[Math.floor(0.05 * live.length)]!, pass) };
}

console.log('\n## Choice on the calibration half (leave-one-group-out inside it, 5 groups): pooled out-of-fold AUC');
let best = { vi: 0, lambda: LAMBDAS[0]!, auc: -1 };
const configs: { vi: number; lambda: number; oof: Map<Row, number> }[] = [];
for (const [vi, v] of VARIANTS.entries())
  for (const lambda of LAMBDAS) {
    const oof = outOfFold(cal, vi, lambda);
    configs.push({ vi, lambda, oof });
    const a = auc([...oof].map(([r, s]) => ({ live: r.live, s })));
    console.log(`  ${v.name}, λ ${lambda}: AUC ${a.toFixed(3)}`);
    if (a > best.auc) best = { vi, lambda, auc: a };
  }
const chosen = VARIANTS[best.vi]!;
console.log(`  chosen: ${chosen.name}, λ ${best.lambda}`);

const calOof = configs.find((c) => c.vi === best.vi && c.lambda === best.lambda)!.oof;
const op = points(calOof);
const model = fit(cal, best.vi, best.lambda);
const score = (r: Row, m = model): number => scoreOf(m, best.vi, r);
const withSide = (set: Row[], s: (r: Row) => number): [Row, number, number][] => set.map((r) => [r, s(r), side(r)]);

console.log(`\n## LBP score alone, fitted on the calibration half: pass logit ${op.pass.toFixed(3)}, fail logit ${op.fail.toFixed(3)}`);
console.log(`   ("failed": under the recipe's fail point on a face of ≥ ${LBP_FAIL_MIN_SIDE_PX} px; reported, NOT used by the decision)`);
report('calibration half, in-sample (fitted on it: optimistic)', withSide(cal, score), op, { minSide: LBP_FAIL_MIN_SIDE_PX });
report(
  'calibration half, out-of-fold (where the points were set)',
  withSide(cal, (r) => calOof.get(r) ?? -Infinity),
  op,
  { minSide: LBP_FAIL_MIN_SIDE_PX },
);
report('TEST half', withSide(test, score), op, { minSide: LBP_FAIL_MIN_SIDE_PX });

console.log('\n## Fused passive score as shipped (passive-score.ts, fitted on the calibration half; score only: 0.5 pass, failBelow)');
const fusedLogit = (r: Row): number => (r.face ? shippedPassive(r).logit : -Infinity);
report('calibration half (fitted on it)', withSide(cal, fusedLogit), shippedPassive.points, { minSide: PASSIVE_FAIL_MIN_SIDE_PX });
report('TEST half', withSide(test, fusedLogit), shippedPassive.points, { minSide: PASSIVE_FAIL_MIN_SIDE_PX });

console.log(
  `\n## Leave-one-subject-group-out, ${groupsOf(liveness).length} groups, score only (no model floors): each group scored by the recipe refitted on the others`,
);
// LBP: its recipe (points by an inner leave-one-group-out), the variant and λ chosen on the calibration half. Scores
// are centred on each fold's pass point, so one pair of points (0, fold fail − fold pass) applies.
const lbpLogo = new Map<Row, { s: number; fail: number }>();
const fusedLogo = new Map<Row, { s: number; fail: number }>();
for (const g of groupsOf(liveness)) {
  const train = liveness.filter((r) => r.group !== g);
  const p = points(outOfFold(train, best.vi, best.lambda));
  const m = fit(train, best.vi, best.lambda);
  const f = fitFusedRecipe(train);
  const fLogit = (r: Row): number => {
    const [a, b] = fusedFeatures(r);
    return r.face ? f.intercept + f.sharpness * a! + f.moire * b! : -Infinity;
  };
  for (const r of liveness.filter((r) => r.group === g)) {
    lbpLogo.set(r, { s: score(r, m) - p.pass, fail: p.fail - p.pass });
    fusedLogo.set(r, { s: fLogit(r), fail: Math.log(f.failBelow / (1 - f.failBelow)) });
  }
}
// Each fold has its own fail point (relative to its pass point 0).
const logoReport = (title: string, m: Map<Row, { s: number; fail: number }>, minSide: number): void =>
  report(
    title,
    liveness.map((r) => [r, m.get(r)!.s, side(r)]),
    { pass: 0, fail: 0 },
    { minSide, failOf: (r) => m.get(r)!.fail },
  );
logoReport(`LBP (${chosen.name}, λ ${best.lambda})`, lbpLogo, LBP_FAIL_MIN_SIDE_PX);
logoReport('fused score (sharpness + moiré, its recipe: points in-sample)', fusedLogo, PASSIVE_FAIL_MIN_SIDE_PX);
// The decision as wired, score only: the LBP score is the pass gate; a capture fails on a low fused score (face ≥
// PASSIVE_FAIL_MIN_SIDE_PX) or without a face.
{
  const live = liveness.filter((r) => r.live);
  const passed = (r: Row): boolean => r.face !== null && lbpLogo.get(r)!.s >= 0 && !fails(r);
  const fails = (r: Row): boolean => !r.face || (fusedLogo.get(r)!.s < fusedLogo.get(r)!.fail && side(r) >= PASSIVE_FAIL_MIN_SIDE_PX);
  const notPassed = live.filter((r) => !passed(r)).length;
  const failed = live.filter(fails).length;
  const attacks = liveness.filter((r) => !r.live);
  console.log(
    `  LBP gate + the fused score's fail point: BPCER ${notPassed}/${live.length} (failed ${failed}); APCER ${attacks.filter(passed).length}/${attacks.length}` +
      ` (print_photo ${attacks.filter((r) => r.attack === 'print_photo' && passed(r)).length}/${attacks.filter((r) => r.attack === 'print_photo').length})`,
  );
}

console.log(
  '\n## The decision (decideLiveness: model floors, moiré, face quality), as shipped (fused score decides) and with the LBP score as its pass gate (emulated)',
);
/** The calibration-half LBP logit of a row, 0 at its pass point. */
const lbp = (r: Row): number => score(r) - op.pass;
/**
 * The decision with the LBP score as pass gate, as it was wired and measured: the shipped fails stand (floors, the
 * fused score's fail point, burst); otherwise passed only if the LBP logit is at its pass point and nothing else
 * doubts (the decision with the fused score's pass point at 0, i.e. without it); else review. The LBP score never
 * fails alone (it scored genuine photos of other sources very low).
 */
const decided = (r: Row, gate: boolean): string => {
  const shipped = decideLiveness([rowAnalysis(r)]).verdict;
  if (!gate || shipped === 'failed' || !r.face) return shipped;
  return lbp(r) >= 0 ? decideLiveness([rowAnalysis(r)], { threshold: 0 }).verdict : 'needs_review';
};
for (const [title, set] of [
  ['calibration half', cal],
  ['TEST half', test],
] as const)
  for (const gate of [false, true]) {
    const v = set.map((r): [Row, number, number] => {
      const d = decided(r, gate);
      return [r, d === 'passed' ? 1 : d === 'failed' ? -1 : 0, 0];
    });
    report(`${title}, ${gate ? 'LBP gate' : 'shipped'}`, v, { pass: 1, fail: 0 }, { minSide: 0, auc: false });
  }

console.log(
  '\n## Captures other than NUAA (phone photos, SDK samples), one by one: half, label, decision shipped → with the LBP gate, LBP logit (0 = pass point)',
);
for (const r of liveness.filter((r) => !r.group.startsWith('nuaa_')))
  console.log(
    `  ${r.file.split('/').pop()} (${half(r.group) ? 'test' : 'calibration'}, ${r.live ? 'live' : r.attack}): ${decided(r, false)} → ${decided(r, true)}, ${r.face ? lbp(r).toFixed(2) : 'no face'}`,
  );

{
  const other = liveness.filter((r) => !r.group.startsWith('nuaa_') && r.face).map((r) => ({ live: r.live, s: lbp(r) }));
  const passedOther = other.filter((x) => x.s >= 0).length;
  console.log(
    `  non-NUAA captures with a face: AUC ${auc(other).toFixed(3)} (${other.filter((x) => x.live).length} live, ${other.filter((x) => !x.live).length} attacks); at or above the pass point ${passedOther}/${other.length}`,
  );
}

console.log('\n## Genuine single-face photos (not live captures; never fitted on): the decision shipped and with the LBP gate');
for (const src of [...new Set(photos.map((r) => r.source))]) {
  const of = photos.filter((r) => r.source === src);
  const count = (gate: boolean): string => {
    const d = of.map((r) => decided(r, gate));
    return `passed ${d.filter((v) => v === 'passed').length}, review ${d.filter((v) => v === 'needs_review').length}, failed ${d.filter((v) => v === 'failed').length}`;
  };
  const lbpFail = of.filter((r) => lbp(r) < op.fail - op.pass);
  console.log(
    `  ${src} (${of.length}): shipped ${count(false)}; LBP gate ${count(true)}; LBP score under the recipe's fail point ${lbpFail.length} (faces ≥ ${LBP_FAIL_MIN_SIDE_PX} px: ${lbpFail.filter((r) => side(r) >= LBP_FAIL_MIN_SIDE_PX).length})`,
  );
}

console.log(
  '\n## Sensitivity (NOT used for any choice): every variant and λ, fitted on the calibration half, its out-of-fold points; test half, and leave-one-group-out AUC (13 fits, pooled logits)',
);
for (const c of configs) {
  const m = fit(cal, c.vi, c.lambda);
  const p = points(c.oof);
  const t = test.filter((r) => r.face).map((r) => ({ live: r.live, s: scoreOf(m, c.vi, r) }));
  const lo: { live: boolean; s: number }[] = [];
  for (const g of groupsOf(liveness)) {
    const mg = fit(
      liveness.filter((r) => r.group !== g),
      c.vi,
      c.lambda,
    );
    for (const r of liveness.filter((r) => r.group === g && r.face)) lo.push({ live: r.live, s: scoreOf(mg, c.vi, r) });
  }
  const live = t.filter((x) => x.live);
  const att = t.filter((x) => !x.live);
  console.log(
    `  ${VARIANTS[c.vi]!.name}, λ ${c.lambda}: test AUC ${auc(t).toFixed(3)}, BPCER ${live.filter((x) => x.s < p.pass).length}/${live.length}, APCER ${att.filter((x) => x.s >= p.pass).length}/${att.length}; leave-one-group-out AUC ${auc(lo).toFixed(3)}`,
  );
}
{
  const f = test.filter((r) => r.face).map((r) => ({ live: r.live, s: shippedPassive(r).logit }));
  const lo = liveness.filter((r) => r.face).map((r) => ({ live: r.live, s: fusedLogo.get(r)!.s }));
  console.log(`  fused score (for comparison): test AUC ${auc(f).toFixed(3)}; leave-one-group-out AUC ${auc(lo).toFixed(3)}`);
}

const modelOut = process.argv.find((a) => a.startsWith('--model-out='))?.slice('--model-out='.length);
if (modelOut) {
  writeModelFile(modelOut, model, op, {
    variant: chosen,
    lambda: best.lambda,
    groups: groupsOf(cal),
    faces: cal.filter((r) => r.face).length,
    live: cal.filter((r) => r.face && r.live).length,
  });
  console.log(`\nmodel written to ${modelOut}`);
}
