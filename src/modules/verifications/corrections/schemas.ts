import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../../platform/schemas.js';
import { SubjectFields } from '../../checks/index.js';

/** PATCH /v1/verifications/{id}: the fields to correct and why. */
export const CorrectFields = Type.Object(
  {
    fields: Type.Partial(SubjectFields, {
      additionalProperties: false,
      minProperties: 1,
      description: 'The extracted fields to correct (at least one); null clears a field. Unknown names are 400 with field fields.<name>.',
    }),
    reason: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'Why the fields are corrected. Kept in the audit trail, which is never deleted: do not repeat the personal values here.',
    }),
  },
  { additionalProperties: false },
);
export type CorrectFields = Static<typeof CorrectFields>;

export const Rescreening = Type.Object(
  {
    before: Type.String({ description: 'The sanctions_pep status before the correction.' }),
    after: Type.String({ description: 'The status of the re-run with the corrected fields.' }),
    score: Type.Number(),
    recommendation: Type.Union([Type.String(), Type.Null()], {
      description:
        "What the journey's rules would decide over the current check statuses (approved, declined or referred; null when they cannot). Advice for the reviewer: a correction never decides.",
    }),
  },
  {
    description:
      'Set when the correction changed an input of screening (given names, surname, date of birth, nationality) and the journey screens: the sanctions_pep check was re-run.',
  },
);

export const Correction = Type.Object(
  {
    id: Type.String({ description: 'corr_…' }),
    fields: Type.Array(Type.String(), { description: 'Names of the corrected fields.' }),
    reason: Type.String(),
    actor: Type.String({ description: 'api_key:<id> (or the operator) that made the correction.' }),
    at: Timestamp,
    changes: Type.Union([Type.Record(Type.String(), Type.Object({ before: Type.Unknown(), after: Type.Unknown() })), Type.Null()], {
      description: 'The values before and after, per field; null once the session was deleted (the values are personal data).',
    }),
    rescreening: Type.Union([Rescreening, Type.Null()]),
  },
  { title: 'VerificationCorrection' },
);
export type Correction = Static<typeof Correction>;
