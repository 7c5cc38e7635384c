import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { getTenantApiKey, pageApiKeys } from '../../platform/api-keys.js';
import { notFound } from '../../platform/errors.js';
import { Page, PageQuery } from '../../platform/pagination.js';
import { IdParam, standardErrors } from '../../platform/schemas.js';
import { ALL_SCOPES, EXTRA_SCOPES, MODULES } from '../../platform/scopes.js';
import { ApiKey, ApiKeyWithSecret, CreateApiKey, ScopeCatalogue } from './schemas.js';
import { createKey, revokeKey, toApiKey } from './keys.js';

/** /v1/api-keys: the caller's own account and environment only; the secret is never read back. */
export const apiKeysModule: FastifyPluginAsync<ModuleOptions> = async (app) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['API keys'];
  const read = { scope: 'api_keys:read' as const };
  const write = { scope: 'api_keys:write' as const };

  r.get(
    '',
    {
      config: read,
      schema: {
        tags,
        operationId: 'listApiKeys',
        summary: "List the keys of the caller's account and environment, newest first (never the secret)",
        querystring: PageQuery,
        response: { 200: Page(ApiKey), ...standardErrors },
      },
    },
    async (req) => {
      const page = await pageApiKeys(req.ctx.db, req.ctx, req.query);
      return { data: page.data.map(toApiKey), next_cursor: page.next_cursor };
    },
  );

  r.get(
    '/scopes',
    {
      config: read,
      schema: {
        tags,
        operationId: 'listApiKeyScopes',
        summary: 'The scopes a key can hold: a read and a write scope per module, the extra scopes, and *',
        response: { 200: ScopeCatalogue, ...standardErrors },
      },
    },
    async () => ({
      object: 'scope_catalogue' as const,
      modules: [...MODULES],
      extra: [...EXTRA_SCOPES],
      scopes: [...ALL_SCOPES],
      wildcard: '*' as const,
    }),
  );

  r.post(
    '',
    {
      // A replay carries the secret, so it answers only the principal that made the key (docs/api-decisions.md).
      config: { ...write, idempotencyScope: 'principal' },
      schema: {
        tags,
        operationId: 'createApiKey',
        summary: "Create a key in the caller's environment with scopes the caller holds; the secret is returned once",
        body: CreateApiKey,
        response: { 201: ApiKeyWithSecret, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return createKey({ ctx: req.ctx, input: req.body });
    },
  );

  r.get(
    '/:id',
    {
      config: read,
      schema: {
        tags,
        operationId: 'getApiKey',
        summary: 'Retrieve a key (never the secret)',
        params: IdParam,
        response: { 200: ApiKey, ...standardErrors },
      },
    },
    async (req) => {
      const k = await getTenantApiKey(req.ctx.db, req.ctx, req.params.id);
      if (!k) throw notFound('API key', 'id');
      return toApiKey(k);
    },
  );

  r.post(
    '/:id/revoke',
    {
      config: write,
      schema: {
        tags,
        operationId: 'revokeApiKey',
        summary: 'Revoke a key: it is refused at once by this process (within the key cache TTL by others); revoking again is a no-op',
        params: IdParam,
        response: { 200: ApiKey, ...standardErrors },
      },
    },
    async (req) => revokeKey({ ctx: req.ctx, id: req.params.id, revoked: () => app.keyCache.invalidate() }),
  );
};
