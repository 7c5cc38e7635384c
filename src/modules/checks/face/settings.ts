import { section, vars, Var, type SectionValue } from '../../../platform/config-schema.js';

/** Validated at start with the whole configuration, so a bad value stops start-up instead of the first check. */
export const faceConfig = section(
  vars({
    /** Worker threads of the shared face engine; each holds its own models (~230 MB RSS). One by default: a 2-core box also serves HTTP, the database and the OCR threads. */
    poolSize: Var.int('FACE_POOL_SIZE', 1, 1, 16),
    /** Largest decoded upload per image field (bytes). The engine's own limit is 15 MB. */
    maxImageBytes: Var.int('FACE_IMAGE_MAX_BYTES', 15 * 1024 * 1024, 1024, 15 * 1024 * 1024),
    /** How many tenants' in-process face indexes the face-index worker keeps. */
    indexCacheTenants: Var.int('FACE_INDEX_CACHE_TENANTS', 32, 1, 10_000),
    /**
     * Search with pgvector's HNSW index where the database has it, instead of the in-process index.
     * Off by default: on the bench's 100,000 faces HNSW (m 16, ef_search 400) found 20 of 29 faces at or
     * above the threshold, the in-process index all 29, and faster (docs/face.md).
     */
    searchWithPgvector: Var.bool('FACE_SEARCH_PGVECTOR', false),
    /** Preload the most recently enrolled tenants' in-process indexes in the background when the process starts. */
    warmIndexes: Var.bool('FACE_INDEX_WARM', true),
  }),
);

export type FaceSettings = SectionValue<typeof faceConfig>;
