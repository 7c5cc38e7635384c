import { countryCode } from '../../engines/screening/countries.js';
import type { JourneyDefinition } from '../journeys/definition.js';
import type { ScreeningRequest } from '../screening/schemas.js';
import { fullName, type SubjectFields } from './fields.js';

/** The subject fields screening reads: correcting one of them re-runs the session's sanctions_pep check. */
export const SCREENING_INPUT_FIELDS: readonly (keyof SubjectFields)[] = ['given_names', 'surname', 'date_of_birth', 'nationality', 'sex'];

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
 * The screening request for a session's subject fields, exactly what the standalone endpoint
 * takes; null when the fields hold no name (screening needs one).
 */
export function screeningInputFor(f: SubjectFields, settings: ScreeningSettings, subjectReference: string | null): ScreeningRequest | null {
  const name = fullName(f);
  if (!name) return null;
  const country = nationalityAlpha2(f.nationality);
  const gender = f.sex === 'M' ? 'male' : f.sex === 'F' ? 'female' : undefined;
  return {
    name,
    ...(f.date_of_birth ? { date_of_birth: f.date_of_birth } : {}),
    ...(country ? { countries: [country] } : {}),
    ...(gender ? { gender } : {}),
    ...(settings.datasets ? { datasets: settings.datasets } : {}),
    ...(settings.threshold !== undefined ? { threshold: settings.threshold } : {}),
    ...(subjectReference ? { subject_reference: subjectReference } : {}),
  } as ScreeningRequest;
}
