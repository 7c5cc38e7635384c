import { Type, type Static } from '@sinclair/typebox';
import { CountryNameOrCode } from '../../../platform/schemas.js';

export const DATASETS = ['sanctions', 'pep', 'adverse_media'] as const;
export const ENTITY_TYPES = ['person', 'organization', 'vessel', 'aircraft'] as const;
export const DECISIONS = ['no_match', 'potential_match', 'match'] as const;

const Name = Type.String({ minLength: 1, maxLength: 300 });

/** The screening query fields, shared by a one-off check and a monitoring enrolment. */
export const ScreeningQueryFields = {
  name: Type.String({
    minLength: 1,
    maxLength: 300,
    description: 'Full name of the person, organisation, vessel or aircraft, in any script.',
  }),
  aliases: Type.Optional(
    Type.Array(Name, { maxItems: 20, description: 'Other names: maiden name, former company name, the name in its original script.' }),
  ),
  date_of_birth: Type.Optional(Type.String({ pattern: '^\\d{4}(-\\d{2}(-\\d{2})?)?$', description: 'YYYY-MM-DD, YYYY-MM or YYYY.' })),
  country: Type.Optional(CountryNameOrCode('Nationality, residence or registration country: ISO 3166-1 alpha-2 or an English name.')),
  countries: Type.Optional(
    Type.Array(CountryNameOrCode('A country: ISO 3166-1 alpha-2 or an English name.'), {
      maxItems: 10,
      description: 'Several countries (added to country).',
    }),
  ),
  entity_type: Type.Optional(
    Type.Union(
      ENTITY_TYPES.map((t) => Type.Literal(t)),
      { description: 'What the subject is; a listed entity of another type scores half.' },
    ),
  ),
  gender: Type.Optional(Type.Union([Type.Literal('male'), Type.Literal('female')])),
  identifiers: Type.Optional(
    Type.Array(
      Type.Object(
        {
          type: Type.String({
            minLength: 1,
            maxLength: 40,
            description: 'passport, national_id, tax_id, registration, imo, mmsi, lei, email, crypto:XBT …',
          }),
          value: Type.String({ minLength: 1, maxLength: 200 }),
          country: Type.Optional(Type.String({ minLength: 2, maxLength: 60 })),
        },
        { additionalProperties: false },
      ),
      { maxItems: 20, description: 'Documents and registration numbers: an equal identifier on a list entry is a match on its own.' },
    ),
  ),
  datasets: Type.Optional(
    Type.Array(Type.Union(DATASETS.map((d) => Type.Literal(d))), {
      minItems: 1,
      uniqueItems: true,
      description: 'Data sets to screen against (default: all).',
    }),
  ),
  sources: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 40 }), {
      minItems: 1,
      maxItems: 20,
      uniqueItems: true,
      description:
        'List sources to screen against, e.g. ofac_sdn, un, uk_fcdo, eu_fsf, opensanctions, custom, sandbox (default: all available to the environment).',
    }),
  ),
  threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Minimum score of a reported hit (default 0.8).' })),
};

export const ScreeningRequest = Type.Object(
  {
    ...ScreeningQueryFields,
    subject_reference: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Your identifier of the subject; allowlist and blocklist entries for it apply.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ScreeningRequest = Static<typeof ScreeningRequest>;

export const ScreeningHit = Type.Object(
  {
    entity_id: Type.String({
      description: 'The list entity, e.g. ofac-sdn:12345, un:CDi.001, or blocklist:<entry id> for a name/document block entry.',
    }),
    source: Type.String(),
    schema: Type.String({ description: 'person, organization, vessel, aircraft or unknown.' }),
    names: Type.Array(Type.String()),
    datasets: Type.Array(Type.String()),
    programs: Type.Array(Type.String()),
    listed_at: Type.Union([Type.String(), Type.Null()], { description: 'Date the entity was listed, when the list gives it.' }),
    source_url: Type.Union([Type.String(), Type.Null()], { description: "Link to the list's publication, when known." }),
    score: Type.Number(),
    blocked: Type.Boolean({ description: 'A blocklist entry forced this hit.' }),
    explanation: Type.Object({
      matched: Type.Array(Type.String()),
      contradicted: Type.Array(Type.String()),
      components: Type.Record(Type.String(), Type.Unknown()),
    }),
  },
  { title: 'ScreeningHit' },
);
export type ScreeningHit = Static<typeof ScreeningHit>;

/** The `result` of a sanctions_pep check (documented here; the Check schema keeps result open). */
export interface ScreeningCheckResult {
  decision: (typeof DECISIONS)[number];
  hits: ScreeningHit[];
  suppressed: string[];
  candidates_examined: number;
  threshold: number;
  list_versions: Record<string, string>;
  [k: string]: unknown;
}
