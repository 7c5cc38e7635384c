import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ModuleOptions } from '../../../platform/app-types.js';
import { IdParam, standardErrors } from '../../../platform/schemas.js';
import { Check } from '../kernel/index.js';
import { SENDERS } from './providers.js';
import { contactSecrets } from './repository.js';
import { resendContact, startContact } from './start.js';
import { confirmContact } from './confirm.js';
import { ContactConfirmBody, ContactStartBody } from './schemas.js';
import type { ContactDeps } from './deliver.js';
import { OPERATION_DOCS } from './operation-docs.js';

/**
 * Contact verification in two steps: POST /v1/checks/contact sends a one-time code and returns a
 * pending check; POST /v1/checks/contact/{id}/confirm checks the code. Settings come from the
 * configuration (deps.config.checks.contact), validated at start.
 */
export const contactModule: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const settings = deps.config.checks.contact;
  const d: ContactDeps = { sealer: deps.sealer, settings, secrets: contactSecrets(deps.config.masterKey) };
  const tags = ['Checks'];
  const errors = { 422: Type.Ref('Error'), ...standardErrors };

  r.post(
    '/contact',
    {
      config: { scope: 'checks:write' },
      schema: {
        tags,
        operationId: 'startContactCheck',
        summary: 'Send a one-time code to an email address or phone number',
        description: OPERATION_DOCS.startContactCheck,
        body: ContactStartBody,
        response: { 200: Check, ...errors },
      },
    },
    async (req) =>
      startContact(d, { ctx: req.ctx, providers: deps.resources.get(SENDERS), input: req.body, idempotencyKey: req.idempotencyKey }),
  );

  r.post(
    '/contact/:id/confirm',
    {
      config: { scope: 'checks:write' },
      schema: {
        tags,
        operationId: 'confirmContactCheck',
        summary: 'Check the one-time code of a contact check',
        description: OPERATION_DOCS.confirmContactCheck,
        params: IdParam,
        body: ContactConfirmBody,
        response: { 200: Check, ...errors },
      },
    },
    async (req) => confirmContact(d, { ctx: req.ctx, id: req.params.id, code: req.body.code }),
  );

  r.post(
    '/contact/:id/resend',
    {
      config: { scope: 'checks:write' },
      schema: {
        tags,
        operationId: 'resendContactCheck',
        summary: 'Send a fresh code for a pending contact check',
        description: OPERATION_DOCS.resendContactCheck,
        params: IdParam,
        response: { 200: Check, ...errors },
      },
    },
    async (req) =>
      resendContact(d, { ctx: req.ctx, providers: deps.resources.get(SENDERS), id: req.params.id, idempotencyKey: req.idempotencyKey }),
  );
};
