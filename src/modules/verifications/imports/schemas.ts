import { FormatRegistry, Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType } from '@sinclair/typebox/value';
import { CountryCode, Timestamp } from '../../../platform/schemas.js';
import { CHECK_TYPES } from '../../checks/index.js';
import { SubjectFields } from '../../checks/index.js';
import { DECISIONS, RISK_BANDS, SUBJECT_TYPES } from '../schemas.js';
import { IMPORTABLE_STATES } from '../state-machine.js';

/** Records per request; larger histories are sent in several requests (each record is idempotent). */
export const MAX_RECORDS = 100;
export const MAX_CHECKS_PER_RECORD = 20;
export const MAX_MEDIA_PER_RECORD = 20;
/** An imported check is history: it ended, so the running statuses (pending, processing) are refused. */
export const IMPORTED_CHECK_STATUSES = ['passed', 'failed', 'needs_review', 'no_match', 'potential_match', 'match'] as const;

const lit = <T extends string>(xs: readonly T[]) => Type.Union(xs.map((x) => Type.Literal(x)));

// TypeBox's own checker (per-record validation) knows no formats until they are registered.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (v) => ISO_DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)));
if (!FormatRegistry.Has('date'))
  FormatRegistry.Set('date', (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)));

export const Provider = Type.String({
  pattern: '^[a-z0-9_-]{1,64}$',
  description: 'The previous provider, free text (lower-case letters, digits, _ and -), e.g. onfido, sumsub.',
});
const MediaKind = Type.String({
  pattern: '^[a-z0-9_]{1,40}$',
  description: 'What the file shows, e.g. document_front, document_back, selfie, liveness_video, proof_of_address.',
});
const ContentType = Type.Optional(
  Type.String({
    maxLength: 100,
    description:
      'Checked, never trusted: the stored type is sniffed from the bytes; a declared image or PDF type the bytes are not is refused.',
  }),
);

export const EmbeddedMedia = Type.Object(
  {
    kind: MediaKind,
    content_type: ContentType,
    data: Type.String({ minLength: 1, description: 'The file, base64 (a data: URL is accepted).' }),
  },
  { additionalProperties: false, title: 'ImportEmbeddedMedia' },
);

export const ReferencedMedia = Type.Object(
  {
    kind: MediaKind,
    content_type: ContentType,
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'Fetched by Verity before the record is written: https, no redirects, size and time limits, public addresses only unless the operator allows private networks.',
    }),
    sha256: Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: 'SHA-256 of the file (hex); the fetched bytes must match it.' }),
  },
  { additionalProperties: false, title: 'ImportReferencedMedia' },
);

export const ImportCheck = Type.Object(
  {
    type: lit(CHECK_TYPES),
    status: lit(IMPORTED_CHECK_STATUSES),
    score: Type.Optional(Type.Number({ minimum: -1e9, maximum: 1e9, description: "The previous provider's score, as given." })),
    reasons: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
    result: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: "The previous provider's result, free JSON; stored sealed like every check result.",
      }),
    ),
  },
  { additionalProperties: false, title: 'ImportCheck' },
);

function recordSchema<M extends TSchema>(media: M) {
  return Type.Object(
    {
      external_id: Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: '^[^\\x00-\\x1f\\x7f]+$',
        description:
          "The previous provider's id of the verification; unique per tenant, environment and provider. A record whose external_id was imported before is reported duplicate and never written again.",
      }),
      subject: Type.Object(
        {
          type: lit(SUBJECT_TYPES),
          reference: Type.String({ minLength: 1, maxLength: 200, description: 'Your identifier of the customer.' }),
          country: Type.Optional(CountryCode('ISO 3166-1 alpha-2, upper case.')),
        },
        { additionalProperties: false },
      ),
      journey: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description:
            "The previous provider's journey or workflow label, kept as given in imported_from.journey. The session's own journey reads import:<provider>, version 0.",
        }),
      ),
      status: Type.Union(
        IMPORTABLE_STATES.map((s) => Type.Literal(s)),
        { description: 'The status the verification ended in (referred: still waiting for a reviewer).' },
      ),
      decision: Type.Optional(
        Type.Union([lit(DECISIONS), Type.Null()], {
          description: 'Must equal status for approved, declined and referred (the default); none for abandoned and expired.',
        }),
      ),
      risk: Type.Optional(
        Type.Union(
          [
            Type.Object({ score: Type.Integer({ minimum: 0, maximum: 100 }), band: lit(RISK_BANDS) }, { additionalProperties: false }),
            Type.Null(),
          ],
          {
            description:
              "Required with a decision (approved, declined, referred), refused without one: map the previous provider's assessment to 0–100 and a band.",
          },
        ),
      ),
      reason_codes: Type.Optional(
        Type.Array(Type.String({ pattern: '^[a-z0-9][a-z0-9_.:-]{0,63}$' }), {
          maxItems: 50,
          description: "The previous provider's codes, kept as given; only with a decision.",
        }),
      ),
      created_at: Type.String({
        format: 'date-time',
        description: 'When the verification started at the previous provider (in the past).',
      }),
      completed_at: Type.String({
        format: 'date-time',
        description: 'When it ended (at or after created_at, in the past); for referred, when it was referred.',
      }),
      checks: Type.Optional(Type.Array(ImportCheck, { maxItems: MAX_CHECKS_PER_RECORD })),
      fields: Type.Optional(
        Type.Partial(SubjectFields, {
          description: 'The subject data extracted at the time (SubjectFields; missing ones read null); stored sealed.',
        }),
      ),
      media: Type.Optional(Type.Array(media, { maxItems: MAX_MEDIA_PER_RECORD })),
    },
    { additionalProperties: false, title: 'ImportRecord' },
  );
}

/** What one record is (documentation and the record's type). */
export const ImportRecord = recordSchema(Type.Union([EmbeddedMedia, ReferencedMedia]));
export type ImportRecord = Static<typeof ImportRecord>;
// Checked per record: media items are told apart by `url` so an error names the exact field.
const RecordShape = recordSchema(Type.Object({}, { additionalProperties: true }));

export const CreateVerificationImport = Type.Object(
  {
    provider: Provider,
    records: Type.Array(
      // Any object is accepted here and each record is validated on its own, so one bad record is
      // reported in records[] and the others are imported; a record that is not even an object is 400.
      Type.Union([ImportRecord, Type.Object({}, { additionalProperties: true })], {
        description:
          'An ImportRecord. Each record is validated on its own: a bad one is reported failed in records[] (with field) and the others are imported.',
      }),
      { minItems: 1, maxItems: MAX_RECORDS },
    ),
  },
  { additionalProperties: false, title: 'CreateVerificationImport' },
);
export type CreateVerificationImport = { provider: string; records: unknown[] };

export const RecordError = Type.Object({
  code: Type.String({ description: 'invalid_request (the record is at fault; see field) or internal_error.' }),
  message: Type.String(),
  field: Type.Union([Type.String(), Type.Null()], { description: 'The request field at fault, e.g. records[3].subject.reference.' }),
});
export type RecordError = Static<typeof RecordError>;

export const RecordResult = Type.Object({
  index: Type.Integer({ description: 'Position of the record in the request.' }),
  external_id: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.Literal('imported'), Type.Literal('duplicate'), Type.Literal('failed')]),
  verification_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The imported session (imported) or the one imported before (duplicate).',
  }),
  error: Type.Union([RecordError, Type.Null()]),
});
export type RecordResult = Static<typeof RecordResult>;

export const VerificationImport = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('verification_import'),
    provider: Type.String(),
    created: Type.Integer(),
    duplicates: Type.Integer(),
    failed: Type.Integer(),
    records: Type.Array(RecordResult),
    created_at: Timestamp,
  },
  { title: 'VerificationImport' },
);
export type VerificationImport = Static<typeof VerificationImport>;

/** A record's problem, with the request field at fault. */
export class RecordProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const pathToField = (base: string, path: string) =>
  base +
  path
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
    .join('');

function firstError(schema: TSchema, value: unknown, base: string): RecordProblem | null {
  const err = Value.Errors(schema, value).First();
  if (!err) return null;
  const field = pathToField(base, err.path);
  if (err.type === ValueErrorType.ObjectRequiredProperty) return new RecordProblem(field, `${field} is required.`);
  if (err.type === ValueErrorType.ObjectAdditionalProperties) return new RecordProblem(field, `${field} is not a known field.`);
  const allowed = (err.schema.anyOf as { const?: unknown }[] | undefined)?.map((x) => x.const).filter((x) => typeof x === 'string');
  if (err.type === ValueErrorType.Union && allowed?.length)
    return new RecordProblem(field, `${field} must be one of ${allowed.join(', ')}.`);
  return new RecordProblem(field, `${field}: ${err.message}.`);
}

/**
 * Validates one record (shape, then what the schema cannot say: status against decision, risk and
 * reason codes; timestamps in order and in the past). Returns the typed record or a problem naming
 * the field under `records[i]`.
 */
export function validateRecord(raw: unknown, index: number, now: Date): ImportRecord | RecordProblem {
  const base = `records[${index}]`;
  const shape = firstError(RecordShape, raw, base);
  if (shape) return shape;
  const r = raw as ImportRecord;
  for (const [j, m] of (r.media ?? []).entries()) {
    const p = firstError(m && typeof m === 'object' && 'url' in m ? ReferencedMedia : EmbeddedMedia, m, `${base}.media[${j}]`);
    if (p) return p;
  }
  const created = Date.parse(r.created_at);
  const completed = Date.parse(r.completed_at);
  if (created > now.getTime()) return new RecordProblem(`${base}.created_at`, `${base}.created_at is in the future; an import is history.`);
  if (completed > now.getTime())
    return new RecordProblem(`${base}.completed_at`, `${base}.completed_at is in the future; an import is history.`);
  if (completed < created) return new RecordProblem(`${base}.completed_at`, `${base}.completed_at is before created_at.`);
  const decided = r.status === 'approved' || r.status === 'declined' || r.status === 'referred';
  if (decided) {
    if (r.decision != null && r.decision !== r.status)
      return new RecordProblem(`${base}.decision`, `${base}.decision must be ${r.status} for a ${r.status} verification (or be left out).`);
    // The decision object (GET …/decision, decision.json, verification.completed) always carries a risk.
    if (r.risk == null)
      return new RecordProblem(
        `${base}.risk`,
        `${base}.risk is required for ${r.status === 'approved' ? 'an' : 'a'} ${r.status} verification: map the previous provider's assessment to a score 0-100 and a band.`,
      );
  } else {
    if (r.decision != null)
      return new RecordProblem(`${base}.decision`, `A ${r.status} verification has no decision; leave ${base}.decision out.`);
    if (r.risk != null)
      return new RecordProblem(`${base}.risk`, `A ${r.status} verification has no decision, so no risk; leave ${base}.risk out.`);
    if ((r.reason_codes ?? []).length > 0)
      return new RecordProblem(
        `${base}.reason_codes`,
        `A ${r.status} verification has no decision, so no reason codes; leave ${base}.reason_codes out.`,
      );
  }
  return r;
}
