import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../../platform/app-types.js';
import { emitAudit } from '../../../platform/audit.js';
import { IdParam, standardErrors } from '../../../platform/schemas.js';
import { buildEvidenceZip, loadEvidence } from './evidence.js';
import { renderReport } from './report.js';
import { deleteVerification, VerificationTombstone } from '../delete.js';
import { OPERATION_DOCS } from './operation-docs.js';

const binary = (contentType: string, description: string) => ({
  description,
  content: { [contentType]: { schema: { type: 'string', format: 'binary' } } },
});

/** Evidence bundle, PDF report and deletion of a session (registered under /v1/verifications). */
export const verificationEvidenceModule: FastifyPluginAsync<ModuleOptions> = async (app, opts) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Verifications'];
  const { sealer } = opts.deps;
  const hosted = opts.deps.config.hostedBaseUrl;

  r.get(
    '/:id/evidence',
    {
      config: { scope: 'verifications:read' },
      schema: {
        tags,
        operationId: 'getVerificationEvidence',
        summary: 'Download the evidence bundle: images, signals, timings, decision trail',
        description: OPERATION_DOCS.getVerificationEvidence,
        params: IdParam,
        response: { 200: binary('application/zip', 'The evidence bundle.'), ...standardErrors },
      },
    },
    async (req, reply) => {
      const now = new Date();
      const evidence = await loadEvidence(req.ctx.db, req.ctx, sealer, req.params.id, hosted);
      const { zip, manifestSha256 } = buildEvidenceZip(evidence, now);
      await emitAudit(req.ctx.db, req.ctx, {
        action: 'verification.evidence_exported',
        resourceType: 'verification',
        resourceId: req.params.id,
        metadata: { manifest_sha256: manifestSha256, bytes: zip.length, files: evidence.checks.length + evidence.media.length },
      });
      reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${evidence.session.id}-evidence.zip"`)
        .header('x-manifest-sha256', manifestSha256);
      return zip;
    },
  );

  r.get(
    '/:id/report',
    {
      config: { scope: 'verifications:read' },
      schema: {
        tags,
        operationId: 'getVerificationReport',
        summary: 'Generate a PDF compliance report for the session',
        description: OPERATION_DOCS.getVerificationReport,
        params: IdParam,
        response: { 200: binary('application/pdf', 'The report.'), ...standardErrors },
      },
    },
    async (req, reply) => {
      const evidence = await loadEvidence(req.ctx.db, req.ctx, sealer, req.params.id, hosted, { media: 'listed' });
      const pdf = await renderReport(evidence, new Date());
      reply.type('application/pdf').header('content-disposition', `inline; filename="${evidence.session.id}-report.pdf"`);
      return pdf;
    },
  );

  r.delete(
    '/:id',
    {
      config: { scope: 'verifications:write' },
      schema: {
        tags,
        operationId: 'deleteVerification',
        summary: "Delete a session and its media under the caller's retention policy",
        description: OPERATION_DOCS.deleteVerification,
        params: IdParam,
        response: { 200: VerificationTombstone, ...standardErrors },
      },
    },
    async (req) => deleteVerification(req.ctx, req.params.id),
  );
};
