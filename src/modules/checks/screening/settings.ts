import { ConfigError, envReader } from '../../../config.js';

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

export interface ScreeningSettings {
  /** Sources `lists sync` and the `lists.sync` job fetch; empty: sync disabled. */
  syncSources: string[];
  /** Per-source URL overrides (LIST_SYNC_URL_<SOURCE>): a mirror or, for multi-file formats, a base URL. */
  syncUrls: Record<string, string>;
  syncIntervalMs: number;
  /** How often a process looks for a changed set of active snapshots (index rebuild). */
  indexRefreshMs: number;
}

/** Reads and validates the module's environment variables (documented in docs/screening.md). */
export function loadScreeningSettings(env: NodeJS.ProcessEnv = process.env): ScreeningSettings {
  const { problems, num } = envReader(env);
  const syncSources = (env.LIST_SYNC_SOURCES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = syncSources.filter((s) => !SYNC_FORMATS[s]);
  if (unknown.length)
    problems.push(`LIST_SYNC_SOURCES names unknown source(s) ${unknown.join(', ')}; known: ${Object.keys(SYNC_FORMATS).join(', ')}`);
  const syncUrls: Record<string, string> = {};
  for (const source of Object.keys(SYNC_FORMATS)) {
    const name = `LIST_SYNC_URL_${source.toUpperCase()}`;
    const raw = env[name];
    if (!raw) continue;
    try {
      const u = new URL(raw);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') problems.push(`${name} must be an http(s) URL`);
      syncUrls[source] = raw;
    } catch {
      problems.push(`${name} is not a valid URL`);
    }
  }
  const syncIntervalMs = num('LIST_SYNC_INTERVAL_MINUTES', 360, 5, 7 * 24 * 60) * 60_000;
  const indexRefreshMs = num('SCREENING_INDEX_REFRESH_MS', 5000, 0, 3_600_000);
  if (problems.length) throw new ConfigError(problems);
  return { syncSources, syncUrls, syncIntervalMs, indexRefreshMs };
}
