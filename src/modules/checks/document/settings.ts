import { envReader } from '../../../config.js';

export interface DocumentSettings {
  /** Worker threads running the document engine; each starts two tesseract workers of its own. */
  poolSize: number;
  /** Largest decoded upload per side (bytes); the engine's own limit is 15 MB. */
  maxImageBytes: number;
  /** Decoded pixel limit per side, read from the header before decoding (decompression bombs). */
  maxPixels: number;
  /** Time after which the engine starts no further MRZ OCR pass (bounds unreadable images). */
  mrzTimeBudgetMs: number;
}

export function loadDocumentSettings(env: NodeJS.ProcessEnv = process.env): DocumentSettings {
  const r = envReader(env);
  const settings = {
    poolSize: r.int('DOCUMENT_POOL_SIZE', 1, 1, 16),
    maxImageBytes: r.int('DOCUMENT_IMAGE_MAX_BYTES', 15 * 1024 * 1024, 1024, 15 * 1024 * 1024),
    maxPixels: r.int('DOCUMENT_MAX_PIXELS', 50_000_000, 100_000, 100_000_000),
    mrzTimeBudgetMs: r.int('DOCUMENT_MRZ_TIME_BUDGET_MS', 3000, 200, 30_000),
  };
  r.throwIfProblems();
  return settings;
}
