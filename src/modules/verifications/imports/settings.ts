import { envReader } from '../../../config.js';

export interface ImportSettings {
  /**
   * Referenced media may be fetched from loopback, private and link-local addresses, and over http.
   * Off by default in every environment (unlike webhooks): the importer fetches URLs the caller
   * names and keeps the bytes it gets, which the caller can then download in the evidence bundle.
   */
  allowPrivateNetworks: boolean;
  /** Largest medium, embedded or fetched (bytes). */
  maxMediaBytes: number;
  /** Time limit of one fetch. */
  fetchTimeoutMs: number;
  /** Time all fetches of one request may take together; records whose media did not fit fail and can be sent again. */
  fetchBudgetMs: number;
  /** Body limit of POST /v1/verifications/imports (embedded media are base64 in the JSON body). */
  bodyLimitBytes: number;
}

export function loadImportSettings(env: NodeJS.ProcessEnv = process.env): ImportSettings {
  const r = envReader(env);
  const settings = {
    allowPrivateNetworks: r.bool('IMPORT_MEDIA_ALLOW_PRIVATE_NETWORKS', false),
    maxMediaBytes: r.int('IMPORT_MEDIA_MAX_BYTES', 15 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    fetchTimeoutMs: r.int('IMPORT_MEDIA_TIMEOUT_MS', 10_000, 100, 60_000),
    // Below the Idempotency-Key lease (5 minutes), so a retry never takes over a request still fetching.
    fetchBudgetMs: r.int('IMPORT_FETCH_BUDGET_MS', 120_000, 1000, 240_000),
    bodyLimitBytes: r.int('IMPORT_BODY_LIMIT_BYTES', 50 * 1024 * 1024, 1024 * 1024, 200 * 1024 * 1024),
  };
  r.throwIfProblems();
  return settings;
}
