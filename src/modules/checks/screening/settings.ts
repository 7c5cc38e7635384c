import { section, vars, Var, type SectionValue } from '../../../platform/config-schema.js';

/**
 * Sources `lists sync` may download, each with the list format that reads it. The operator enables
 * them one by one (LIST_SYNC_SOURCES): sync reaches out to government sites, so it is off by default.
 */
export const SYNC_FORMATS: Readonly<Record<string, string>> = Object.freeze({
  ofac_sdn: 'ofac_csv',
  un: 'un_xml',
  uk_fcdo: 'uk_csv',
  eu_fsf: 'eu_fsf_xml',
});

const SOURCES = Object.keys(SYNC_FORMATS);

/** The module's environment variables (documented in docs/screening.md and docs/operations.md). */
export const screeningConfig = section(
  vars({
    /** Sources `lists sync` and the `lists.sync` job fetch; empty: sync disabled. */
    syncSources: Var.names('LIST_SYNC_SOURCES', SOURCES),
    ...Object.fromEntries(SOURCES.map((s) => [`url_${s}`, Var.url(`LIST_SYNC_URL_${s.toUpperCase()}`, ['https:', 'http:'])])),
    syncIntervalMinutes: Var.num('LIST_SYNC_INTERVAL_MINUTES', 360, 5, 7 * 24 * 60),
    /** How often a process looks for a changed set of active snapshots (index rebuild). */
    indexRefreshMs: Var.num('SCREENING_INDEX_REFRESH_MS', 5000, 0, 3_600_000),
  }),
  (v) => {
    /** Per-source URL overrides (LIST_SYNC_URL_<SOURCE>): a mirror or, for multi-file formats, a base URL. */
    const syncUrls: Record<string, string> = {};
    for (const s of SOURCES) {
      const url = (v as Record<string, unknown>)[`url_${s}`];
      if (typeof url === 'string') syncUrls[s] = url;
    }
    return {
      syncSources: v.syncSources as string[],
      syncUrls,
      syncIntervalMs: v.syncIntervalMinutes * 60_000,
      indexRefreshMs: v.indexRefreshMs,
    };
  },
);

export type ScreeningSettings = SectionValue<typeof screeningConfig>;
