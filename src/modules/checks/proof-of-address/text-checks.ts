import { TextInputError, type TextInputErrorCode } from '../../../engines/text/index.js';
import { DocumentAiInputError, type DocumentAiOptions, type DocumentAiResult, type FieldSpec } from '../../../engines/document-ai/index.js';
import type { PoaOptions, PoaResult } from '../../../engines/proof-of-address/index.js';
import {
  createWorkerPool,
  WorkerCrashedError,
  workerFileUrl,
  type SerializedError,
  type WorkerPool,
  type WorkerPoolStats,
} from '../../../platform/worker-pool.js';
import { defineResource } from '../../../platform/resources.js';
import type { TextTask, TextTaskResult } from './text-worker.js';

/** The text-document checks, run in a worker thread (text-worker.ts): proof of address and document AI. */
export interface TextChecks {
  proofOfAddress(data: Buffer, options: Omit<PoaOptions, 'ocr'>): Promise<PoaResult>;
  documentAi(data: Buffer, specs: FieldSpec[], options: Omit<DocumentAiOptions, 'ocr'>): Promise<DocumentAiResult>;
  /** Tasks run, failed and restarts of the worker (metrics, tests). */
  stats(): WorkerPoolStats;
  close(): Promise<void>;
}

/** A document may take this long (OCR of every scanned page included) before it is refused as too complex. */
export const TEXT_TASK_TIMEOUT_MS = 60_000;

/** The process's text-document worker (`resources.get(TEXT_CHECKS)`), started on first use. */
export const TEXT_CHECKS = defineResource<TextChecks>(
  'text-documents worker',
  () => createTextChecks(),
  (checks) => checks.close(),
);

function createTextChecks(): TextChecks {
  const pool: WorkerPool<TextTask, TextTaskResult> = createWorkerPool({
    file: workerFileUrl(import.meta.url, './text-worker.js'),
    size: 1,
    name: 'text-documents',
    taskTimeoutMs: TEXT_TASK_TIMEOUT_MS,
    // A decompression bomb exhausts this worker's heap, not the process's: the worker is replaced.
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
    reviveError,
  });
  const run = async <T extends TextTaskResult>(task: TextTask): Promise<T> => {
    try {
      return (await pool.run(task)) as T;
    } catch (err) {
      if (err instanceof WorkerCrashedError) {
        throw new TextInputError(
          'unreadable',
          err.code === 'worker_timeout'
            ? `the document could not be processed within ${TEXT_TASK_TIMEOUT_MS / 1000} s (too complex or a decompression bomb)`
            : 'the document could not be processed (it exhausted the memory allowed for one document)',
        );
      }
      throw err;
    }
  };
  return {
    proofOfAddress: (data, options) => run<PoaResult>({ kind: 'poa', data: new Uint8Array(data), options }),
    documentAi: (data, specs, options) => run<DocumentAiResult>({ kind: 'document_ai', data: new Uint8Array(data), specs, options }),
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
}

function reviveError(e: SerializedError): Error {
  if (e.name === 'TextInputError') return new TextInputError((e.code ?? 'unreadable') as TextInputErrorCode, e.message);
  if (e.name === 'DocumentAiInputError') return new DocumentAiInputError(String((e as { field?: unknown }).field ?? 'fields'), e.message);
  const err = new Error(`text-documents worker: ${e.message}`);
  err.name = e.name;
  return err;
}
