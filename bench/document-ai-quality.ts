/**
 * Document-AI quality and latency on generated invoices with known fields and known edits
 * (test/fixtures/poa/invoice-fixture.ts, tamper.ts).
 *
 *   npx tsx bench/document-ai-quality.ts [--pdf=60] [--ocr=12] [--tamper=30]
 */
import { extractDocumentFields } from '../src/engines/document-ai/extract-document-fields.js';
import { analyseImageTampering } from '../src/engines/document-ai/tamper-image.js';
import { analysePdfTampering } from '../src/engines/document-ai/tamper-pdf.js';
import type { FieldSpec } from '../src/engines/document-ai/field-spec.js';
import type { Signal } from '../src/engines/signal.js';
import { createTesseractOcr } from '../src/engines/text/ocr.js';
import { makeInvoice, type InvoiceTruth } from '../test/fixtures/poa/invoice-fixture.js';
import { layoutToImage, layoutToPdf } from '../test/fixtures/poa/layout.js';
import { SeededRandom } from '../test/fixtures/poa/seeded-random.js';
import {
  appendInfoUpdate,
  appendSignature,
  appendTextEdit,
  pasteTextIntoJpeg,
  resaveJpeg,
  withSoftwareTag,
} from '../test/fixtures/poa/tamper.js';
import { argNumber, LATENCY_HEADER, latencyRow, ratio } from './poa-stats.js';

const SPECS: FieldSpec[] = [
  { name: 'invoice_number', anchor: 'Invoice number' },
  { name: 'invoice_date', anchor: 'Invoice date', type: 'date' },
  { name: 'total', anchor: 'Total due', type: 'amount' },
  { name: 'iban', type: 'iban' },
  { name: 'email', type: 'email' },
  { name: 'phone', anchor: 'Phone', type: 'phone' },
  { name: 'reference', pattern: 'Reference (INV-\\d+)' },
  { name: 'customer', region: { page: 1, x: 0.05, y: 0.15, w: 0.4, h: 0.06 } },
];

function expected(truth: InvoiceTruth): Record<string, (v: unknown) => boolean> {
  return {
    invoice_number: (v) => v === truth.invoiceNumber,
    invoice_date: (v) => v === truth.invoiceDateIso,
    total: (v) => v === truth.totalValue,
    iban: (v) => v === truth.ibanNormalized,
    email: (v) => v === truth.email,
    phone: (v) => v === truth.phoneE164,
    reference: (v) => v === truth.invoiceNumber,
    customer: (v) => typeof v === 'string' && v.includes(truth.customer),
  };
}

const ocr = createTesseractOcr();
const fieldHits = new Map<string, { pdf: number; ocr: number }>();
const latency = { pdf: [] as number[], ocr: [] as number[], pdfTamper: [] as number[], imageTamper: [] as number[] };
const pdfN = argNumber('pdf', 60);
const ocrN = argNumber('ocr', 12);
const tamperN = argNumber('tamper', 30);

for (let i = 0; i < pdfN + ocrN; i++) {
  const asImage = i >= pdfN;
  const { layout, truth } = makeInvoice(i);
  const bytes = asImage
    ? await layoutToImage(layout, { scale: 2.2, format: 'jpeg', jpegQuality: 80, noise: 12, rotate: i % 2 ? 0.6 : 0 }, new SeededRandom(i))
    : await layoutToPdf(layout);
  const r = await extractDocumentFields(bytes, SPECS, { ocr });
  (asImage ? latency.ocr : latency.pdf).push(r.timings.totalMs);
  const check = expected(truth);
  for (const f of r.fields) {
    const h = fieldHits.get(f.name) ?? { pdf: 0, ocr: 0 };
    if (check[f.name]?.(f.normalized)) h[asImage ? 'ocr' : 'pdf']++;
    fieldHits.set(f.name, h);
  }
}
await ocr.close();

type Case = { kind: string; tampered: boolean; run: (seed: number) => Promise<Signal[]> };
const flagged = (s: Signal[]) => s.filter((x) => x.passed === false).map((x) => x.name);
const timed = async (bucket: number[], f: () => Promise<Signal[]>) => {
  const t0 = performance.now();
  const s = await f();
  bucket.push(performance.now() - t0);
  return s;
};
const pdfOf = async (seed: number) => {
  const { layout, truth } = makeInvoice(10_000 + seed);
  return { pdf: await layoutToPdf(layout), truth, layout };
};
const jpegOf = async (seed: number, q: number) => {
  const { layout, truth } = makeInvoice(20_000 + seed);
  return { jpeg: await layoutToImage(layout, { scale: 2, format: 'jpeg', jpegQuality: q, noise: 10 }, new SeededRandom(seed)), truth };
};
const edit = (t: InvoiceTruth) => ({ ...t.totalBox, text: 'EUR 10.00', coverWidth: 130 });
const patch = (t: InvoiceTruth) => ({ x: t.totalBox.x * 2, y: t.totalBox.y * 2 - 4, w: 220, h: 34, text: 'EUR 10.00', fontPx: 24 });
const CASES: Case[] = [
  { kind: 'pdf clean', tampered: false, run: async (s) => timed(latency.pdfTamper, async () => analysePdfTampering((await pdfOf(s)).pdf)) },
  {
    kind: 'pdf signed (benign update)',
    tampered: false,
    run: async (s) => analysePdfTampering(await appendSignature((await pdfOf(s)).pdf)),
  },
  {
    kind: 'pdf amount edited (incremental update)',
    tampered: true,
    run: async (s) => {
      const d = await pdfOf(s);
      return analysePdfTampering(await appendTextEdit(d.pdf, edit(d.truth)));
    },
  },
  {
    kind: 'pdf edited after signing',
    tampered: true,
    run: async (s) => {
      const d = await pdfOf(s);
      return analysePdfTampering(await appendTextEdit(await appendSignature(d.pdf), edit(d.truth)));
    },
  },
  {
    kind: 'pdf metadata rewritten by editor',
    tampered: true,
    run: async (s) =>
      analysePdfTampering(await appendInfoUpdate((await pdfOf(s)).pdf, { producer: 'Sejda PDF Editor', modDate: 'D:20260901000000Z' })),
  },
  {
    kind: 'pdf re-saved 40+ days after creation',
    tampered: true,
    run: async (s) => {
      const { layout } = makeInvoice(10_000 + s);
      return analysePdfTampering(
        await layoutToPdf(layout, { creationDate: new Date('2026-01-01T00:00:00Z'), modDate: new Date(Date.UTC(2026, 1, 10 + (s % 20))) }),
      );
    },
  },
  {
    kind: 'jpeg clean',
    tampered: false,
    run: async (s) => timed(latency.imageTamper, async () => analyseImageTampering((await jpegOf(s, 70 + (s % 4) * 5)).jpeg, 'image/jpeg')),
  },
  {
    kind: 'jpeg re-saved at higher quality (benign)',
    tampered: false,
    run: async (s) => analyseImageTampering(await resaveJpeg((await jpegOf(s, 70 + (s % 4) * 5)).jpeg, 92), 'image/jpeg'),
  },
  {
    kind: 'jpeg EXIF Software = editor',
    tampered: true,
    run: async (s) =>
      analyseImageTampering(
        await withSoftwareTag((await jpegOf(s, 80)).jpeg, s % 2 ? 'Adobe Photoshop 25.0 (Windows)' : 'GIMP 2.10.36'),
        'image/jpeg',
      ),
  },
  {
    kind: 'jpeg amount pasted, saved at higher quality',
    tampered: true,
    run: async (s) => {
      const d = await jpegOf(s, 70 + (s % 4) * 5);
      return analyseImageTampering(await pasteTextIntoJpeg(d.jpeg, patch(d.truth), 92), 'image/jpeg');
    },
  },
  {
    kind: 'jpeg amount pasted, saved at same quality',
    tampered: true,
    run: async (s) => {
      const d = await jpegOf(s, 80);
      return analyseImageTampering(await pasteTextIntoJpeg(d.jpeg, patch(d.truth), 80), 'image/jpeg');
    },
  },
];

console.log('Field extraction (normalised value equals ground truth)\n| field | PDF text layer | JPEG via OCR |\n|---|---|---|');
for (const [name, h] of fieldHits) console.log(`| ${name} | ${ratio(h.pdf, pdfN)} | ${ratio(h.ocr, ocrN)} |`);

console.log(
  '\nTampering (a case counts as flagged when any tamper signal failed)\n| case | expected | flagged | signals that fired |\n|---|---|---|---|',
);
for (const c of CASES) {
  let hits = 0;
  const fired = new Map<string, number>();
  for (let s = 0; s < tamperN; s++) {
    const f = flagged(await c.run(s));
    if (f.length) hits++;
    for (const n of f) fired.set(n, (fired.get(n) ?? 0) + 1);
  }
  console.log(
    `| ${c.kind} | ${c.tampered ? 'tampered' : 'genuine'} | ${ratio(hits, tamperN)} | ${[...fired.entries()].map(([k, v]) => `${k} ${v}`).join(', ') || '-'} |`,
  );
}
console.log(`\n${LATENCY_HEADER}`);
console.log(latencyRow('extractDocumentFields, PDF (8 fields + tamper)', latency.pdf));
console.log(latencyRow('extractDocumentFields, JPEG via OCR (8 fields + tamper)', latency.ocr));
console.log(latencyRow('analysePdfTampering alone', latency.pdfTamper));
console.log(latencyRow('analyseImageTampering alone (JPEG ghosts)', latency.imageTamper));
