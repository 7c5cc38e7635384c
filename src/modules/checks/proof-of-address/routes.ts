import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ModuleOptions } from '../../../platform/app-types.js';
import { standardErrors } from '../../../platform/schemas.js';
import { Check } from '../kernel/index.js';
import { ProofOfAddressBody } from './schemas.js';
import { runProofOfAddress } from './check-proof-of-address.js';
import { TEXT_CHECKS } from './text-checks.js';
import { OPERATION_DOCS } from './operation-docs.js';

/** POST /v1/checks/proof-of-address: classify an address document and validate it against the subject. */
export const proofOfAddressModule: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/proof-of-address',
    {
      config: { scope: 'checks:write' },
      schema: {
        tags: ['Checks'],
        operationId: 'checkProofOfAddress',
        summary: 'Classify and validate an address document',
        description: OPERATION_DOCS.checkProofOfAddress,
        body: ProofOfAddressBody,
        response: { 200: Check, 422: Type.Ref('Error'), ...standardErrors },
      },
    },
    async (req) => runProofOfAddress({ ctx: req.ctx, sealer: deps.sealer, text: deps.resources.get(TEXT_CHECKS), input: req.body }),
  );
};
