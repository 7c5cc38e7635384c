import { Type, type Static } from '@sinclair/typebox';
import { CountryCode, Timestamp } from '../../platform/schemas.js';
import { CHECK_STATUSES } from '../checks/index.js';
import { JourneyKey, REASON_CODES } from '../journeys/index.js';
import { SESSION_STATES } from './state-machine.js';
import { SubjectFields } from '../checks/index.js';
import { Correction } from './corrections/schemas.js';

export const SUBJECT_TYPES = ['individual'] as const;
export const DECISIONS = ['approved', 'declined', 'referred'] as const;
export const RISK_BANDS = ['low', 'medium', 'high'] as const;
const lit = <T extends string>(xs: readonly T[]) => Type.Union(xs.map((x) => Type.Literal(x)));

export const CreateVerification = Type.Object(
  {
    journey: Type.String({
      minLength: 1,
      maxLength: 64,
      description: "The journey to run, published in this key's environment: its key (e.g. kyc_standard) or its id (jrn_…).",
    }),
    subject: Type.Object(
      {
        type: lit(SUBJECT_TYPES),
        reference: Type.String({
          minLength: 1,
          maxLength: 200,
          description:
            'Your identifier of the customer; echoed in events as subject_reference. In the sandbox, the references of GET /v1/sandbox/subjects force an outcome.',
        }),
        country: Type.Optional(CountryCode('ISO 3166-1 alpha-2, upper case.')),
        given_names: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 200,
            description: 'Declared given names. Screening uses the names read from the document when the journey has one, else these.',
          }),
        ),
        surname: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 200,
            description: 'Declared surname (see given_names). A journey screening without a document needs a declared name.',
          }),
        ),
        date_of_birth: Type.Optional(Type.String({ format: 'date', description: 'Declared date of birth, YYYY-MM-DD.' })),
      },
      { additionalProperties: false },
    ),
    redirect_url: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2000,
        pattern: '^https?://',
        description: 'Where the hosted flow sends the subject when done.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateVerification = Static<typeof CreateVerification>;

export const CheckEntry = Type.Object({
  type: Type.String(),
  status: lit(CHECK_STATUSES),
  id: Type.String({ description: 'The check object (GET /v1/checks/{id}) the pipeline fills.' }),
});

export const Risk = Type.Object({ score: Type.Integer({ minimum: 0, maximum: 100 }), band: lit(RISK_BANDS) });

export const Verification = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('verification'),
    status: lit(SESSION_STATES),
    journey: Type.String(),
    journey_version: Type.Integer({ description: 'The journey version the session pinned at creation.' }),
    hosted_url: Type.String({ description: 'The hosted capture flow for the subject (carries the session token).' }),
    expires_at: Timestamp,
    checks: Type.Array(CheckEntry),
    subject: Type.Object({
      type: Type.String(),
      reference: Type.Union([Type.String(), Type.Null()], { description: 'Null once the session was deleted.' }),
      country: Type.Union([Type.String(), Type.Null()]),
    }),
    redirect_url: Type.Union([Type.String(), Type.Null()]),
    decision: Type.Union([lit(DECISIONS), Type.Null()]),
    risk: Type.Union([Risk, Type.Null()]),
    reason_codes: Type.Array(Type.String()),
    sandbox_outcome: Type.Union([Type.String(), Type.Null()], {
      description: 'Sandbox only: the forced outcome the subject reference chose.',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
    completed_at: Type.Union([Timestamp, Type.Null()]),
    deleted_at: Type.Union([Timestamp, Type.Null()], {
      description: 'Set when media and personal data were removed; the session remains as a tombstone.',
    }),
    origin: Type.Union([Type.Literal('native'), Type.Literal('import')], {
      description: 'native: created here and run on a journey; import: historical, imported by POST /v1/verifications/imports.',
    }),
    imported_from: Type.Union(
      [
        Type.Object({
          provider: Type.String(),
          external_id: Type.String(),
          journey: Type.Union([Type.String(), Type.Null()], { description: "The previous provider's journey label, as given." }),
        }),
        Type.Null(),
      ],
      { description: 'Imported sessions: the previous provider and its id of the verification; null for native sessions.' },
    ),
    transitions: Type.Optional(
      Type.Array(
        Type.Object({
          from: lit(SESSION_STATES),
          to: lit(SESSION_STATES),
          event: Type.String(),
          actor: Type.String({ description: 'api_key:<id>, session_token:<id>, operator:<name> or system:system.' }),
          at: Timestamp,
        }),
        { description: 'GET /v1/verifications/{id} only: every status change so far, oldest first (the decision trail).' },
      ),
    ),
    fields: Type.Optional(
      Type.Union([SubjectFields, Type.Null()], {
        description:
          'GET /v1/verifications/{id} and PATCH only: the subject data the session extracted (from its document), as corrected by reviewers; null when none was extracted or the session was deleted.',
      }),
    ),
    corrections: Type.Optional(
      Type.Array(Correction, {
        description:
          'GET /v1/verifications/{id} and PATCH only: reviewer corrections of the fields, oldest first, with before/after values (null once deleted).',
      }),
    ),
  },
  { title: 'Verification' },
);
export type Verification = Static<typeof Verification>;

export const CreatedVerification = Type.Composite(
  [
    Verification,
    Type.Object({
      session_token: Type.String({
        description: "Short-lived token for client SDKs: opens only this session's capture endpoints, never the API. Shown once.",
      }),
      session_token_expires_at: Timestamp,
    }),
  ],
  { title: 'CreatedVerification' },
);

export const VerificationsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
  status: Type.Optional(lit(SESSION_STATES)),
  journey: Type.Optional(JourneyKey),
  decision: Type.Optional(lit(DECISIONS)),
  created_gte: Type.Optional(Type.String({ format: 'date-time', description: 'Sessions created at or after this moment.' })),
  created_lt: Type.Optional(Type.String({ format: 'date-time', description: 'Sessions created before this moment.' })),
  subject_reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  origin: Type.Optional(
    Type.Union([Type.Literal('native'), Type.Literal('import')], {
      description: 'native (created here) or import (historical, imported).',
    }),
  ),
});
export type VerificationsQuery = Static<typeof VerificationsQuery>;

export const DecisionObject = Type.Object(
  {
    object: Type.Literal('decision'),
    id: Type.String({ description: 'The session id.' }),
    status: lit(SESSION_STATES),
    decision: lit(DECISIONS),
    risk: Risk,
    checks: Type.Array(CheckEntry),
    reason_codes: Type.Array(Type.String(), { description: `Why: ${REASON_CODES.join(', ')}.` }),
    decided_by: Type.Union([Type.String(), Type.Null()], {
      description: "system (the journey's rules) or the reviewer of a manual decision.",
    }),
    decided_reason: Type.Union([Type.String(), Type.Null()]),
    decided_at: Type.Union([Timestamp, Type.Null()]),
    evidence_bundle_url: Type.String(),
    journey_rules: Type.Array(
      Type.Object({
        key: Type.String(),
        outcome: Type.Union([Type.Literal('refer'), Type.Literal('decline')]),
        result: Type.Union([Type.Literal('match'), Type.Literal('no_match'), Type.Literal('error')]),
        values_used: Type.Record(Type.String(), Type.Unknown(), {
          description: 'Each context path the rule read (e.g. document.age, results.document.score) and its value at the decision.',
        }),
        error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
      }),
      {
        description:
          "The trail of the journey's CEL rules at the system decision (definition.rules): each rule, its result and the values it used. Empty when the journey has no rules; erased with the session.",
      },
    ),
  },
  { title: 'Decision' },
);
export type DecisionObject = Static<typeof DecisionObject>;

export const ManualDecision = Type.Object(
  {
    decision: Type.Union([Type.Literal('approved'), Type.Literal('declined')]),
    reason: Type.String({ minLength: 1, maxLength: 2000, description: 'Why; kept in the audit trail.' }),
    reviewer: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Who decided, in your review tool (default: the API key).' }),
    ),
  },
  { additionalProperties: false },
);
export type ManualDecision = Static<typeof ManualDecision>;
