import { AppError } from '../../../platform/errors.js';
import type { Environment } from '../../../platform/context.js';
import type { ScreeningQuery } from '../../../engines/screening/types.js';
import type { SnapshotIndex } from './index-cache.js';
import { SANDBOX_SOURCE } from './activate-snapshot.js';
import type { ScreeningQueryFields } from './schemas.js';
import type { Static, TObject } from '@sinclair/typebox';

export type QueryFields = Static<TObject<typeof ScreeningQueryFields>>;

/** API fields → the engine's query. */
export function toScreeningQuery(
  f: Pick<QueryFields, 'name' | 'aliases' | 'date_of_birth' | 'country' | 'countries' | 'entity_type' | 'gender' | 'identifiers'>,
): ScreeningQuery {
  const countries = [...(f.country ? [f.country] : []), ...(f.countries ?? [])];
  return {
    name: f.name,
    ...(f.aliases?.length ? { aliases: f.aliases } : {}),
    ...(f.entity_type ? { schema: f.entity_type } : {}),
    ...(f.date_of_birth ? { birthDate: f.date_of_birth } : {}),
    ...(countries.length ? { countries } : {}),
    ...(f.gender ? { gender: f.gender } : {}),
    ...(f.identifiers?.length
      ? { identifiers: f.identifiers.map((i) => ({ type: i.type, value: i.value, ...(i.country ? { country: i.country } : {}) })) }
      : {}),
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
    throw new AppError(
      'check_unavailable',
      'No sanctions list has been imported for production screening. The operator must import one (`verity lists import FILE --format …`) or enable `lists sync` (LIST_SYNC_SOURCES).',
      { field: null },
    );
  }
  if (!sources) return usable;
  const chosen = usable.filter((s) => sources.includes(s.snapshot.source));
  const missing = sources.filter((src) => !usable.some((s) => s.snapshot.source === src));
  if (missing.length) {
    throw new AppError(
      'check_unavailable',
      `No active list for source(s) ${missing.join(', ')} in this environment; available: ${usable.map((s) => s.snapshot.source).join(', ') || 'none'}.`,
      { field: 'sources' },
    );
  }
  return chosen;
}

/**
 * Refuses to screen data sets no selected list carries: a clean no_match for "pep" with no PEP list
 * behind it would be a false all-clear (a journey then refers instead of approving).
 */
export function assertDatasetsCovered(selected: SnapshotIndex[], datasets: readonly string[] | undefined): void {
  if (!datasets?.length) return;
  const covered = new Set(selected.flatMap((s) => s.datasets));
  const missing = datasets.filter((d) => !covered.has(d));
  if (missing.length) {
    throw new AppError(
      'check_unavailable',
      `No active list carries the data set(s) ${missing.join(', ')}; the lists in this environment carry ${[...covered].sort().join(', ') || 'none'}. Import a list with them, or screen without them.`,
      { field: 'datasets' },
    );
  }
}

// The merge of per-list results runs in the screening worker; its code lives in a file the worker
// can import without the database layer.
export { screenAcross, toApiHit, type ListIndex, type ScreenAcrossOptions, type ScreenAcrossResult } from './screen-across.js';
