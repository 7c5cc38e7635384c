import { newId } from '../../platform/ids.js';

/**
 * Ids for this module's resources, in the platform's time-sortable layout. The platform registry
 * (`ID_PREFIX`) has no entries for them yet, so the prefix is swapped on a platform id; moving them
 * into the registry is a one-line platform change.
 */
export const SCREENING_ID_PREFIX = { snapshot: 'lsn', monitoredSubject: 'msub', alert: 'alrt' } as const;

export function screeningId(kind: keyof typeof SCREENING_ID_PREFIX): string {
  const raw = newId('event');
  return `${SCREENING_ID_PREFIX[kind]}_${raw.slice(raw.indexOf('_') + 1)}`;
}
