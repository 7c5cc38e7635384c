import { serveWorkerTasks } from '../../../platform/worker-pool.js';
import { createTesseractOcr, type OcrEngine } from '../../../engines/text/index.js';
import { checkProofOfAddress, type PoaOptions, type PoaResult } from '../../../engines/proof-of-address/index.js';
import {
  extractDocumentFields,
  type DocumentAiOptions,
  type DocumentAiResult,
  type FieldSpec,
} from '../../../engines/document-ai/index.js';

/**
 * Worker entry for the text-document checks (proof of address, document AI). Parsing a PDF (pdfjs for
 * text and rendering, pdf-lib and zlib for the tamper analysis) runs here, never on the event loop: an
 * 82 KB flate bomb took 3.6 s in pdfjs alone and 6.5 s for the whole check. The pool bounds each task's
 * time and memory, so such a document costs this thread a bounded stall and the caller a 400. The
 * process's one Tesseract engine lives here too, started on the first scanned page.
 */
export type TextTask =
  | { kind: 'poa'; data: Uint8Array; options: Omit<PoaOptions, 'ocr'> }
  | { kind: 'document_ai'; data: Uint8Array; specs: FieldSpec[]; options: Omit<DocumentAiOptions, 'ocr'> };

export type TextTaskResult = PoaResult | DocumentAiResult;

let ocr: OcrEngine | null = null;
const asBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

serveWorkerTasks<TextTask, TextTaskResult>(async (task) => {
  ocr ??= createTesseractOcr();
  if (task.kind === 'poa') return { result: await checkProofOfAddress(asBuffer(task.data), { ...task.options, ocr }) };
  return { result: await extractDocumentFields(asBuffer(task.data), task.specs, { ...task.options, ocr }) };
});
