import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ModuleOptions } from '../../../platform/app-types.js';
import { invalid } from '../../../platform/errors.js';
import { standardErrors } from '../../../platform/schemas.js';
import { Check } from '../kernel/index.js';
import { TEXT_CHECKS } from '../proof-of-address/index.js';
import { DocumentAiBody } from './schemas.js';
import { runDocumentAi } from './extract-fields.js';
import { OPERATION_DOCS } from './operation-docs.js';

/** POST /v1/checks/document-ai: caller-defined fields from any document, with positions and tamper signals. */
export const documentAiModule: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  // A form cannot carry an array of objects, so in multipart/form-data `fields` is a JSON text part;
  // it is parsed here, before validation, so both forms meet the same schema.
  app.addHook('preValidation', async (req) => {
    const body = req.body as Record<string, unknown> | null;
    if (!req.isMultipart() || !body || typeof body.fields !== 'string') return;
    try {
      body.fields = JSON.parse(body.fields);
    } catch {
      throw invalid('fields', 'fields must be a JSON array of field specs.');
    }
  });

  r.post(
    '/document-ai',
    {
      config: { scope: 'checks:write' },
      schema: {
        tags: ['Checks'],
        operationId: 'checkDocumentAi',
        summary: 'Extract custom fields from a document and flag tampering',
        description: OPERATION_DOCS.checkDocumentAi,
        body: DocumentAiBody,
        response: { 200: Check, 422: Type.Ref('Error'), ...standardErrors },
      },
    },
    async (req) => runDocumentAi({ ctx: req.ctx, sealer: deps.sealer, text: deps.resources.get(TEXT_CHECKS), input: req.body }),
  );
};
