import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ModuleOptions } from '../../../platform/app-types.js';
import { notFound } from '../../../platform/errors.js';
import { Page } from '../../../platform/pagination.js';
import { IdParam, standardErrors } from '../../../platform/schemas.js';
import { CHECK_STATUSES, CHECK_TYPES, Check } from './schemas.js';
import { checks, toCheck } from './repository.js';

/**
 * Retrieval of stored checks. Each check endpoint (POST /v1/checks/<type>) lives in its own module
 * and stores its result through recordCheck.
 */
export const checksModule: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Checks'];
  r.get(
    '',
    {
      config: { scope: 'checks:read' },
      schema: {
        tags,
        operationId: 'listChecks',
        summary: 'List checks, newest first',
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
          cursor: Type.Optional(Type.String({ maxLength: 512 })),
          type: Type.Optional(Type.Union(CHECK_TYPES.map((t) => Type.Literal(t)))),
          status: Type.Optional(Type.Union(CHECK_STATUSES.map((s) => Type.Literal(s)))),
          subject_reference: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: { 200: Page(Check), ...standardErrors },
      },
    },
    async (req) => {
      const page = await checks.page(req.ctx.db, req.ctx, req.query);
      const media = await checks.mediaFor(
        req.ctx.db,
        page.data.map((c) => c.id),
      );
      return { data: page.data.map((c) => toCheck(c, media.get(c.id) ?? [], deps.sealer)), next_cursor: page.next_cursor };
    },
  );
  r.get(
    '/:id',
    {
      config: { scope: 'checks:read' },
      schema: {
        tags,
        operationId: 'getCheck',
        summary: 'Retrieve a check with its signals and result',
        params: IdParam,
        response: { 200: Check, ...standardErrors },
      },
    },
    async (req) => {
      const row = await checks.get(req.ctx.db, req.ctx, req.params.id);
      if (!row) throw notFound('check', 'id');
      const media = await checks.mediaFor(req.ctx.db, [row.id]);
      return toCheck(row, media.get(row.id) ?? [], deps.sealer);
    },
  );
};
