import type { Hit, ListEntity, ScreeningQuery, ScreeningResult, Dataset } from '../../../engines/screening/types.js';
import { DEFAULT_THRESHOLD, type ScreeningIndex } from '../../../engines/screening/index.js';
import type { ListRules } from './list-rules.js';
import type { ScreeningHit, ScreeningCheckResult } from './schemas.js';

// The pure part of a screening: merging the per-list results. It runs inside the screening worker
// (index-worker.ts), which owns the indexes, so this file imports nothing that touches the database.

/** One list's index as screenAcross needs it: the snapshot's source and version, and its index. */
export interface ListIndex {
  snapshot: { source: string; version: string | null };
  index: Pick<ScreeningIndex, 'screen' | 'entity'>;
}

export interface ScreenAcrossOptions {
  threshold?: number;
  datasets?: readonly Dataset[];
  rules: ListRules;
  limit?: number;
}

export type ScreenAcrossResult = ScreeningCheckResult & { engine: ScreeningResult };

const RANK = { no_match: 0, potential_match: 1, match: 2 } as const;

/** The API's hit; `entity` (the listed entity) adds the listing date and source link for reviewers. */
export function toApiHit(h: Hit, entity?: Pick<ListEntity, 'listedAt' | 'sourceUrl'>): ScreeningHit {
  return {
    entity_id: h.entityId,
    source: h.source,
    schema: h.schema,
    names: h.names,
    listed_at: entity?.listedAt ?? null,
    source_url: entity?.sourceUrl ?? null,
    datasets: h.datasets,
    programs: h.programs,
    score: Math.round(h.score * 10000) / 10000,
    blocked: h.blocked === true,
    explanation: { matched: h.explanation.matched, contradicted: h.explanation.contradicted, components: { ...h.explanation.components } },
  };
}

/**
 * Screens one query against each selected snapshot's index and merges: block entries first, then by
 * score. The decision is the strongest of the per-list decisions, and any block entry is a match.
 */
export function screenAcross(indexes: readonly ListIndex[], query: ScreeningQuery, o: ScreenAcrossOptions): ScreenAcrossResult {
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
  const apiHits = [...o.rules.blockHits, ...top.map((h) => toApiHit(h, listed.get(h.entityId)))].slice(
    0,
    Math.max(limit, o.rules.blockHits.length),
  );
  if (o.rules.blockHits.length) decision = 'match';
  const engine: ScreeningResult = { decision, hits: top, suppressed, candidatesExamined: examined, threshold };
  return { decision, hits: apiHits, suppressed, candidates_examined: examined, threshold, list_versions: versions, engine };
}
