import { DocumentInputError, type DocumentInputErrorCode } from '../../../engines/document/image-input.js';
import type { DocumentResult, ReadDocumentOptions } from '../../../engines/document/types.js';
import { createWorkerPool, workerFileUrl, type SerializedError, type WorkerPool } from '../../../platform/worker-pool.js';
import { defineResource } from '../../../platform/resources.js';
import type { DocumentTask, DocumentTaskResult } from './document-worker.js';

/**
 * The document engine behind a worker-thread pool, one per process, shared by the document check,
 * face-match's portrait crop, capture's quality gate and the session pipeline. Closing the pool ends
 * the tesseract workers started inside it.
 */
export interface DocumentReader {
  read(image: Buffer, options: Omit<ReadDocumentOptions, 'ocr'>): Promise<DocumentResult>;
  cropPortrait(image: Buffer, options?: Pick<ReadDocumentOptions, 'limits'>): Promise<Buffer | null>;
  close(): Promise<void>;
}

/** The process's document reader (`resources.get(DOCUMENT_READER)`), started on first use. */
export const DOCUMENT_READER = defineResource<DocumentReader>(
  'document reader',
  (r) => createDocumentReader(r.config.checks.document.poolSize),
  (reader) => reader.close(),
);

function createDocumentReader(size: number): DocumentReader {
  const pool: WorkerPool<DocumentTask, DocumentTaskResult> = createWorkerPool({
    file: workerFileUrl(import.meta.url, './document-worker.js'),
    size,
    name: 'document',
    // The engine bounds its own OCR passes (mrzTimeBudgetMs); this only catches a hung worker.
    taskTimeoutMs: 60_000,
    reviveError,
  });
  // The image is copied, not transferred: the caller keeps its Buffer to store as media.
  const copy = (b: Buffer) => new Uint8Array(b);
  return {
    async read(image, options) {
      const r = (await pool.run({ kind: 'read', image: copy(image), options })) as DocumentResult;
      // Buffers arrive as plain Uint8Arrays after the structured clone.
      return { ...r, portrait: r.portrait ? Buffer.from(r.portrait) : null };
    },
    async cropPortrait(image, options = {}) {
      const r = (await pool.run({ kind: 'portrait', image: copy(image), options })) as { portrait: Uint8Array | null };
      return r.portrait ? Buffer.from(r.portrait) : null;
    },
    close: () => pool.close(),
  };
}

function reviveError(e: SerializedError): Error {
  if (e.name === 'DocumentInputError') return new DocumentInputError((e.code ?? 'image_corrupt') as DocumentInputErrorCode, e.message);
  const err = new Error(`document worker: ${e.message}`);
  err.name = e.name;
  return err;
}
