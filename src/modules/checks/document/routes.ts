import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../../platform/app-types.js';
import { standardErrors } from '../../../platform/schemas.js';
import { Check } from '../kernel/index.js';
import { documentCheck } from './document-check.js';
import { DocumentCheckBody } from './schemas.js';

/** POST /v1/checks/document: authenticate a document image and extract its fields. */
export const documentCheckModule: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const settings = deps.config.checks.document;
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/document',
    {
      config: { scope: 'checks:write' },
      schema: {
        tags: ['Checks'],
        operationId: 'createDocumentCheck',
        summary: 'Authenticate a document image and extract its fields (MRZ, AAMVA barcode)',
        body: DocumentCheckBody,
        response: { 200: Check, ...standardErrors },
      },
    },
    async (req) => documentCheck({ ctx: req.ctx, sealer: deps.sealer, settings, resources: deps.resources, input: req.body }),
  );
};
