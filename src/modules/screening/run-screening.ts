import { AppError } from '../../platform/errors.js';
import type { Environment } from '../../platform/context.js';
import type { Hit, ListEntity, ScreeningQuery, ScreeningResult, Dataset } from '../../engines/screening/types.js';
import { DEFAULT_THRESHOLD } from '../../engines/screening/index.js';
import type { ListRules } from './list-rules.js';
import type { SnapshotIndex } from './index-cache.js';
import { SANDBOX_SOURCE } from './activate-snapshot.js';
import type { ScreeningHit, ScreeningQueryFields, ScreeningCheckResult } from './schemas.js';
import type { Static, TObject } from '@sinclair/typebox';

export type QueryFields = Static<TObject<typeof ScreeningQueryFields>>;

/** API fields → the engine's query. */
export function toScreeningQuery(f: Pick<QueryFields, 'name' | 'aliases' | 'date_of_birth' | 'country' | 'countries' | 'entity_type' | 'gender' | 'identifiers'>): ScreeningQuery {
  const countries = [...(f.country ? [f.country] : []), ...(f.countries ?? [])];
  return {
    name: f.name,
    ...(f.aliases?.length ? { aliases: f.aliases } : {}),
    ...(f.entity_type ? { schema: f.entity_type } : {}),
    ...(f.date_of_birth ? { birthDate: f.date_of_birth } : {}),
    ...(countries.length ? { countries } : {}),
    ...(f.gender ? { gender: f.gender } : {}),
    ...(f.identifiers?.length ? { identifiers: f.identifiers.map((i) => ({ type: i.type, value: i.value, ...(i.country ? { country: i.country } : {}) })) } : {}),
  };
}

/**
 * The snapshots a request may screen against: production never sees the fictitious sandbox list;
 * sandbox keys see it and every imported list. An explicit `sources` selection narrows further.
 */
export function selectIndexes(all: SnapshotIndex[], environment: Environment, sources?: readonly string[]): SnapshotIndex[] {
  const usable = all.filter((s) => environment === 'sandbox' || s.snapshot.source !== SANDBOX_SOURCE);
  // Never answer no_match without a list behind it (in sandbox this only happens if the built-in list was removed).
  if (usable.length === 0) {
    throw new AppError('check_unavailable', 'No sanctions list has been imported for production screening. The operator must import one (`verity lists import FILE --format …`) or enable `lists sync` (LIST_SYNC_SOURCES).', { field: null });
  }
  if (!sources) return usable;
  const chosen = usable.filter((s) => sources.includes(s.snapshot.source));
  const missing = sources.filter((src) => !usable.some((s) => s.snapshot.source === src));
  if (missing.length) {
    throw new AppError('check_unavailable', `No active list for source(s) ${missing.join(', ')} in this environment; available: ${usable.map((s) => s.snapshot.source).join(', ') || 'none'}.`, { field: 'sources' });
  }
  return chosen;
}

const RANK = { no_match: 0, potential_match: 1, match: 2 } as const;

/** The API's hit; `entity` (the listed entity) adds the listing date and source link for reviewers. */
export function toApiHit(h: Hit, entity?: ListEntity): ScreeningHit {
  return { entity_id: h.entityId, source: h.source, schema: h.schema, names: h.names, listed_at: entity?.listedAt ?? null, source_url: entity?.sourceUrl ?? null, datasets: h.datasets, programs: h.programs, score: Math.round(h.score * 10000) / 10000, blocked: h.blocked === true, explanation: { matched: h.explanation.matched, contradicted: h.explanation.contradicted, components: { ...h.explanation.components } } };
}

/**
 * Screens one query against each selected snapshot's index and merges: block entries first, then by
 * score. The decision is the strongest of the per-list decisions, and any block entry is a match.
 */
export function screenAcross(indexes: SnapshotIndex[], query: ScreeningQuery, o: { threshold?: number; datasets?: readonly Dataset[]; rules: ListRules; limit?: number }): ScreeningCheckResult & { engine: ScreeningResult } {
  const limit = o.limit ?? 10;
  const threshold = o.threshold ?? DEFAULT_THRESHOLD;
  let decision: ScreeningResult['decision'] = 'no_match';
  const hits: Hit[] = [];
  const suppressed: string[] = [];
  let examined = 0;
  const versions: Record<string, string> = {};
  const listed = new Map<string, ListEntity | undefined>();
  for (const { snapshot, index } of indexes) {
    versions[snapshot.source] = snapshot.version ?? '';
    const r = index.screen(query, { threshold, datasets: o.datasets, limit, allow: o.rules.allow, block: o.rules.block });
    if (RANK[r.decision] > RANK[decision]) decision = r.decision;
    hits.push(...r.hits);
    for (const h of r.hits) listed.set(h.entityId, index.entity(h.entityId));
    suppressed.push(...r.suppressed);
    examined += r.candidatesExamined;
  }
  hits.sort((a, b) => Number(!!b.blocked) - Number(!!a.blocked) || b.score - a.score);
  const top = hits.slice(0, limit);
  const apiHits = [...o.rules.blockHits, ...top.map((h) => toApiHit(h, listed.get(h.entityId)))].slice(0, Math.max(limit, o.rules.blockHits.length));
  if (o.rules.blockHits.length) decision = 'match';
  const engine: ScreeningResult = { decision, hits: top, suppressed, candidatesExamined: examined, threshold };
  return { decision, hits: apiHits, suppressed, candidates_examined: examined, threshold, list_versions: versions, engine };
}
