import { ConfigError } from '../../config.js';

export interface FaceSettings {
  /** Worker threads of the shared face engine; each holds its own models (~230 MB RSS). */
  poolSize: number;
  /** Largest decoded upload per image field (bytes). The engine's own limit is 15 MB. */
  maxImageBytes: number;
  /** How many tenants' in-process face indexes stay cached (PostgreSQL without pgvector). */
  indexCacheTenants: number;
}

/** Reads a bounded integer; problems are collected so an operator fixes them in one pass. */
export function intSetting(env: NodeJS.ProcessEnv, name: string, def: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
    return def;
  }
  return n;
}

/** Validated when the module registers, so a bad value stops start-up instead of the first check. */
export function loadFaceSettings(env: NodeJS.ProcessEnv = process.env): FaceSettings {
  const problems: string[] = [];
  const settings = {
    // One worker by default: a 2-core box also serves HTTP, the database and the OCR threads.
    poolSize: intSetting(env, 'FACE_POOL_SIZE', 1, 1, 16, problems),
    maxImageBytes: intSetting(env, 'FACE_IMAGE_MAX_BYTES', 15 * 1024 * 1024, 1024, 15 * 1024 * 1024, problems),
    indexCacheTenants: intSetting(env, 'FACE_INDEX_CACHE_TENANTS', 32, 1, 10_000, problems),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}
