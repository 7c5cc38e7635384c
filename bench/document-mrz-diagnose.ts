/**
 * Why set B's MRZs fail (issue #19): per MRZ of the chosen half (MRZ_LINES_PART, default odd; tuned on since 2026-11-25),
 * the document check on the re-stacked band, classified by cause, next to what PP-OCRv4 alone reads on each
 * original line crop (the recogniser's ceiling, without the locator, band cut or vote).
 *
 * Causes, first that applies: no_mrz (nothing located or parsed), wrong_format, shifted (a line read with a
 * character dropped or added: the rest of the line is off by one), misread (same length, some characters
 * wrong; listed by zone: number, dates, nationality, names, fillers, check digits), correct.
 * Names and MRZ text are never printed (some line crops may come from real people's documents).
 *
 * Run: MRZ_LINES_PART=odd npx tsx bench/document-mrz-diagnose.ts   (MRZ_LINES_LIMIT as in document-mrz-real)
 *      MRZ_DIAG_DIRECT=0 skips the direct line-crop reading; MRZ_ENGINE_MODULE= another engine build.
 */
import sharp from 'sharp';
import { pathToFileURL } from 'node:url';
import { PpOcrRecogniser } from '../src/engines/document/mrz-ppocr.js';
import { sharedData, SKIP_NO_DATA } from '../src/providers/lists/fixtures/shared-data.js';
import { setB, stackLines, type LinesPart } from './lib/mrz-real-data.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const PART = (process.env.MRZ_LINES_PART ?? 'odd') as LinesPart;
const LIMIT = Number(process.env.MRZ_LINES_LIMIT ?? 80);
const DIRECT = process.env.MRZ_DIAG_DIRECT !== '0';

/** Zone of a column in an MRZ line (format-aware, coarse). */
function zone(format: string, line: number, col: number, gt: string): string {
  const ch = gt.charAt(col);
  if (format === 'TD1') {
    if (line === 0) return col < 5 ? 'header' : col < 14 ? 'number' : col === 14 ? 'check' : ch === '<' ? 'filler' : 'optional';
    if (line === 1) {
      if (col < 6 || (col >= 8 && col < 14)) return 'dates';
      if (col === 6 || col === 14 || col === 29) return 'check';
      if (col === 7) return 'sex';
      if (col < 18) return 'nationality';
      return ch === '<' ? 'filler' : 'optional';
    }
    return ch === '<' ? 'filler' : 'names';
  }
  if (line === 0) return col < 5 ? 'header' : ch === '<' ? 'filler' : 'names';
  if (col < 9) return 'number';
  if (col === 9 || col === 19 || col === 27 || col >= 42) return 'check';
  if (col < 13) return 'nationality';
  if (col < 19 || (col >= 21 && col < 27)) return 'dates';
  if (col === 20) return 'sex';
  return ch === '<' ? 'filler' : 'optional';
}

function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0] as number;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = d[j] as number;
      d[j] = Math.min((d[j] as number) + 1, (d[j - 1] as number) + 1, prev + (a.charAt(i - 1) === b.charAt(j - 1) ? 0 : 1));
      prev = cur;
    }
  }
  return d[b.length] as number;
}

/** Whether `read` equals `gt` once one character is dropped from or added to one of them (an off-by-one). */
function shiftedByOne(read: string, gt: string): boolean {
  const tail = (a: string, b: string): boolean => {
    // Longest common prefix, then the rest of `a` after skipping one character must match `b`'s rest mostly.
    let i = 0;
    while (i < a.length && a.charAt(i) === b.charAt(i)) i++;
    const restA = a.slice(i + 1);
    const restB = b.slice(i, i + restA.length);
    let same = 0;
    for (let k = 0; k < restA.length; k++) if (restA.charAt(k) === restB.charAt(k)) same++;
    return restA.length >= 4 && same >= 0.8 * restA.length;
  };
  let diff = 0;
  for (let k = 0; k < gt.length; k++) if (read.charAt(k) !== gt.charAt(k)) diff++;
  return diff >= 4 && (tail(read, gt) || tail(gt, read));
}

async function grayOf(file: string): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(file).grayscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

async function main(): Promise<void> {
  const real = sharedData('real', 'mrz');
  if (!real) {
    console.log(SKIP_NO_DATA);
    return;
  }
  const modulePath = process.env.MRZ_ENGINE_MODULE ?? new URL('../src/engines/document/read-document.ts', import.meta.url).pathname;
  const { readDocument, shutdownDocumentEngine } = (await import(
    pathToFileURL(modulePath).href
  )) as typeof import('../src/engines/document/read-document.js');
  const { items } = setB(real, LIMIT, PART);
  const pp = DIRECT ? new PpOcrRecogniser() : null;
  const causes: Record<string, number> = {};
  const zones: Record<string, number> = {};
  let directExact = 0;
  let directLines = 0;
  console.log(`# Set B ${PART} half: failure causes (${items.length} MRZs)`);
  console.log(
    '| # | format | cause | wrong fields | valid | misread zones (read>printed) | PP-OCR alone on the crops: exact lines, edit distance |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const item of items) {
    const r = await readDocument(await stackLines(item.files), { now: NOW, acceptSpecimens: true });
    let direct = '';
    if (pp) {
      const eds: number[] = [];
      for (let i = 0; i < item.files.length; i++) {
        const l = await pp.recogniseLine(await grayOf(item.files[i] as string));
        eds.push(levenshtein(l.text, item.lines[i] ?? ''));
      }
      const exact = eds.filter((e) => e === 0).length;
      directExact += exact;
      directLines += eds.length;
      direct = `${exact}/${eds.length}, ${eds.join('+')}`;
    }
    let cause: string;
    const detail: string[] = [];
    const read = r.mrz?.lines ?? [];
    if (!r.mrz) cause = 'no_mrz';
    else if (r.mrz.format.replace('-', '') !== item.format.replace('-', '') || read.length !== item.lines.length) cause = 'wrong_format';
    else {
      const shifted = item.lines.some((gt, i) => shiftedByOne(read[i] ?? '', gt));
      let diffs = 0;
      item.lines.forEach((gt, i) => {
        const line = read[i] ?? '';
        for (let c = 0; c < gt.length; c++) {
          if (line.charAt(c) === gt.charAt(c)) continue;
          diffs++;
          if (shifted) continue;
          const z = zone(item.format, i, c, gt);
          zones[z] = (zones[z] ?? 0) + 1;
          detail.push(`${z}:${line.charAt(c) || '∅'}>${gt.charAt(c)}`);
        }
      });
      cause = shifted ? 'shifted' : diffs > 0 ? 'misread' : 'correct';
    }
    causes[cause] = (causes[cause] ?? 0) + 1;
    const f = r.fields;
    const wrong: string[] = [];
    if (!f) wrong.push('all');
    else {
      const l = item.label;
      const squash = (s: string): string => s.replace(/[<\s]+/g, ' ').trim();
      if (f.documentNumber.replace(/[<\s]/g, '') !== l.number.replace(/[<\s]/g, '')) wrong.push('number');
      if ((f.birthDate ?? '').slice(2).replace(/-/g, '') !== l.birth) wrong.push('birth');
      if ((f.expiryDate ?? '').slice(2).replace(/-/g, '') !== l.expiry) wrong.push('expiry');
      if (squash(f.surname) !== squash(l.surname)) wrong.push('surname');
      if (squash(f.givenNames) !== squash(l.given)) wrong.push('given');
      if (f.nationality.replace(/</g, '') !== l.nationality.replace(/</g, '')) wrong.push('nationality');
    }
    console.log(
      `| ${item.index} | ${item.format} | ${cause} | ${wrong.join(',') || '-'} | ${r.mrz?.valid ?? '-'} | ${detail.slice(0, 8).join(' ')}${detail.length > 8 ? ' …' : ''} | ${direct} |`,
    );
  }
  console.log(`\ncauses: ${JSON.stringify(causes)}`);
  console.log(`misread characters by zone (not shifted lines): ${JSON.stringify(zones)}`);
  if (pp) console.log(`PP-OCR alone on the original line crops: ${directExact}/${directLines} lines exact`);
  await pp?.terminate();
  await shutdownDocumentEngine();
}

await main();
