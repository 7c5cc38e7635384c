import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ModuleOptions } from '../../../platform/app-types.js';
import { notFound } from '../../../platform/errors.js';
import { emitAudit } from '../../../platform/audit.js';
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

  // The images a check looked at, for a reviewer's eyes (the console's evidence viewer). Every view is audited.
  r.get(
    '/:id/media/:media_id',
    {
      config: { scope: 'checks:read' },
      schema: {
        tags,
        operationId: 'getCheckMedia',
        summary: 'Download one image or file a check looked at (decrypted); the view is recorded in the audit log',
        description:
          "The bytes of one of the check's media (its `media` list), with the sniffed content type, `Content-Disposition: inline` and `X-Content-Type-Options: nosniff`. Audit row check.media_viewed names the viewer. A medium removed under the retention policy, or of another check, is 404.",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), media_id: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: {
          200: { description: 'The medium.', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
          ...standardErrors,
        },
      },
    },
    async (req, reply) => {
      const row = await checks.get(req.ctx.db, req.ctx, req.params.id);
      if (!row) throw notFound('check', 'id');
      const m = await checks.mediaBytes(req.ctx.db, req.ctx, deps.sealer, req.params.media_id);
      if (!m || m.row.check_id !== row.id) throw notFound('medium', 'media_id');
      await emitAudit(req.ctx.db, req.ctx, {
        action: 'check.media_viewed',
        resourceType: 'check',
        resourceId: row.id,
        metadata: { media_id: m.row.id, kind: m.row.kind, session_id: row.session_id },
      });
      return reply
        .type(m.row.content_type)
        .header('content-disposition', 'inline')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(m.data);
    },
  );
};
