import { envReader } from '../../../config.js';

export interface FaceSettings {
  /** Worker threads of the shared face engine; each holds its own models (~230 MB RSS). */
  poolSize: number;
  /** Largest decoded upload per image field (bytes). The engine's own limit is 15 MB. */
  maxImageBytes: number;
  /** How many tenants' in-process face indexes the face-index worker keeps. */
  indexCacheTenants: number;
  /**
   * Search with pgvector's HNSW index where the database has it, instead of the in-process index.
   * Off by default: on the bench's 100,000 faces HNSW (m 16, ef_search 400) found 20 of 29 faces at or
   * above the threshold, the in-process index all 29, and faster (docs/face.md).
   */
  searchWithPgvector: boolean;
  /** Preload the most recently enrolled tenants' in-process indexes in the background when the process starts. */
  warmIndexes: boolean;
}

/** Validated when the module registers, so a bad value stops start-up instead of the first check. */
export function loadFaceSettings(env: NodeJS.ProcessEnv = process.env): FaceSettings {
  const r = envReader(env);
  const settings = {
    // One worker by default: a 2-core box also serves HTTP, the database and the OCR threads.
    poolSize: r.int('FACE_POOL_SIZE', 1, 1, 16),
    maxImageBytes: r.int('FACE_IMAGE_MAX_BYTES', 15 * 1024 * 1024, 1024, 15 * 1024 * 1024),
    indexCacheTenants: r.int('FACE_INDEX_CACHE_TENANTS', 32, 1, 10_000),
    searchWithPgvector: r.bool('FACE_SEARCH_PGVECTOR', false),
    warmIndexes: r.bool('FACE_INDEX_WARM', true),
  };
  r.throwIfProblems();
  return settings;
}
