import { ScreeningIndex } from './index.js';
import { prepareQuery, type PreparedQuery } from './entity-score.js';
import type { SnapshotDiff } from './snapshot-diff.js';
import type { Hit, ScreenOptions, ScreeningQuery } from './types.js';

// Ongoing monitoring. After a list update only the added and changed entities can create new hits,
// so instead of re-screening every subject against the whole list we index just the delta (a few
// hundred entities) and run each enrolled subject against that tiny index: the cost per subject is a
// handful of hash lookups, and most subjects retrieve no candidate at all.

export interface EnrolledSubject {
  subjectId: string;
  query: ScreeningQuery;
}

/** A subject prepared once at enrolment, so daily re-screens skip normalisation. */
export interface PreparedSubject {
  subjectId: string;
  prepared: PreparedQuery;
}

export interface RescreenAlert {
  subjectId: string;
  hit: Hit;
  /** `added`: the entity is new on the list; `changed`: its listing changed (new alias, new DOB …). */
  reason: 'added' | 'changed';
}

export interface RescreenResult {
  alerts: RescreenAlert[];
  /** Entities removed from the list: existing alerts on them can be closed by the caller. */
  removedEntityIds: string[];
  subjectsScreened: number;
  deltaEntities: number;
}

export function prepareSubject(s: EnrolledSubject): PreparedSubject {
  return { subjectId: s.subjectId, prepared: prepareQuery(s.query) };
}

/** The added and changed entities of a diff, indexed once; many batches of subjects can be screened against it. */
export interface DeltaIndex {
  /** null when the diff adds and changes nothing. */
  index: ScreeningIndex | null;
  reason: ReadonlyMap<string, RescreenAlert['reason']>;
  removedEntityIds: string[];
  deltaEntities: number;
}

export function buildDeltaIndex(diff: SnapshotDiff): DeltaIndex {
  const delta = [...diff.added, ...diff.changed];
  const reason = new Map<string, RescreenAlert['reason']>();
  for (const e of diff.added) reason.set(e.id, 'added');
  for (const e of diff.changed) reason.set(e.id, 'changed');
  return {
    index: delta.length ? ScreeningIndex.build(delta) : null,
    reason,
    removedEntityIds: diff.removed.map((e) => e.id),
    deltaEntities: delta.length,
  };
}

export type RescreenOptions = Omit<ScreenOptions, 'allow' | 'block'> & {
  allowFor?: (subjectId: string) => ReadonlySet<string> | undefined;
};

/** Screens subjects against a delta index built by buildDeltaIndex. */
export function rescreenAgainst(
  delta: DeltaIndex,
  subjects: Iterable<EnrolledSubject | PreparedSubject>,
  options: RescreenOptions = {},
): RescreenResult {
  const alerts: RescreenAlert[] = [];
  let screened = 0;
  if (delta.index) {
    for (const s of subjects) {
      screened++;
      const prepared = 'prepared' in s ? s.prepared : prepareQuery(s.query);
      const result = delta.index.screenPrepared(prepared, { ...options, allow: options.allowFor?.(s.subjectId) });
      for (const hit of result.hits) alerts.push({ subjectId: s.subjectId, hit, reason: delta.reason.get(hit.entityId) ?? 'changed' });
    }
  }
  return { alerts, removedEntityIds: delta.removedEntityIds, subjectsScreened: screened, deltaEntities: delta.deltaEntities };
}

/**
 * Screens enrolled subjects against the added and changed entities of a snapshot diff only.
 * `allowFor` returns the subject's allow-listed entity ids (hits on them are suppressed).
 */
export function rescreenDelta(
  subjects: Iterable<EnrolledSubject | PreparedSubject>,
  diff: SnapshotDiff,
  options: RescreenOptions = {},
): RescreenResult {
  return rescreenAgainst(buildDeltaIndex(diff), subjects, options);
}
