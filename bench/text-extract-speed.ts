/**
 * Text extraction (the OCR behind proof of address and Document AI) on generated documents: mean time per document
 * for PNG and JPEG photos of a page and scanned PDFs (no text layer), six seeds each, one shared OCR worker, after
 * one warm-up document.
 *
 *   npm run bench -- text-extract-speed [--root=/path/to/another/checkout] [--out=results.json]
 *
 * `--root` runs another checkout's engine (a `git worktree` of the version before) on the same documents, so two
 * versions can be alternated in one session; `--out` writes every extracted document, to compare two versions' words
 * byte for byte.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const root = arg('root') ?? fileURLToPath(new URL('..', import.meta.url));
const at = (path: string): string => pathToFileURL(`${root}/${path}`).href;

type Format = 'png' | 'jpeg' | 'scanned_pdf';
const { makePoaSample } = (await import(at('test/fixtures/poa/poa-dataset.ts'))) as {
  makePoaSample(seed: number, format: Format): Promise<{ bytes: Buffer; mime: string }>;
};
const { extractText } = (await import(at('src/engines/text/extract-text.ts'))) as {
  extractText(input: Buffer, mime: string | undefined, options: { ocr: unknown }): Promise<unknown>;
};
const { createTesseractOcr } = (await import(at('src/engines/text/ocr.ts'))) as { createTesseractOcr(): { close(): Promise<void> } };

const ocr = createTesseractOcr();
const documents: unknown[] = [];
const means: Record<string, number> = {};
await extractText((await makePoaSample(999, 'png')).bytes, undefined, { ocr });
for (const format of ['png', 'jpeg', 'scanned_pdf'] as const) {
  let total = 0;
  for (let seed = 0; seed < 6; seed++) {
    const sample = await makePoaSample(seed, format);
    const started = performance.now();
    const text = await extractText(sample.bytes, sample.mime, { ocr });
    total += performance.now() - started;
    documents.push({ format, seed, text });
  }
  means[format] = Math.round(total / 6);
}
await ocr.close();
const out = arg('out');
if (out) writeFileSync(out, JSON.stringify(documents));
console.log(`# text extraction, engine at ${root}: mean ms per document`);
for (const [format, ms] of Object.entries(means)) console.log(`${format.padEnd(12)} ${ms}`);
