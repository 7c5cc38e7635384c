import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { PpOcrRecogniser } from '/work/wt-mrz/src/engines/document/mrz-ppocr.ts';
const root = '/work/shared/data/real/';
const rows = readFileSync(root + 'mrz/lines/labels.csv', 'utf8').split('\n').slice(1).filter(Boolean).map(l => l.split(','));
const r = new PpOcrRecogniser();
let n = 0, exact = 0, cerN = 0, cerD = 0; const t0 = performance.now();
for (const row of rows) {
  if (row[10] !== 'true') continue;
  if (n >= 60) break; n++;
  const { data, info } = await sharp(root + row[0]).grayscale().raw().toBuffer({ resolveWithObject: true });
  const res = await r.recogniseLine({ data: new Uint8Array(data), width: info.width, height: info.height });
  const gt = row[4]!;
  if (res.text === gt) exact++;
  // edit distance
  const a = res.text, b = gt; const d = Array.from({length: a.length+1}, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1] + (a[i-1]===b[j-1]?0:1));
  cerN += d[a.length][b.length]; cerD += b.length;
  if (res.text !== gt && n < 25) console.log(gt + '\n' + res.text + '  ' + res.chars.filter(c=>c.p<0.9).map(c=>c.ch+'/'+c.alt+':'+c.p.toFixed(2)).join(' '));
}
console.log({ n, exact, cer: cerN / cerD, ms: (performance.now() - t0) / n });
