/**
 * Latency of readDocument after warm-up, on one shared OCR worker, requests one after another.
 * Run: npx tsx bench/document-speed.ts [iterations]
 *      MRZ_THIRD_NET=compare: the default reader, then the two-engine reader (tesseract + PP-OCR, no OCR-B network,
 *      the default before 2026-11-25), in the same run, for a same-run ratio.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { MrzOcr } from '../src/engines/document/mrz-ocr.js';
import { initDocumentEngine, readDocument, shutdownDocumentEngine } from '../src/engines/document/read-document.js';
import { DISTORTIONS, photograph } from '../test/fixtures/documents/photograph.js';
import { renderDocument } from '../test/fixtures/documents/render.js';
import { ANNA, PETER } from '../test/fixtures/documents/specimen-mrz.js';
import { sharedDataDir } from '../test/fixtures/documents/shared-data.js';

const iterations = Number(process.argv[2] ?? 30);
const phone = await photograph(await renderDocument({ kind: 'td3', person: ANNA }), DISTORTIONS.phone_photo ?? {});
const inputs: { name: string; buf: Buffer; viz?: false }[] = [
  { name: 'td3 phone_photo (jpeg)', buf: phone },
  { name: 'td3 phone_photo, visual-zone comparison off', buf: phone, viz: false },
  { name: 'td3 clean render (png 1500x1056)', buf: await renderDocument({ kind: 'td3', person: ANNA }) },
  {
    name: 'td1 rotated photo (png)',
    buf: await photograph(await renderDocument({ kind: 'td1', person: PETER }), DISTORTIONS.rotated_4deg ?? {}),
  },
];
const dataDir = sharedDataDir();
const real = dataDir ? join(dataDir, 'mrz/passporteye_utopia_images/passport-td3.jpg') : null;
if (real && existsSync(real)) inputs.push({ name: 'real: utopia passport-td3.jpg', buf: readFileSync(real) });

const t0 = performance.now();
await initDocumentEngine();
console.log(
  `OCR workers start: ${Math.round(performance.now() - t0)} ms; ${cpus().length} CPUs (shared machine), load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
const q = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] ?? 0;
};
const readers: { name: string; ocr?: MrzOcr }[] = [{ name: 'default reader' }];
if (process.env.MRZ_THIRD_NET === 'compare') {
  const two = new MrzOcr({ thirdNet: null });
  await two.init({ text: true });
  readers.push({ name: 'two engines (no OCR-B network)', ocr: two });
}
for (const reader of readers) {
  const opts = (viz: boolean) => ({ acceptSpecimens: true, compareVisualZone: viz, ...(reader.ocr ? { ocr: reader.ocr } : {}) });
  for (const inp of inputs) for (let i = 0; i < 2; i++) await readDocument(inp.buf, opts(inp.viz ?? true));
  const all: number[] = [];
  console.log(`\n${reader.name}`);
  console.log('| input | n | p50 ms | p99 ms | p50 decode | p50 mrz (locate+OCR) | p50 outline | p50 quality | p50 viz | p50 portrait |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const inp of inputs) {
    const totals: number[] = [];
    const stage: Record<string, number[]> = {};
    for (let i = 0; i < iterations; i++) {
      const r = await readDocument(inp.buf, opts(inp.viz ?? true));
      totals.push(r.timings.total ?? 0);
      for (const [k, v] of Object.entries(r.timings)) (stage[k] ??= []).push(v);
    }
    all.push(...totals);
    const s = (k: string): number => Math.round(q(stage[k] ?? [0], 0.5));
    console.log(
      `| ${inp.name} | ${iterations} | ${Math.round(q(totals, 0.5))} | ${Math.round(q(totals, 0.99))} | ${s('decode')} | ${s('mrz')} | ${s('outline')} | ${s('quality')} | ${s('viz')} | ${s('portrait')} |`,
    );
  }
  console.log(`| **all** | ${all.length} | ${Math.round(q(all, 0.5))} | ${Math.round(q(all, 0.99))} | | | | | | |`);
  await reader.ocr?.terminate();
}
console.log(
  `load average at the end: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
await shutdownDocumentEngine();
