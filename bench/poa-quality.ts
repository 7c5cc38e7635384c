/**
 * Proof-of-address quality and latency on labelled synthetic documents (test/fixtures/poa), seeds
 * 0..N-1, which the classifier never saw (it trains on seeds from 100000).
 *
 *   npx tsx bench/poa-quality.ts [--pdf=200] [--ocr=30]
 *
 * Expected verdict per document: `other` → failed; issued more than 90 days before FIXTURE_NOW → failed;
 * otherwise passed. Every fifth document is also checked against a different subject (expect failed).
 */
import { existsSync, readFileSync } from 'node:fs';
import { checkProofOfAddress } from '../src/engines/proof-of-address/check-proof-of-address.js';
import { matchHolderName } from '../src/engines/proof-of-address/name-match.js';
import { createTesseractOcr } from '../src/engines/text/ocr.js';
import { FIXTURE_NOW, makePoaSample, type PoaFormat } from '../test/fixtures/poa/poa-dataset.js';
import { POA_CLASSES } from '../test/fixtures/poa/poa-common.js';
import { argNumber, LATENCY_HEADER, latencyRow, ratio } from './poa-stats.js';

interface Tally {
  n: number;
  cls: number;
  name: number;
  postcode: number;
  country: number;
  date: number;
  verdict: number;
  impostorFailed: number;
  impostors: number;
  latency: number[];
  review: number;
}

const confusion = new Map<string, number>();
const perClass = new Map<string, { n: number; ok: number }>();
const ocr = createTesseractOcr();

async function run(format: PoaFormat, seeds: number[]): Promise<Tally> {
  const t: Tally = {
    n: 0,
    cls: 0,
    name: 0,
    postcode: 0,
    country: 0,
    date: 0,
    verdict: 0,
    impostorFailed: 0,
    impostors: 0,
    latency: [],
    review: 0,
  };
  for (const seed of seeds) {
    const sample = await makePoaSample(seed, format);
    const L = sample.label;
    const r = await checkProofOfAddress(sample.bytes, {
      subjectName: L.subjectName,
      country: L.country,
      now: FIXTURE_NOW,
      mime: sample.mime,
      ocr,
    });
    t.n++;
    t.latency.push(r.timings.totalMs);
    t.cls += r.documentClass === L.documentClass ? 1 : 0;
    const key = `${L.documentClass}→${r.documentClass}`;
    confusion.set(key, (confusion.get(key) ?? 0) + 1);
    const pc = perClass.get(`${format}:${L.documentClass}`) ?? { n: 0, ok: 0 };
    pc.n++;
    pc.ok += r.documentClass === L.documentClass ? 1 : 0;
    perClass.set(`${format}:${L.documentClass}`, pc);
    // OCR may drop diacritics or case; a name counts as read when it matches the printed one.
    t.name += r.fields.name !== null && matchHolderName(r.fields.name, L.holderName).score >= 0.97 ? 1 : 0;
    t.postcode += r.fields.address?.postcode === L.postcode.toUpperCase() ? 1 : 0;
    t.country += r.fields.country === L.country ? 1 : 0;
    t.date += r.fields.issueDate === L.issueDate ? 1 : 0;
    const age = (FIXTURE_NOW.getTime() - Date.parse(`${L.issueDate}T00:00:00Z`)) / 86_400_000;
    const expected = L.documentClass === 'other' || age > 90 ? 'failed' : 'passed';
    t.verdict += r.verdict === expected ? 1 : 0;
    t.review += r.verdict === 'needs_review' ? 1 : 0;
    if (seed % 5 === 0) {
      t.impostors++;
      const imp = await checkProofOfAddress(sample.bytes, {
        subjectName: 'Bartholomew Quinton-Fairweather',
        country: L.country,
        now: FIXTURE_NOW,
        mime: sample.mime,
        ocr,
      });
      t.impostorFailed += imp.verdict === 'failed' ? 1 : 0;
    }
  }
  return t;
}

const pdfN = argNumber('pdf', 200);
const ocrN = argNumber('ocr', 30);
const results: Array<[string, Tally]> = [];
results.push([
  'pdf (text layer)',
  await run(
    'pdf',
    Array.from({ length: pdfN }, (_, i) => i),
  ),
]);
results.push([
  'scanned pdf (OCR)',
  await run(
    'scanned_pdf',
    Array.from({ length: Math.ceil(ocrN / 2) }, (_, i) => 1000 + i),
  ),
]);
results.push([
  'jpeg photo/scan (OCR)',
  await run(
    'jpeg',
    Array.from({ length: Math.floor(ocrN / 2) }, (_, i) => 2000 + i),
  ),
]);
// One real specimen that is not a proof of address (bench only; the service never reads /work/shared).
const licencePath = '/work/shared/data/documents/onfido_samples/sample_driving_licence.png';
let licenceLine = 'specimen driving licence: not available';
if (existsSync(licencePath)) {
  const r = await checkProofOfAddress(readFileSync(licencePath), { subjectName: 'Jane Sample', now: FIXTURE_NOW, ocr });
  licenceLine = `specimen UK driving licence (Onfido sample, OCR): class ${r.documentClass} (${r.confidence}), verdict ${r.verdict}, reasons ${r.reasons.join(', ')}, ${r.timings.totalMs} ms`;
}
await ocr.close();

console.log('| set | n | class | name | postcode | country | issue date | verdict | needs_review | impostor failed |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const [label, t] of results) {
  console.log(
    `| ${label} | ${t.n} | ${ratio(t.cls, t.n)} | ${ratio(t.name, t.n)} | ${ratio(t.postcode, t.n)} | ${ratio(t.country, t.n)} | ${ratio(t.date, t.n)} | ${ratio(t.verdict, t.n)} | ${t.review} | ${ratio(t.impostorFailed, t.impostors)} |`,
  );
}
console.log('\nPer-class classification accuracy');
for (const cls of POA_CLASSES) {
  const cells = ['pdf', 'scanned_pdf', 'jpeg'].map((f) => perClass.get(`${f}:${cls}`)).map((c) => (c ? ratio(c.ok, c.n) : 'n/a'));
  console.log(`| ${cls} | ${cells.join(' | ')} |`);
}
console.log(
  '\nConfusions (true→predicted, errors only):',
  [...confusion.entries()]
    .filter(([k]) => k.split('→')[0] !== k.split('→')[1])
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ') || 'none',
);
console.log(`\n${licenceLine}`);
console.log(`\n${LATENCY_HEADER}`);
for (const [label, t] of results) console.log(latencyRow(`checkProofOfAddress, ${label}`, t.latency));
