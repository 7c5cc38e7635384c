import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Timestamp } from '../../../platform/schemas.js';

/**
 * Status of any check. pending/processing while it runs (session checks); then a verifying check
 * ends passed, failed or needs_review, and a screening check no_match, potential_match or match. A
 * session check whose session ended (expired or abandoned) before it ran is cancelled.
 */
export const CHECK_STATUSES = [
  'pending',
  'processing',
  'passed',
  'failed',
  'needs_review',
  'no_match',
  'potential_match',
  'match',
  'cancelled',
] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

export const CHECK_TYPES = [
  'document',
  'liveness',
  'face_match',
  'face_search',
  'sanctions_pep',
  'age_estimation',
  'proof_of_address',
  'contact',
  'document_ai',
  'risk_score',
] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

export const SignalSchema = Type.Object({
  name: Type.String(),
  value: Type.Union([Type.Number(), Type.String(), Type.Boolean(), Type.Null()]),
  passed: Type.Union([Type.Boolean(), Type.Null()]),
  threshold: Type.Optional(Type.Union([Type.Number(), Type.String()])),
  detail: Type.Optional(Type.String()),
});

export const ModelSchema = Type.Object({ name: Type.String(), version: Type.String() });

export const MediaRef = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  content_type: Type.String(),
  bytes: Type.Integer(),
  sha256: Type.String(),
});

/** The check object every check endpoint returns; `result` carries the type-specific output. */
export const Check = Type.Object({
  id: Type.String(),
  object: Type.Literal('check'),
  type: Type.Union(CHECK_TYPES.map((t) => Type.Literal(t))),
  status: Type.Union(CHECK_STATUSES.map((s) => Type.Literal(s))),
  score: Type.Union([Type.Number(), Type.Null()], {
    description: "The check's main score (similarity, liveness, screening score…), where it has one.",
  }),
  reasons: Type.Array(Type.String(), { description: 'Stable snake_case reason codes behind the status.' }),
  subject_reference: Type.Union([Type.String(), Type.Null()]),
  session_id: Type.Union([Type.String(), Type.Null()]),
  signals: Type.Array(SignalSchema),
  model: Type.Array(ModelSchema),
  timings: Type.Record(Type.String(), Type.Number(), { description: 'Milliseconds per stage.' }),
  result: Type.Record(Type.String(), Type.Unknown(), { description: 'Type-specific output (extracted fields, hits, estimates…).' }),
  media: Type.Array(MediaRef),
  created_at: Timestamp,
  completed_at: Type.Union([Timestamp, Type.Null()]),
  redacted_at: Type.Union([Timestamp, Type.Null()], {
    description: 'Set when personal data and media were removed under the retention policy.',
  }),
});
export type Check = Static<typeof Check>;

/** An image field: base64 (optionally a data: URL) in JSON, or a file part of the same name in multipart/form-data. */
export const ImageField = (description: string) =>
  Type.String({ minLength: 1, description: `${description} Base64 in JSON (a data: URL is accepted), or a file in multipart/form-data.` });

export const SubjectReference = Type.Optional(
  Type.String({ minLength: 1, maxLength: 200, description: 'Your identifier of the customer this check is about.' }),
);

export function checkBody<T extends Record<string, TSchema>>(props: T) {
  return Type.Object({ ...props, subject_reference: SubjectReference }, { additionalProperties: false });
}
