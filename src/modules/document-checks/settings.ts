import { ConfigError } from '../../config.js';
import { intSetting } from '../biometrics/settings.js';

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
  const problems: string[] = [];
  const settings = {
    poolSize: intSetting(env, 'DOCUMENT_POOL_SIZE', 1, 1, 16, problems),
    maxImageBytes: intSetting(env, 'DOCUMENT_IMAGE_MAX_BYTES', 15 * 1024 * 1024, 1024, 15 * 1024 * 1024, problems),
    maxPixels: intSetting(env, 'DOCUMENT_MAX_PIXELS', 50_000_000, 100_000, 100_000_000, problems),
    mrzTimeBudgetMs: intSetting(env, 'DOCUMENT_MRZ_TIME_BUDGET_MS', 3000, 200, 30_000, problems),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}
