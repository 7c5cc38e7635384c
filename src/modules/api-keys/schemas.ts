import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../platform/schemas.js';

const Scopes = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  minItems: 1,
  maxItems: 64,
  uniqueItems: true,
  description:
    'Scopes of the new key, each `<module>:read`, `<module>:write`, `rules:publish` or `*` (docs/api-decisions.md lists the modules). ' +
    'A key may grant only scopes it holds itself.',
});

export const CreateApiKey = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: 'What the key is for, as people will recognise it in the listing.' }),
    scopes: Scopes,
  },
  { additionalProperties: false },
);
export type CreateApiKey = Static<typeof CreateApiKey>;

export const ApiKey = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('api_key'),
    name: Type.Union([Type.String(), Type.Null()]),
    display: Type.String({ description: 'The first characters and the last four of the key, to recognise it; never the key.' }),
    environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
    scopes: Type.Array(Type.String()),
    created_by: Type.Union([Type.Object({ type: Type.String(), id: Type.String() }), Type.Null()], {
      description: 'The principal that made the key through this API; null for keys made by the CLI or at first start.',
    }),
    created_at: Timestamp,
    revoked_at: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'ApiKey' },
);
export type ApiKey = Static<typeof ApiKey>;

export const ApiKeyWithSecret = Type.Object(
  {
    ...ApiKey.properties,
    secret: Type.String({
      description: 'The key itself, shown in this response only (and in its idempotent replay to the same principal). Store it now.',
    }),
  },
  { title: 'ApiKeyWithSecret' },
);
export type ApiKeyWithSecret = Static<typeof ApiKeyWithSecret>;

export const ScopeCatalogue = Type.Object(
  {
    object: Type.Literal('scope_catalogue'),
    modules: Type.Array(Type.String(), {
      description: 'Each module has a `<module>:read` and a `<module>:write` scope; write implies read.',
    }),
    extra: Type.Array(Type.String(), { description: 'Scopes beyond read and write (rules:publish: the checker of maker-checker).' }),
    scopes: Type.Array(Type.String(), { description: 'Every scope a key can be given, in catalogue order.' }),
    wildcard: Type.Literal('*', { description: 'Every scope, present and future.' }),
  },
  { title: 'ScopeCatalogue' },
);
export type ScopeCatalogue = Static<typeof ScopeCatalogue>;
