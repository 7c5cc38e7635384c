import { performance } from 'node:perf_hooks';
import type { RequestContext } from '../../../platform/context.js';
import type { Sealer } from '../../../platform/crypto.js';
import { screeningSignals } from '../../../engines/screening/signals.js';
import { signal } from '../../../engines/signal.js';
import { recordCheck, roundTimings, type CheckOutcome, type Check } from '../kernel/index.js';
import type { ScreeningIndexCache, SnapshotIndex } from './index-cache.js';
import { loadListRules } from './list-rules.js';
import { assertDatasetsCovered, selectIndexes, toScreeningQuery } from './run-screening.js';
import type { ScreeningRequest } from './schemas.js';

export const MATCHER_MODEL = { name: 'verity-screening-matcher', version: '1' };

/**
 * POST /v1/checks/screening: screens (evaluateScreening, outside any transaction), then stores the
 * check, its usage, audit row and event in one transaction through recordCheck.
 */
export async function screenSubject({
  ctx,
  sealer,
  cache,
  input,
}: {
  ctx: RequestContext;
  sealer: Sealer;
  cache: ScreeningIndexCache;
  input: ScreeningRequest;
}): Promise<Check> {
  const outcome = await evaluateScreening({ ctx, sealer, cache, input });
  return recordCheck({ ctx, sealer, type: 'sanctions_pep', subjectReference: input.subject_reference ?? null, outcome });
}

/**
 * The screening of one subject as a check outcome, without storing it: reads the subject's allow and
 * block entries and screens the environment's lists in the screening worker (well under a
 * millisecond of CPU there, plus a message round trip).
 * Session journeys call this with their own data-set and source selection.
 */
export async function evaluateScreening({
  ctx,
  sealer,
  cache,
  input,
}: {
  ctx: RequestContext;
  sealer: Sealer;
  cache: ScreeningIndexCache;
  input: ScreeningRequest;
}): Promise<CheckOutcome> {
  const t0 = performance.now();
  const select = (all: SnapshotIndex[]) => selectIndexes(all, ctx.environment, input.sources);
  const selected = select(await cache.get());
  assertDatasetsCovered(selected, input.datasets);
  const t1 = performance.now();
  const query = toScreeningQuery(input);
  const rules = await loadListRules(ctx.db, ctx, sealer, {
    subjectReference: input.subject_reference,
    names: [input.name, ...(input.aliases ?? [])],
    documents: (input.identifiers ?? []).map((i) => i.value),
  });
  const t2 = performance.now();
  // screenAcross runs in the screening worker, which holds the indexes (one message each way).
  const { indexes, result: r } = await cache.screen(
    selected,
    query,
    { threshold: input.threshold, datasets: input.datasets, rules },
    select,
  );
  const t3 = performance.now();

  const signals = screeningSignals(r.engine);
  if (rules.blockHits.length)
    signals.push(
      signal('screening_block_listed', true, false, {
        detail: `${rules.blockHits.length} blocklist name/document entr${rules.blockHits.length === 1 ? 'y' : 'ies'} matched`,
      }),
    );
  const reasons: string[] = [];
  if (r.decision !== 'no_match') reasons.push(r.decision === 'match' ? 'screening_match' : 'screening_potential_match');
  if (r.hits.some((h) => h.blocked)) reasons.push('blocklist_entry');
  if (r.hits.some((h) => h.explanation.components.identifier === 'match')) reasons.push('identifier_match');
  if (r.suppressed.length) reasons.push('allowlist_suppressed_hit');
  const { engine: _engine, ...result } = r;
  return {
    status: r.decision,
    score: r.hits[0]?.score ?? 0,
    reasons,
    signals,
    model: [MATCHER_MODEL, ...indexes.map((s) => ({ name: `list:${s.snapshot.source}`, version: s.snapshot.version ?? '' }))],
    timings: roundTimings({ index: t1 - t0, list_entries: t2 - t1, screen: t3 - t2, total: t3 - t0 }),
    result: { ...result, datasets: input.datasets ?? null, list_entries_applied: rules.entryIds },
  };
}
