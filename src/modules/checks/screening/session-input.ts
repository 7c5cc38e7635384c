import { countryCode } from '../../../engines/screening/countries.js';
import { fullName, type SubjectFields } from '../kernel/index.js';
import type { ScreeningRequest } from './schemas.js';

/** A journey's sanctions_pep settings: the data sets and threshold a session screens with. */
export type SessionScreeningSettings = { datasets?: ScreeningRequest['datasets']; threshold?: number };

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
export function screeningInputFor(
  f: SubjectFields,
  settings: SessionScreeningSettings,
  subject: { reference: string | null; country: string | null },
): ScreeningRequest | null {
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
