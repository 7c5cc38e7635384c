import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { notFound } from '../../platform/errors.js';
import { Page, paginate } from '../../platform/pagination.js';
import { findEvent } from '../../platform/outbox.js';
import { IdParam, iso, standardErrors } from '../../platform/schemas.js';
import { Event, EventsQuery } from '../webhooks/index.js';

interface EventRow {
  id: string;
  type: string;
  created_at: Date;
  environment: string;
  seq: number;
  resource_type: string | null;
  resource_id: string | null;
  data: Record<string, unknown>;
}

const toEvent = (e: EventRow) => ({
  id: e.id,
  object: 'event' as const,
  type: e.type,
  created_at: iso(e.created_at)!,
  environment: e.environment,
  sequence: Number(e.seq),
  resource: e.resource_type && e.resource_id ? { type: e.resource_type, id: e.resource_id } : null,
  data: e.data,
});

/** The events the service emitted (the same bodies webhooks carry), for reconciliation after an outage. */
export const eventsModule: FastifyPluginAsync<ModuleOptions> = async (app) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Events'];
  r.get(
    '',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        tags,
        operationId: 'listEvents',
        summary: 'List emitted events, newest first',
        querystring: EventsQuery,
        response: { 200: Page(Event), ...standardErrors },
      },
    },
    async (req) => {
      const where: string[] = [];
      const params: unknown[] = [];
      if (req.query.type) {
        params.push(req.query.type);
        where.push(`type = $${params.length + 2}`);
      }
      if (req.query.resource_id) {
        params.push(req.query.resource_id);
        where.push(`resource_id = $${params.length + 2}`);
      }
      const page = await paginate<EventRow & Record<string, unknown>>(req.ctx.db, req.ctx, {
        from: 'events',
        where,
        params,
        limit: req.query.limit,
        cursor: req.query.cursor,
        name: 'events',
      });
      return { data: page.data.map(toEvent), next_cursor: page.next_cursor };
    },
  );
  r.get(
    '/:id',
    {
      config: { scope: 'webhooks:read' },
      schema: { tags, operationId: 'getEvent', summary: 'Retrieve an event', params: IdParam, response: { 200: Event, ...standardErrors } },
    },
    async (req) => {
      const e = await findEvent(req.ctx.db, req.ctx, req.params.id);
      if (!e) throw notFound('event', 'id');
      return toEvent(e);
    },
  );
};
