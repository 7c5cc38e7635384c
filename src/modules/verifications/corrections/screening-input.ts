import type { JourneyDefinition } from '../../journeys/index.js';
import type { SessionScreeningSettings } from '../../checks/index.js';
import type { SubjectFields } from '../../checks/index.js';

/**
 * The subject fields the session's screening reads (the check pipeline's sanctions_pep step):
 * correcting one of them re-runs the check. Sex is not among them: the pipeline does not screen
 * with it, and a re-run must differ from the original only by the corrected values.
 */
export const SCREENING_INPUT_FIELDS: readonly (keyof SubjectFields)[] = ['given_names', 'surname', 'date_of_birth', 'nationality'];

/** The sanctions_pep settings of the session's pinned journey, or null when it does not screen. */
export function screeningSettingsOf(def: JourneyDefinition): SessionScreeningSettings | null {
  const c = def.checks?.find((x) => x.type === 'sanctions_pep');
  return c ? ((c as { settings?: SessionScreeningSettings }).settings ?? {}) : null;
}
