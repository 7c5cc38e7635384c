// POST /v1/businesses/search: exact LEI or number first, then names found by their normalised words and
// scored with the screening engine's name comparison (legal forms, transliteration, word order).

import { createHash } from 'node:crypto';
import type { RequestContext } from '../../platform/context.js';
import { invalid } from '../../platform/errors.js';
import { decodeCursor, encodeCursor } from '../../platform/pagination.js';
import { compareNames } from '../../engines/screening/name-score.js';
import { prepareName, type PreparedName } from '../../engines/screening/normalize.js';
import { BoundedMap } from '../../platform/bounded-map.js';
import type { EntityRecord } from '../../providers/registries/index.js';
import { nameTokens } from './name-tokens.js';
import { registryRecords, type StoredRecord } from './registry-repository.js';
import type { SearchBusinesses } from './schemas.js';
import { registryFields } from './view.js';
import { searchLive, type LiveRegistries } from './live.js';

/** Candidates scored per name query; more than a page needs, fewer than a slow query would give. */
const CANDIDATES = 300;
/** Names scoring below this are not shown. */
export const MIN_NAME_SCORE = 0.6;
const INACTIVE_STATUS = new Set(['inactive', 'dissolved', 'closed', 'converted-closed', 'removed']);
const RETIRED_LEI = new Set(['RETIRED', 'ANNULLED', 'MERGED', 'DUPLICATE']);

type Matched = 'lei' | 'registration_number' | 'name';
interface Hit {
  rec: Pick<StoredRecord<EntityRecord>, 'source' | 'ref' | 'data'>;
  origin: 'imported' | 'live';
  score: number;
  on: Set<Matched>;
  matchedName: string | null;
}

/**
 * Registry names as the name comparison reads them, kept for the names scored most recently: the candidates of
 * common words recur from query to query (a word's first postings, a pair's), and preparing a name costs as
 * much as comparing it. About 1 KB each.
 */
const preparedNames = new BoundedMap<string, PreparedName>(20_000, 'use');
function prepared(name: string): PreparedName {
  let p = preparedNames.get(name);
  if (!p) preparedNames.set(name, (p = prepareName(name, 'organization', false)));
  return p;
}

/** The best name score of a record against the prepared query, and the name that gave it. */
function nameScore(query: PreparedName, e: EntityRecord): { score: number; name: string } {
  let best = 0,
    bestName = e.name;
  for (const n of [e.name, ...e.otherNames]) {
    const s = compareNames(query, prepared(n)).score;
    if (s > best) ((best = s), (bestName = n));
  }
  return { score: Math.round(best * 1000) / 1000, name: bestName };
}

export async function searchBusinesses(ctx: RequestContext, q: SearchBusinesses, live?: LiveRegistries) {
  if (!q.query && !q.lei && !q.registration_number) throw invalid('query', 'Give query, lei or registration_number.');
  const sources = q.sources ?? null;
  const hits = new Map<string, Hit>();
  const add = (rec: Hit['rec'], score: number, on: Matched, matchedName: string | null, origin: Hit['origin'] = 'imported') => {
    if (sources && !sources.includes(rec.source as never)) return;
    const key = `${rec.source}\u0000${rec.ref}`;
    const known = hits.get(key);
    // The imported record wins over the same entry from a live API (it carries its batch).
    if (known && known.origin !== origin) return;
    const h = known ?? { rec, origin, score: 0, on: new Set<Matched>(), matchedName: null };
    h.on.add(on);
    if (score > h.score) ((h.score = score), (h.matchedName = matchedName ?? h.matchedName));
    hits.set(key, h);
  };

  const lei = q.lei?.toUpperCase();
  const number = q.registration_number?.trim().toUpperCase();
  if (lei || number) {
    for (const rec of await registryRecords.byIdentifier(ctx.db, lei, number, 100)) {
      if (lei && rec.data.lei === lei) add(rec, 1, 'lei', null);
      if (number && (rec.data.registrationNumber?.toUpperCase() === number || rec.ref === number)) add(rec, 1, 'registration_number', null);
    }
  }
  const query = q.query ? prepareName(q.query, 'organization') : null;
  if (q.query && query) {
    const tokens = nameTokens([q.query]);
    for (const rec of await registryRecords.byTokens(ctx.db, tokens, sources, CANDIDATES)) {
      const m = nameScore(query, rec.data);
      if (m.score >= MIN_NAME_SCORE) add(rec, m.score, 'name', m.name);
    }
  }

  // The live registry APIs the configuration enables, asked at once within their time limit.
  const answers =
    live && live.bySource.size && q.live !== false
      ? await searchLive(live, sources, {
          ...(q.query ? { name: q.query } : {}),
          ...(lei ? { lei } : {}),
          ...(number ? { registrationNumber: number } : {}),
          limit: 20,
        })
      : [];
  for (const a of answers)
    for (const e of a.records) {
      const rec = { source: a.source as StoredRecord<EntityRecord>['source'], ref: e.ref, data: e };
      if (lei && e.lei === lei) add(rec, 1, 'lei', null, 'live');
      if (number && (e.registrationNumber?.toUpperCase() === number || e.ref === number)) add(rec, 1, 'registration_number', null, 'live');
      if (query) {
        const m = nameScore(query, e);
        if (m.score >= MIN_NAME_SCORE) add(rec, m.score, 'name', m.name, 'live');
      }
    }

  const rows = [...hits.values()]
    .filter(({ rec: { data: e } }) => !q.country || e.country === q.country || e.jurisdiction?.slice(0, 2) === q.country)
    .filter(
      ({ rec: { data: e } }) =>
        q.include_inactive === true || (!INACTIVE_STATUS.has(e.status ?? '') && !RETIRED_LEI.has(e.registrationStatus ?? '')),
    )
    // An exact identifier ranks first, then the name score.
    .sort(
      (a, b) =>
        Number(b.on.has('lei') || b.on.has('registration_number')) - Number(a.on.has('lei') || a.on.has('registration_number')) ||
        b.score - a.score ||
        a.rec.source.localeCompare(b.rec.source) ||
        a.rec.ref.localeCompare(b.rec.ref),
    );

  const { cursor, limit, ...rest } = q;
  const scope = `${ctx.accountId}:${ctx.environment}:businesses.search:${createHash('sha256').update(JSON.stringify(rest)).digest('hex').slice(0, 16)}`;
  const offset = cursor ? Number(decodeCursor(scope, cursor)) : 0;
  const size = limit ?? 20;
  const page = rows.slice(offset, offset + size);
  return {
    data: page.map((h) => ({
      ...registryFields(h.rec.source, h.rec.data),
      match: { score: h.score, matched_on: [...h.on].sort(), matched_name: h.matchedName },
      origin: h.origin,
    })),
    live: answers.map((a) => ({ source: a.source, status: a.status, results: a.records.length })),
    next_cursor: offset + size < rows.length ? encodeCursor(scope, String(offset + size)) : null,
  };
}
