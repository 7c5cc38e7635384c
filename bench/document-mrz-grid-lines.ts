/**
 * The fixed-pitch OCR-B cell reader (src/engines/document/mrz-grid.ts) alone against PP-OCRv4 alone on the
 * real MRZ line crops of set B (bench/lib/mrz-real-data.ts; issue #19 item 2): lines read exactly and
 * characters right, per reader, on the crops as they are (no locator, no vote, no corrector). PP-OCR is
 * decoded greedily and under the true line length; the grid is given the true length (it has no other way).
 * Never prints MRZ text (real people's data may be in the crops).
 *
 * Run: npm run bench -- document-mrz-grid-lines      MRZ_LINES_PART=even|odd (default odd: held out)
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { GridReader } from '../src/engines/document/mrz-grid.js';
import { OCRB_NET } from '../src/engines/document/mrz-ocrb-net.js';
import { PpOcrRecogniser } from '../src/engines/document/mrz-ppocr.js';
import { sharedData, SKIP_NO_DATA } from '../src/providers/lists/fixtures/shared-data.js';
import { setB, type LinesPart } from './lib/mrz-real-data.js';

const PART = (process.env.MRZ_LINES_PART ?? 'odd') as LinesPart;

interface Score {
  lines: number;
  exact: number;
  chars: number;
  right: number;
  ms: number;
}
const score = (): Score => ({ lines: 0, exact: 0, chars: 0, right: 0, ms: 0 });
function add(s: Score, truth: string, read: string, ms: number): void {
  s.lines++;
  s.ms += ms;
  if (read === truth) s.exact++;
  for (let c = 0; c < truth.length; c++) {
    s.chars++;
    if (read.charAt(c) === truth.charAt(c)) s.right++;
  }
}

async function main(): Promise<void> {
  const real = sharedData('real', 'mrz');
  if (!real) {
    console.log(SKIP_NO_DATA);
    return;
  }
  const t0 = performance.now();
  const grid = await GridReader.load();
  if (!grid) {
    console.log('OCR-B font not installed (fonts-ocr-b): skipped');
    return;
  }
  console.log(`grid templates rendered in ${Math.round(performance.now() - t0)} ms`);
  const pp = new PpOcrRecogniser();
  await pp.init();
  const ocrb = new PpOcrRecogniser(OCRB_NET);
  await ocrb.init();
  const { items } = setB(real, Number(process.env.MRZ_LINES_LIMIT ?? 80), PART);
  const scores: Record<string, Score> = {
    'PP-OCR greedy': score(),
    'PP-OCR true length': score(),
    grid: score(),
    'OCR-B net greedy': score(),
    'OCR-B net true length': score(),
  };
  for (const item of items)
    for (let i = 0; i < item.files.length; i++) {
      const truth = item.lines[i] ?? '';
      const { data, info } = await sharp(item.files[i]).grayscale().raw().toBuffer({ resolveWithObject: true });
      const img = { data: new Uint8Array(data), width: info.width, height: info.height };
      let t = performance.now();
      const greedy = await pp.recogniseLine(img);
      add(scores['PP-OCR greedy'] as Score, truth, greedy.text, performance.now() - t);
      t = performance.now();
      const fixed = await pp.recogniseLine(img, { length: truth.length });
      add(scores['PP-OCR true length'] as Score, truth, fixed.text, performance.now() - t);
      t = performance.now();
      const net = await ocrb.recogniseLine(img);
      add(scores['OCR-B net greedy'] as Score, truth, net.text, performance.now() - t);
      t = performance.now();
      const netFixed = await ocrb.recogniseLine(img, { length: truth.length });
      add(scores['OCR-B net true length'] as Score, truth, netFixed.text, performance.now() - t);
      // The grid reads at about 48 px of line height, the size its cells were checked at.
      const { data: d48, info: i48 } = await sharp(item.files[i])
        .grayscale()
        .resize({ height: 48 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      t = performance.now();
      const g = grid.readLine({ data: new Uint8Array(d48), width: i48.width, height: i48.height }, truth.length);
      add(scores.grid as Score, truth, g?.text ?? '', performance.now() - t);
    }
  console.log(`\nSet B line crops, ${PART} half (${PART === 'odd' ? 'held out' : 'tuned on'}): ${items.length} MRZs`);
  console.log('| reader | lines exact | characters right | ms per line |');
  console.log('|---|---|---|---|');
  for (const [name, s] of Object.entries(scores))
    console.log(
      `| ${name} | ${s.exact}/${s.lines} | ${s.right}/${s.chars} (${((100 * s.right) / s.chars).toFixed(1)} %) | ${(s.ms / s.lines).toFixed(0)} |`,
    );
  await pp.terminate();
}

await main();
