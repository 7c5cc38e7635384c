import { readFileSync } from 'node:fs';
import { readDocument } from '/work/wt-mrz/src/engines/document/read-document.ts';
import { MrzOcr } from '/work/wt-mrz/src/engines/document/mrz-ocr.ts';
const root = '/work/shared/data/real/';
const second = process.env.SECOND !== '0';
const ocr = new MrzOcr({ secondEngine: second }); await ocr.init({ text: true });
const rows = readFileSync(root + 'mrz/labels.csv', 'utf8').split('\n').slice(1).filter(Boolean);
for (const line of rows) {
  const img = line.split(',')[0]!;
  const r = await readDocument(readFileSync(root + img), { ocr, now: new Date('2026-01-01'), acceptSpecimens: true });
  console.log(img.slice(11, 60).padEnd(50), r.verdict, r.reasons.join('|'), r.mrz?.lines.join(' / ') ?? '-', r.timings.mrz, r.mrz?.fieldConfidence.map(f=>f.field[0]+f.field[1]+':'+f.level[0]).join(' '));
}
await ocr.terminate();
