import { section, vars, Var, type SectionValue } from '../../../platform/config-schema.js';

export const importsConfig = section(
  vars({
    /**
     * Referenced media may be fetched from loopback, private and link-local addresses, and over http.
     * Off by default in every environment (unlike webhooks): the importer fetches URLs the caller
     * names and keeps the bytes it gets, which the caller can then download in the evidence bundle.
     */
    allowPrivateNetworks: Var.bool('IMPORT_MEDIA_ALLOW_PRIVATE_NETWORKS', false),
    /** Largest medium, embedded or fetched (bytes). */
    maxMediaBytes: Var.int('IMPORT_MEDIA_MAX_BYTES', 15 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    /** Time limit of one fetch. */
    fetchTimeoutMs: Var.int('IMPORT_MEDIA_TIMEOUT_MS', 10_000, 100, 60_000),
    /** Time all fetches of one request may take together; records whose media did not fit fail and can be sent again. Below the Idempotency-Key lease, so a retry never takes over a request still fetching. */
    fetchBudgetMs: Var.int('IMPORT_FETCH_BUDGET_MS', 120_000, 1000, 240_000),
    /** Body limit of POST /v1/verifications/imports (embedded media are base64 in the JSON body). */
    bodyLimitBytes: Var.int('IMPORT_BODY_LIMIT_BYTES', 50 * 1024 * 1024, 1024 * 1024, 200 * 1024 * 1024),
  }),
);

export type ImportSettings = SectionValue<typeof importsConfig>;
