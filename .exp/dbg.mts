import { readFileSync } from 'node:fs';
import { decodeImage, toGray } from '/work/wt-mrz/src/engines/document/image-input.ts';
import { readMrz } from '/work/wt-mrz/src/engines/document/read-mrz.ts';
import * as rm from '/work/wt-mrz/src/engines/document/read-mrz.ts';
import { MrzOcr } from '/work/wt-mrz/src/engines/document/mrz-ocr.ts';
import { extractBand, findMrzBands } from '/work/wt-mrz/src/engines/document/locate.ts';
const ocr = new MrzOcr(); await ocr.init();
const img = await decodeImage(readFileSync(process.argv[2]!));
const gray = { data: toGray(img.rgb, img.width, img.height), width: img.width, height: img.height };
const bands = await findMrzBands(gray);
console.log(bands.slice(0,3));
for (const flip of [false, true]) {
  const crop = extractBand(gray, bands[0]!, { flip, lineHeightPx: 40 });
  const pp = await ocr.recogniseSecond(crop);
  console.log('PP', flip, pp.text);
  const t = await ocr.recognise(extractBand(gray, bands[0]!, { flip, lineHeightPx: 34 }));
  console.log('T', flip, t.text, t.confidence);
}
await ocr.terminate();
