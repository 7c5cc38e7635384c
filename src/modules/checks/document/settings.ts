import { section, vars, Var, type SectionValue } from '../../../platform/config-schema.js';

export const documentConfig = section(
  vars({
    /** Worker threads running the document engine; each starts two tesseract workers of its own. */
    poolSize: Var.int('DOCUMENT_POOL_SIZE', 1, 1, 16),
    /** Largest decoded upload per side (bytes); the engine's own limit is 15 MB. */
    maxImageBytes: Var.int('DOCUMENT_IMAGE_MAX_BYTES', 15 * 1024 * 1024, 1024, 15 * 1024 * 1024),
    /** Decoded pixel limit per side, read from the header before decoding (decompression bombs). */
    maxPixels: Var.int('DOCUMENT_MAX_PIXELS', 50_000_000, 100_000, 100_000_000),
    /** Time after which the engine starts no further MRZ OCR pass (bounds unreadable images). */
    mrzTimeBudgetMs: Var.int('DOCUMENT_MRZ_TIME_BUDGET_MS', 3000, 200, 30_000),
  }),
);

export type DocumentSettings = SectionValue<typeof documentConfig>;
