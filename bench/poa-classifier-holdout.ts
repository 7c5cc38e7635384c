/**
 * How the proof-of-address classifier generalises to a kind of document it never saw: for each
 * template variant (broadband bills, council tax letters, card statements, payslips, ...), train on all
 * other variants and classify only that variant. Weights are not written; this measures, it does not ship.
 *
 *   npx tsx bench/poa-classifier-holdout.ts [--n=800]
 */
import { extractText } from '../src/engines/text/extract-text.js';
import { groupLines } from '../src/engines/text/lines.js';
import { extractFeatures, FEATURE_NAMES } from '../src/engines/proof-of-address/features.js';
import { logits, trainSoftmax } from '../src/engines/proof-of-address/softmax-regression.js';
import { makePoaSample } from '../test/fixtures/poa/poa-dataset.js';
import { POA_CLASSES } from '../test/fixtures/poa/poa-common.js';
import { argNumber, ratio } from './poa-stats.js';

const n = argNumber('n', 800);
const rows: Array<{ x: number[]; y: number; variant: string }> = [];
for (let i = 0; i < n; i++) {
  const sample = await makePoaSample(200_000 + i, 'pdf');
  const doc = await extractText(sample.bytes, sample.mime);
  rows.push({
    x: extractFeatures(doc.pages.flatMap((p) => groupLines(p.words))),
    y: POA_CLASSES.indexOf(sample.label.documentClass),
    variant: `${sample.label.documentClass}/${sample.label.variant}`,
  });
}
const variants = [...new Set(rows.map((r) => r.variant))].sort();
console.log('| held-out variant | n | accuracy | mistaken for |\n|---|---|---|---|');
let hit = 0;
let total = 0;
for (const v of variants) {
  const train = rows.filter((r) => r.variant !== v);
  const test = rows.filter((r) => r.variant === v);
  const model = trainSoftmax(
    [...POA_CLASSES],
    [...FEATURE_NAMES],
    train.map((r) => r.x),
    train.map((r) => r.y),
    { epochs: 600, learningRate: 0.5, l2: 0.003 },
  );
  const wrong = new Map<string, number>();
  let ok = 0;
  for (const r of test) {
    const l = logits(model, r.x);
    const p = l.indexOf(Math.max(...l));
    if (p === r.y) ok++;
    else wrong.set(POA_CLASSES[p] ?? '?', (wrong.get(POA_CLASSES[p] ?? '?') ?? 0) + 1);
  }
  hit += ok;
  total += test.length;
  console.log(
    `| ${v} | ${test.length} | ${ratio(ok, test.length)} | ${[...wrong.entries()].map(([k, c]) => `${k} ${c}`).join(', ') || '-'} |`,
  );
}
console.log(`\nall held-out documents: ${ratio(hit, total)}`);
