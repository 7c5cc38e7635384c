import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../platform/schemas.js';
import { JourneyDefinition } from './definition.js';

export const JourneyKey = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[a-z][a-z0-9_]*$',
  description: 'The journey identifier sessions name (lower-case letters, digits, underscores), e.g. kyc_standard.',
});

export const CreateJourney = Type.Object(
  {
    key: JourneyKey,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    definition: JourneyDefinition,
    publish: Type.Optional(
      Type.Boolean({
        default: false,
        description: "true: the new version is published in this key's environment and new sessions start on it; false: a draft.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateJourney = Static<typeof CreateJourney>;

export const JourneyVersion = Type.Object({
  version: Type.Integer(),
  status: Type.Union([Type.Literal('draft'), Type.Literal('published')]),
  definition: JourneyDefinition,
  created_by: Type.String(),
  created_at: Timestamp,
  published_at: Type.Union([Timestamp, Type.Null()]),
});

export const Journey = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('journey'),
    key: Type.String(),
    name: Type.String(),
    environment: Type.String(),
    latest_version: Type.Integer(),
    published_version: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The version new sessions start on; null while only drafts exist.',
    }),
    versions: Type.Array(JourneyVersion, { description: 'Every version, newest first.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Journey' },
);
export type Journey = Static<typeof Journey>;

export const JourneysQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
  key: Type.Optional(JourneyKey),
});

export const PublishParams = Type.Object({ key: JourneyKey, version: Type.Integer({ minimum: 1, maximum: 1_000_000 }) });
