import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { Page } from '../../platform/pagination.js';
import { standardErrors } from '../../platform/schemas.js';
import { CreateJourney, Journey, JourneysQuery, PublishParams } from './schemas.js';
import { ensureDefaultJourneys, journeys, toJourney } from './repository.js';
import { createJourneyVersion, publishJourneyVersion } from './create-journey.js';
import { JOURNEY_CHECK_TYPES } from '../checks/index.js';

export const journeysModule: FastifyPluginAsync<ModuleOptions> = async (app) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Journeys'];

  r.post(
    '',
    {
      config: { scope: 'journeys:write' },
      schema: {
        tags,
        operationId: 'createJourney',
        summary: 'Create or publish a journey definition (a new version)',
        description: `Adds version n+1 of the journey named by key in the key's environment, as a draft or published (publish: true). Check types: ${JOURNEY_CHECK_TYPES.join(', ')}.`,
        body: CreateJourney,
        response: { 201: Journey, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return createJourneyVersion({ ctx: req.ctx, input: req.body });
    },
  );

  r.post(
    '/:key/versions/:version/publish',
    {
      config: { scope: 'journeys:write' },
      schema: {
        tags,
        operationId: 'publishJourneyVersion',
        summary: 'Publish an existing version of a journey (a draft, or an older version to roll back)',
        description: 'New sessions start on this version from now on; running sessions keep the version they pinned.',
        params: PublishParams,
        response: { 200: Journey, ...standardErrors },
      },
    },
    async (req) => publishJourneyVersion({ ctx: req.ctx, key: req.params.key, version: req.params.version }),
  );

  r.get(
    '',
    {
      config: { scope: 'journeys:read' },
      schema: {
        tags,
        operationId: 'listJourneys',
        summary: 'List journeys and their published versions',
        querystring: JourneysQuery,
        response: { 200: Page(Journey), ...standardErrors },
      },
    },
    async (req) => {
      await ensureDefaultJourneys(req.ctx.db, req.ctx);
      const page = await journeys.page(req.ctx.db, req.ctx, req.query);
      const versions = await journeys.versionsOf(
        req.ctx.db,
        page.data.map((j) => j.id),
      );
      return { data: page.data.map((j) => toJourney(j, versions.get(j.id) ?? [])), next_cursor: page.next_cursor };
    },
  );
};
