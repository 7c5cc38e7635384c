// Age estimation against the only ages the shared data implies: specimen documents, whose MRZ gives
// the holder's date of birth and the document's expiry: `npx tsx bench/age-specimens.ts`.
// The photo's date is not in the data. A document is issued with a photo taken shortly before, and is
// valid 5 or 10 years, so the holder's age in the photo lies in [age at (expiry − 11 y), age at
// (expiry − 5 y)]. The bench reports the estimate's distance to that interval (0 inside it) and, as
// point estimates, the error against the age at expiry − 10 y and at expiry − 5 y. Specimens are
// staged: the model's real age need not match the printed birth date. Only MRZs read with every
// check digit valid count, so the dates are the printed ones.
import { readDocument, shutdownDocumentEngine } from '../src/engines/document/read-document.js';
import { createFaceEngine } from '../src/engines/face/face-engine.js';
import { documentImages, fmt } from './face-data.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const engine = createFaceEngine({ poolSize: 2 });
const years = (from: string, to: Date): number => (to.getTime() - new Date(`${from}T00:00:00Z`).getTime()) / (365.2425 * 86400_000);
const minus = (iso: string, y: number): Date => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() - y);
  return d;
};

interface Row {
  file: string;
  type: string;
  estimate: number;
  low: number;
  high: number;
  age10: number;
  age5: number;
  band: [number, number];
}
const rows: Row[] = [];
const skipped = { noMrz: 0, noFace: 0, duplicate: 0, impossible: [] as string[] };
const seen = new Set<string>();
for (const d of documentImages()) {
  const r = await readDocument(d.image, { now: NOW, acceptSpecimens: true });
  const f = r.fields;
  if (!r.mrz?.valid || !f?.birthDate || !f.expiryDate) {
    skipped.noMrz++;
    continue;
  }
  // The same specimen holder in several files (the ICAO Utopia holder comes as 7 captures, on a passport and
  // a card, some with OCR slips in the name, which check digits do not cover) counts once.
  const keys = [`name|${f.surname}|${f.birthDate}`, `number|${f.documentNumber}|${f.birthDate}`];
  if (keys.some((k) => seen.has(k))) {
    skipped.duplicate++;
    continue;
  }
  for (const k of keys) seen.add(k);
  // A birth date after the latest possible photo date is a specimen's invented data, not an age.
  if (years(f.birthDate, minus(f.expiryDate, 5)) <= 0) {
    skipped.impossible.push(`${d.file} (born ${f.birthDate}, expires ${f.expiryDate})`);
    continue;
  }
  const a = await engine.estimateAge(r.portrait ?? d.image, { minimumAge: 18 });
  if (a.age === null) {
    skipped.noFace++;
    continue;
  }
  const age10 = years(f.birthDate, minus(f.expiryDate, 10));
  const age5 = years(f.birthDate, minus(f.expiryDate, 5));
  rows.push({
    file: d.file,
    type: f.documentCode,
    estimate: a.age,
    low: years(f.birthDate, minus(f.expiryDate, 11)),
    high: age5,
    age10,
    age5,
    band: [a.low ?? NaN, a.high ?? NaN],
  });
}
console.log(
  `# Age on specimen document portraits: ${rows.length} holders (MRZ fully valid, a face found); skipped ${skipped.noMrz} without a valid MRZ, ${skipped.duplicate} repeats of a holder, ${skipped.noFace} without a face, ${skipped.impossible.length} with an impossible birth date${skipped.impossible.length ? ` (${skipped.impossible.join('; ')})` : ''}`,
);
console.log('\n| document | code | estimate (band) | age in photo, interval | distance |\n|---|---|---|---|---:|');
const dist = (r: Row) => (r.estimate < r.low ? r.low - r.estimate : r.estimate > r.high ? r.estimate - r.high : 0);
for (const r of rows)
  console.log(
    `| ${r.file} | ${r.type} | ${fmt(r.estimate, 1)} (${fmt(r.band[0], 0)}–${fmt(r.band[1], 0)}) | ${fmt(r.low, 1)}–${fmt(r.high, 1)} | ${fmt(dist(r), 1)} |`,
  );
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? NaN;
};
const inside = rows.filter((r) => dist(r) === 0).length;
const bandHolds = rows.filter((r) => r.band[0] <= r.high && r.band[1] >= r.low).length;
console.log(
  `\nestimate inside the interval: ${inside}/${rows.length}; mean distance to the interval ${fmt(mean(rows.map(dist)), 1)} y (median ${fmt(median(rows.map(dist)), 1)})`,
);
console.log(
  `point MAE against the age at expiry − 10 y: ${fmt(mean(rows.map((r) => Math.abs(r.estimate - r.age10))), 1)} y; at expiry − 5 y: ${fmt(mean(rows.map((r) => Math.abs(r.estimate - r.age5))), 1)} y; best of the two per document: ${fmt(mean(rows.map((r) => Math.min(Math.abs(r.estimate - r.age10), Math.abs(r.estimate - r.age5)))), 1)} y`,
);
console.log(
  `mean signed error against the age at expiry − 10 y: ${fmt(mean(rows.map((r) => r.estimate - r.age10)), 1)} y (positive: the model says older)`,
);
console.log(`the reported uncertainty band overlaps the interval: ${bandHolds}/${rows.length}`);
await engine.close();
await shutdownDocumentEngine();
