import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ModuleOptions } from '../../../platform/app-types.js';
import { standardErrors } from '../../../platform/schemas.js';
import { Check } from '../kernel/index.js';
import { ScreeningRequest } from './schemas.js';
import { screenSubject } from './screen-subject.js';
import { SCREENING_INDEX } from './index-cache.js';
import { OPERATION_DOCS } from './operation-docs.js';
import { ListSnapshotPage, ListSnapshotsQuery, listListSnapshots } from './list-snapshots.js';

/**
 * POST /v1/checks/screening and GET /v1/checks/screening/list-snapshots. Once the app is
 * ready it installs the built-in sandbox list (first start only) and builds the screening indexes
 * in the background.
 */
export const screeningModule: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const cache = deps.resources.get(SCREENING_INDEX);
  // Build once the server is up, not while it registers (the OpenAPI export builds the app on an
  // empty database); a request that arrives first waits for the same build. The cache is the
  // process's (closed with the resources); its first refresh installs the built-in sandbox list.
  app.addHook('onReady', async () => cache.startBackground((err) => app.log.warn({ err }, 'screening index refresh failed')));

  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '',
    {
      config: { scope: 'checks:write' },
      schema: {
        tags: ['Checks'],
        operationId: 'createScreeningCheck',
        summary: 'Screen a name (and date of birth, country, identifiers) against sanctions, PEP and adverse-media lists',
        description: OPERATION_DOCS.createScreeningCheck,
        body: ScreeningRequest,
        response: { 200: Check, ...standardErrors, 422: Type.Ref('Error') },
      },
    },
    async (req) => screenSubject({ ctx: req.ctx, sealer: deps.sealer, cache, input: req.body }),
  );

  r.get(
    '/list-snapshots',
    {
      config: { scope: 'screening:read' },
      schema: {
        tags: ['Checks'],
        operationId: 'listScreeningListSnapshots',
        summary: 'List the screening list snapshots: source, version, entity count, when imported, which one is active',
        description:
          'Newest first. Exactly one snapshot per source is active (screening runs against it); superseded ones are earlier versions, failed ones are imports or syncs that did not replace the active one (with their error). Lists are shared by every tenant: this shows their metadata, never their entries.',
        querystring: ListSnapshotsQuery,
        response: { 200: ListSnapshotPage, ...standardErrors },
      },
    },
    async (req) => listListSnapshots({ ctx: req.ctx, query: req.query }),
  );
};
