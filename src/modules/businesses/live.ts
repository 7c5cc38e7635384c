// The live registry APIs as the businesses module uses them: asked in searches (beside the imported data)
// and, when a record is created from an entry that was never imported, fetched and stored as an import
// batch of their own (source, the API call, the answers' digest), so every fact still says where it came from.

import type { Db } from '../../platform/db.js';
import { AppError, notFound } from '../../platform/errors.js';
import {
  companiesHouseApi,
  gleifApi,
  LiveRegistryError,
  type EntityRecord,
  type LiveRegistry,
  type LiveSearch,
} from '../../providers/registries/index.js';
import type { BusinessesConfig } from './config.js';
import { importLiveRecords, type ImportOutcome } from './registry-import.js';

export interface LiveRegistries {
  bySource: Map<string, LiveRegistry>;
  timeoutMs: number;
}

/** The adapters the configuration enables (none by default). */
export function liveRegistries(cfg: BusinessesConfig): LiveRegistries {
  const http = { timeoutMs: cfg.timeoutMs, allowPrivateNetworks: cfg.allowPrivateNetworks };
  const bySource = new Map<string, LiveRegistry>();
  if (cfg.gleif) bySource.set('gleif', gleifApi({ ...http, ...cfg.gleif }));
  if (cfg.companiesHouse) bySource.set('gb_coh', companiesHouseApi({ ...http, ...cfg.companiesHouse }));
  return { bySource, timeoutMs: cfg.timeoutMs };
}

export type LiveStatus = 'ok' | 'timeout' | 'rate_limited' | 'unavailable';

export interface LiveAnswer {
  source: string;
  status: LiveStatus;
  records: EntityRecord[];
}

const statusOf = (e: unknown): LiveStatus =>
  e instanceof LiveRegistryError
    ? e.kind === 'timeout'
      ? 'timeout'
      : e.kind === 'rate_limited'
        ? 'rate_limited'
        : 'unavailable'
    : 'unavailable';

/** Every enabled adapter of the wanted sources at once, within the time limit; a failure is a status, not an error. */
export async function searchLive(live: LiveRegistries, sources: readonly string[] | null, q: LiveSearch): Promise<LiveAnswer[]> {
  const deadline = Date.now() + live.timeoutMs;
  const wanted = [...live.bySource.values()].filter((a) => !sources || sources.includes(a.source));
  return Promise.all(
    wanted.map(async (a): Promise<LiveAnswer> => {
      try {
        // A found "not found" is an empty answer, not a failure.
        return { source: a.source, status: 'ok', records: await a.search(q, deadline) };
      } catch (e) {
        if (e instanceof LiveRegistryError && e.kind === 'not_found') return { source: a.source, status: 'ok', records: [] };
        return { source: a.source, status: statusOf(e), records: [] };
      }
    }),
  );
}

/**
 * Fetches one entry (with its parents, PSCs and officers) from the source's live API and stores it as a
 * batch. Errors are the caller's: 404 for an entry the registry does not know, 429 when the rate limit is
 * reached, 422 check_unavailable when the registry did not answer in time.
 */
export async function fetchLiveEntry(db: Db, live: LiveRegistries, source: string, ref: string): Promise<ImportOutcome> {
  const adapter = live.bySource.get(source);
  if (!adapter) throw notFound(`${source} registry record`, 'source_ref');
  let answer;
  try {
    answer = await adapter.fetch(ref, Date.now() + live.timeoutMs);
  } catch (e) {
    if (!(e instanceof LiveRegistryError)) throw e;
    if (e.kind === 'not_found') throw notFound(`${source} registry record`, 'source_ref');
    if (e.kind === 'rate_limited')
      throw new AppError('rate_limited', `The ${source} registry API's rate limit is reached; retry in a minute.`);
    throw new AppError('check_unavailable', `The ${source} registry API could not be read (${e.kind}); retry later.`, {
      field: 'source_ref',
    });
  }
  const meta = {
    source,
    format: `${source}-api`,
    label: answer.label,
    digest: answer.digest,
    records: answer.records,
    stats: answer.stats,
  };
  const r = await importLiveRecords(db, meta);
  // Two requests storing the same answer at once: the loser finds the winner's batch.
  if (!r.ok) {
    const again = await importLiveRecords(db, meta);
    if (again.ok) return again;
    throw new AppError('check_unavailable', `The ${source} registry answer could not be stored: ${r.error ?? 'unknown error'}`, {
      field: 'source_ref',
    });
  }
  return r;
}
