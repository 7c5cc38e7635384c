import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../../platform/app-types.js';
import { IdParam, standardErrors } from '../../../platform/schemas.js';
import { CreateVerificationImport, MAX_RECORDS, VerificationImport } from './schemas.js';
import { getVerificationImport, importVerifications } from './import-verifications.js';

/** Import of historical verifications (registered under /v1/verifications; static segments win over /:id). */
export const verificationImportsModule: FastifyPluginAsync<ModuleOptions> = async (app, opts) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Verifications'];
  const settings = opts.deps.config.verifications.imports;

  r.post(
    '/imports',
    {
      config: { scope: 'verifications:write' },
      // Embedded media travel as base64 in the JSON body; never below the service's own limit.
      bodyLimit: Math.max(settings.bodyLimitBytes, opts.deps.config.bodyLimitBytes),
      schema: {
        tags,
        operationId: 'importVerifications',
        summary: 'Import historical verifications from a previous provider with their original evidence',
        description:
          `1 to ${MAX_RECORDS} records per request; body up to ${Math.round(Math.max(settings.bodyLimitBytes, opts.deps.config.bodyLimitBytes) / 1024 / 1024)} MiB. ` +
          'Each record becomes a session with origin import in the status it ended in (no journey runs, no verification.completed is sent; one verification.imported event per session). ' +
          'A record whose external_id was imported before (per provider) is reported duplicate with its session and not written again. Each record is validated and written on its own: ' +
          'a bad record is reported failed with the field at fault (records[3].subject.reference) and nothing of it is kept; the others are imported. ' +
          'Referenced media are fetched by Verity (https, public addresses, no redirects, size and time limits) and must match their sha256. Billed per imported record (verifications/import).',
        body: CreateVerificationImport,
        response: { 201: VerificationImport, ...standardErrors },
      },
    },
    async (req, reply) => {
      // Set before the verb: the Idempotency-Key stores the response (with its status) in the summary's transaction.
      reply.code(201);
      return importVerifications({
        ctx: req.ctx,
        sealer: opts.deps.sealer,
        settings,
        input: req.body,
        logError: (err, message) => req.log.error({ err, request_id: req.id }, message),
      });
    },
  );

  r.get(
    '/imports/:id',
    {
      config: { scope: 'verifications:read' },
      schema: {
        tags,
        operationId: 'getVerificationImport',
        summary: "Retrieve an import request's summary and per-record results",
        params: IdParam,
        response: { 200: VerificationImport, ...standardErrors },
      },
    },
    async (req) => getVerificationImport(req.ctx, req.params.id),
  );
};
