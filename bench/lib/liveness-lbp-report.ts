// Reporting and model writing for bench/liveness-lbp.ts.
import { writeFileSync } from 'node:fs';
import type { LbpChannel, LbpScale } from '../../src/engines/face/lbp.js';
import { rateWithInterval as rate } from './stats.js';
import { auc, type LivenessRow } from './liveness-rows.js';

export interface Points {
  pass: number;
  fail: number;
}

/**
 * ISO/IEC 30107-3 figures of scored rows `[row, score, face side]`: passed at or above `p.pass`; failed under the
 * fail point (`failOf(row)` when given, else `p.fail`) on a face of at least `minSide` px, or without a face (score
 * −∞); otherwise review. APCER per attack type (passed), BPCER (not passed; failed apart).
 */
export function report(
  title: string,
  scored: [LivenessRow, number, number][],
  p: Points,
  o: { minSide: number; failOf?: (r: LivenessRow) => number; auc?: boolean },
): void {
  const failed = ([r, s, side]: [LivenessRow, number, number]): boolean =>
    s === -Infinity || (s < (o.failOf ? o.failOf(r) : p.fail) && side >= o.minSide);
  const passed = (e: [LivenessRow, number, number]): boolean => e[1] >= p.pass && !failed(e);
  const live = scored.filter(([r]) => r.live);
  const notPassed = live.filter((e) => !passed(e)).length;
  const liveFailed = live.filter(failed).length;
  console.log(
    `  ${title}: BPCER ${rate(notPassed, live.length)}; failed ${rate(liveFailed, live.length)}, review ${notPassed - liveFailed}`,
  );
  const attacks = scored.filter(([r]) => !r.live);
  for (const a of [...new Set(attacks.map(([r]) => r.attack))]) {
    const of = attacks.filter(([r]) => r.attack === a);
    console.log(`    APCER ${a}: ${rate(of.filter(passed).length, of.length)} (failed ${of.filter(failed).length})`);
  }
  console.log(`    APCER all: ${rate(attacks.filter(passed).length, attacks.length)}`);
  if (o.auc !== false) {
    const withFace = scored.filter(([, s]) => s !== -Infinity);
    console.log(`    AUC (faces found) ${auc(withFace.map(([r, s]) => ({ live: r.live, s }))).toFixed(3)}`);
  }
}

/**
 * Writes the fitted model as JSON: weights on the square-rooted descriptor, intercept shifted so that logit 0 is the
 * pass point, and the fail point as a logit. Not used by the service (docs/face.md, § LBP texture score).
 */
export function writeModelFile(
  path: string,
  model: { mean: number[]; sd: number[]; w: number[]; b: number },
  op: Points,
  about: {
    variant: { name: string; size: number; channels: readonly LbpChannel[]; scales: readonly LbpScale[] };
    lambda: number;
    groups: string[];
    faces: number;
    live: number;
  },
): void {
  const weights = model.w.map((v, j) => Number((v / model.sd[j]!).toPrecision(6)));
  const intercept = model.b - model.w.reduce((s, v, j) => s + (v * model.mean[j]!) / model.sd[j]!, 0) - op.pass;
  const { variant: v } = about;
  const out = {
    about:
      `L2 logistic regression (λ ${about.lambda}, standardised) over the square-rooted ${v.name} descriptor (src/engines/face/lbp.ts), ` +
      `fitted by bench/liveness-lbp.ts on the calibration half of ../shared/data/real/liveness (${about.groups.join(', ')}; ${about.faces} faces, ${about.live} live) on ${new Date().toISOString().slice(0, 10)}. ` +
      'logit = intercept + Σ weights[j]·sqrt(descriptor[j]); pass at logit ≥ 0.',
    licence:
      'Derived from research-licensed data, mostly the NUAA Photograph Imposter Database (research use only; ../shared/data/MANIFEST.md section 9). Do not ship without checking its terms.',
    size: v.size,
    channels: v.channels,
    scales: v.scales,
    lambda: about.lambda,
    intercept,
    failLogit: op.fail - op.pass,
    weights,
  };
  writeFileSync(path, JSON.stringify(out));
}
