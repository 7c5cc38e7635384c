import { serveWorkerTasks } from '../../../platform/worker-pool.js';
import { cropPortrait, readDocument } from '../../../engines/document/read-document.js';
import type { DocumentResult, ReadDocumentOptions } from '../../../engines/document/types.js';

/**
 * Worker entry for the document engine. The engine runs its image operations (MRZ search, quality,
 * tamper) on the calling thread; measured on the main thread they stalled the event loop for
 * up to 0.22–0.26 s per check (bench/checks-http-document.ts), holding up every other request. Here they stall only this worker. The
 * engine's tesseract workers are started inside this thread and end with it.
 */
export type DocumentTask =
  | { kind: 'read'; image: Uint8Array; options: Omit<ReadDocumentOptions, 'ocr'> }
  | { kind: 'portrait'; image: Uint8Array; options: Pick<ReadDocumentOptions, 'limits'> };

export type DocumentTaskResult = DocumentResult | { portrait: Uint8Array | null };

const asBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

serveWorkerTasks<DocumentTask, DocumentTaskResult>(async (task) => {
  if (task.kind === 'portrait') return { result: { portrait: await cropPortrait(asBuffer(task.image), task.options) } };
  return { result: await readDocument(asBuffer(task.image), task.options) };
});
