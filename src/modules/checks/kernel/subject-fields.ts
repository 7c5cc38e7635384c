import { Type, type Static } from '@sinclair/typebox';
import type { DocumentFields } from '../../../engines/document/index.js';
import { isDate } from '../../../platform/http/validation.js';

/**
 * The subject's data a session extracted (from the document check) and a reviewer may correct
 * (PATCH /v1/verifications/{id}). Screening in a session reads these; names are as printed in
 * the document's machine-readable zone (Latin letters, upper case) unless corrected.
 */
export const SubjectFields = Type.Object(
  {
    given_names: Type.Union([Type.String({ maxLength: 200 }), Type.Null()]),
    surname: Type.Union([Type.String({ maxLength: 200 }), Type.Null()]),
    date_of_birth: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    sex: Type.Union([Type.Literal('M'), Type.Literal('F'), Type.Literal('X'), Type.Null()]),
    nationality: Type.Union([Type.String({ pattern: '^[A-Z<]{1,3}$' }), Type.Null()]),
    document_type: Type.Union([Type.String({ maxLength: 40 }), Type.Null()]),
    document_number: Type.Union([Type.String({ maxLength: 60 }), Type.Null()]),
    issuing_country: Type.Union([Type.String({ pattern: '^[A-Z<]{1,3}$' }), Type.Null()]),
    expiry_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  },
  { additionalProperties: false, title: 'SubjectFields' },
);
export type SubjectFields = Static<typeof SubjectFields>;
export const SUBJECT_FIELD_NAMES = Object.keys(SubjectFields.properties) as (keyof SubjectFields)[];

export function emptyFields(): SubjectFields {
  return Object.fromEntries(SUBJECT_FIELD_NAMES.map((k) => [k, null])) as SubjectFields;
}

/**
 * The document engine's fields → the session's subject fields. A field read from an MRZ that did not pass (noise
 * read as a zone, a misread line) holds whatever the OCR saw; a value that is not what the field can be (a state
 * code with a digit, an impossible date) is dropped to null rather than stored and served.
 */
export function fieldsFromDocument(f: DocumentFields | null): SubjectFields {
  if (!f) return emptyFields();
  const clean = (s: string | undefined | null, max = 200) =>
    s ? s.replace(/</g, ' ').replace(/\s+/g, ' ').trim().slice(0, max).trim() || null : null;
  const state = (s: string | undefined | null) => {
    const v = clean(s);
    return v !== null && /^[A-Z]{1,3}$/.test(v) ? v : null;
  };
  const date = (s: string | undefined | null) => (s && isDate(s) ? s : null);
  return {
    given_names: clean(f.givenNames),
    surname: clean(f.surname),
    date_of_birth: date(f.birthDate),
    sex: f.sex === 'M' || f.sex === 'F' || f.sex === 'X' ? f.sex : null,
    nationality: state(f.nationality),
    document_type: clean(f.documentType, 40),
    document_number: clean(f.documentNumber, 60),
    issuing_country: state(f.issuingState),
    expiry_date: date(f.expiryDate),
  };
}

/** "GIVEN NAMES SURNAME", or null when neither is known (screening needs a name). */
export function fullName(f: SubjectFields): string | null {
  const n = [f.given_names, f.surname]
    .filter((x): x is string => !!x)
    .join(' ')
    .trim();
  return n || null;
}
