import { countryCode } from '../../../engines/screening/countries.js';
import type { JourneyDefinition } from '../../journeys/index.js';
import type { ScreeningRequest } from '../../checks/screening/index.js';
import { fullName, type SubjectFields } from '../fields.js';

/**
 * The subject fields the session's screening reads (the check pipeline's sanctions_pep step):
 * correcting one of them re-runs the check. Sex is not among them: the pipeline does not screen
 * with it, and a re-run must differ from the original only by the corrected values.
 */
export const SCREENING_INPUT_FIELDS: readonly (keyof SubjectFields)[] = ['given_names', 'surname', 'date_of_birth', 'nationality'];

type ScreeningSettings = { datasets?: ScreeningRequest['datasets']; threshold?: number };

/** The sanctions_pep settings of the session's pinned journey, or null when it does not screen. */
export function screeningSettingsOf(def: JourneyDefinition): ScreeningSettings | null {
  const c = def.checks?.find((x) => x.type === 'sanctions_pep');
  return c ? ((c as { settings?: ScreeningSettings }).settings ?? {}) : null;
}

/** A nationality as the MRZ writes it (alpha-3, or D for Germany) as the alpha-2 screening compares. */
export function nationalityAlpha2(n: string | null): string | undefined {
  if (!n) return undefined;
  const code = n.replace(/</g, '').trim();
  if (code === 'D') return 'DE';
  return countryCode(code);
}

/**
 * The screening request for a session's subject fields, as the check pipeline builds it (a person;
 * name, date of birth, nationality and the session's subject country; the journey's data sets and
 * threshold), in the standalone endpoint's shape; null when the fields hold no name.
 */
export function screeningInputFor(f: SubjectFields, settings: ScreeningSettings, subject: { reference: string | null; country: string | null }): ScreeningRequest | null {
  const name = fullName(f);
  if (!name) return null;
  const countries = [...new Set([nationalityAlpha2(f.nationality), subject.country ?? undefined].filter((c): c is string => !!c))];
  return {
    name,
    entity_type: 'person',
    ...(f.date_of_birth ? { date_of_birth: f.date_of_birth } : {}),
    ...(countries.length ? { countries } : {}),
    ...(settings.datasets ? { datasets: settings.datasets } : {}),
    ...(settings.threshold !== undefined ? { threshold: settings.threshold } : {}),
    ...(subject.reference ? { subject_reference: subject.reference } : {}),
  };
}
