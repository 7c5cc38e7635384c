import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { notFound } from '../../platform/errors.js';
import { Page, PageQuery } from '../../platform/pagination.js';
import { IdParam, standardErrors } from '../../platform/schemas.js';
import {
  CreateDestination,
  DeliveriesQuery,
  Delivery,
  Destination,
  DestinationWithSecret,
  RotateSecret,
  UpdateDestination,
} from './schemas.js';
import { deliveries, destinations, toDelivery, toDestination } from './repository.js';
import { createDestination, deleteDestination, rotateSecret, updateDestination, type WebhookDeps } from './destinations.js';
import { redeliver, sendTestEvent } from './redeliver.js';

export const webhooksModule: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Webhooks'];
  const wh: WebhookDeps = {
    sealer: deps.sealer,
    production: { requireHttps: deps.config.webhooks.requireHttps, allowPrivateNetworks: deps.config.webhooks.allowPrivateNetworks },
  };
  const read = { scope: 'webhooks:read' as const };
  const write = { scope: 'webhooks:write' as const };

  r.get(
    '',
    {
      config: read,
      schema: {
        tags,
        operationId: 'listWebhookDestinations',
        summary: 'List webhook destinations',
        querystring: PageQuery,
        response: { 200: Page(Destination), ...standardErrors },
      },
    },
    async (req) => {
      const page = await destinations.page(req.ctx.db, req.ctx, req.query);
      return { data: page.data.map(toDestination), next_cursor: page.next_cursor };
    },
  );

  r.post(
    '',
    {
      config: write,
      schema: {
        tags,
        operationId: 'createWebhookDestination',
        summary: 'Create a webhook destination; the signing secret is returned once',
        body: CreateDestination,
        response: { 201: DestinationWithSecret, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return createDestination({ ctx: req.ctx, input: req.body, deps: wh });
    },
  );

  r.get(
    '/:id',
    {
      config: read,
      schema: {
        tags,
        operationId: 'getWebhookDestination',
        summary: 'Retrieve a webhook destination',
        params: IdParam,
        response: { 200: Destination, ...standardErrors },
      },
    },
    async (req) => {
      const d = await destinations.get(req.ctx.db, req.ctx, req.params.id);
      if (!d) throw notFound('webhook destination', 'id');
      return toDestination(d);
    },
  );

  r.patch(
    '/:id',
    {
      config: write,
      schema: {
        tags,
        operationId: 'updateWebhookDestination',
        summary: 'Change url, event types, description or enabled',
        params: IdParam,
        body: UpdateDestination,
        response: { 200: Destination, ...standardErrors },
      },
    },
    async (req) => updateDestination({ ctx: req.ctx, id: req.params.id, input: req.body, deps: wh }),
  );

  r.delete(
    '/:id',
    {
      config: write,
      schema: {
        tags,
        operationId: 'deleteWebhookDestination',
        summary: 'Delete a destination; its pending deliveries are cancelled',
        params: IdParam,
        response: { 200: Destination, ...standardErrors },
      },
    },
    async (req) => deleteDestination({ ctx: req.ctx, id: req.params.id }),
  );

  r.post(
    '/:id/rotate-secret',
    {
      config: write,
      schema: {
        tags,
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret; the new secret is returned once and the previous one keeps signing for the overlap',
        params: IdParam,
        body: Type.Optional(RotateSecret),
        response: { 200: DestinationWithSecret, ...standardErrors },
      },
    },
    async (req) => rotateSecret({ ctx: req.ctx, id: req.params.id, overlapHours: req.body?.overlap_hours ?? 24, deps: wh }),
  );

  r.post(
    '/:id/test',
    {
      config: write,
      schema: {
        tags,
        operationId: 'sendWebhookTest',
        summary: 'Send a webhook.test event to this destination',
        params: IdParam,
        response: { 202: Type.Object({ event_id: Type.String(), destination_id: Type.String() }), ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(202);
      return sendTestEvent({ ctx: req.ctx, destinationId: req.params.id });
    },
  );
};

/** Deliveries live at /v1/webhook-deliveries so their paths never collide with /v1/webhooks/{id}. */
export const webhookDeliveriesModule: FastifyPluginAsync<ModuleOptions> = async (app) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Webhooks'];
  const read = { scope: 'webhooks:read' as const };
  const write = { scope: 'webhooks:write' as const };

  r.get(
    '',
    {
      config: read,
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: 'List deliveries and their attempts, by destination, event or state',
        querystring: DeliveriesQuery,
        response: { 200: Page(Delivery), ...standardErrors },
      },
    },
    async (req) => {
      const page = await deliveries.page(req.ctx.db, req.ctx, req.query);
      const attempts = await deliveries.attemptsFor(
        req.ctx.db,
        page.data.map((d) => d.id),
      );
      return { data: page.data.map((d) => toDelivery(d, attempts.get(d.id) ?? [])), next_cursor: page.next_cursor };
    },
  );

  r.get(
    '/:id',
    {
      config: read,
      schema: {
        tags,
        operationId: 'getWebhookDelivery',
        summary: 'Retrieve a delivery with every attempt',
        params: IdParam,
        response: { 200: Delivery, ...standardErrors },
      },
    },
    async (req) => {
      const d = await deliveries.get(req.ctx.db, req.ctx, req.params.id);
      if (!d) throw notFound('webhook delivery', 'id');
      return toDelivery(d, (await deliveries.attemptsFor(req.ctx.db, [d.id])).get(d.id) ?? []);
    },
  );

  r.post(
    '/:id/redeliver',
    {
      config: write,
      schema: {
        tags,
        operationId: 'redeliverWebhook',
        summary: 'Send the event of a delivery again, as a new delivery',
        params: IdParam,
        response: { 201: Delivery, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return redeliver({ ctx: req.ctx, deliveryId: req.params.id });
    },
  );
};
