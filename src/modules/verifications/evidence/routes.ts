import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../../platform/app-types.js';
import { emitAudit } from '../../../platform/audit.js';
import { IdParam, standardErrors } from '../../../platform/schemas.js';
import { buildEvidenceZip, loadEvidence } from './evidence.js';
import { renderReport } from './report.js';
import { deleteVerification, VerificationTombstone } from '../delete.js';

const binary = (contentType: string, description: string) => ({ description, content: { [contentType]: { schema: { type: 'string', format: 'binary' } } } });

/** Evidence bundle, PDF report and deletion of a session (registered under /v1/verifications). */
export const verificationEvidenceModule: FastifyPluginAsync<ModuleOptions> = async (app, opts) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Verifications'];
  const { sealer } = opts.deps;
  const hosted = opts.deps.config.hostedBaseUrl;

  r.get('/:id/evidence', {
    config: { scope: 'verifications:read' },
    schema: {
      tags, operationId: 'getVerificationEvidence', summary: 'Download the evidence bundle: images, signals, timings, decision trail',
      description: 'A zip: manifest.json (path, size, SHA-256 of every file), manifest.sha256, session.json (with transitions), decision.json (when decided), checks/<id>.json, media/<id>.<ext> (decrypted). The SHA-256 of manifest.json is also in the verification.evidence_exported audit row. A deleted session is 409 conflict.',
      params: IdParam,
      response: { 200: binary('application/zip', 'The evidence bundle.'), ...standardErrors },
    },
  }, async (req, reply) => {
    const now = new Date();
    const evidence = await loadEvidence(req.ctx.db, req.ctx, sealer, req.params.id, hosted);
    const { zip, manifestSha256 } = buildEvidenceZip(evidence, now);
    await emitAudit(req.ctx.db, req.ctx, { action: 'verification.evidence_exported', resourceType: 'verification', resourceId: req.params.id, metadata: { manifest_sha256: manifestSha256, bytes: zip.length, files: evidence.checks.length + evidence.media.length } });
    reply.type('application/zip').header('content-disposition', `attachment; filename="${evidence.session.id}-evidence.zip"`).header('x-manifest-sha256', manifestSha256);
    return zip;
  });

  r.get('/:id/report', {
    config: { scope: 'verifications:read' },
    schema: {
      tags, operationId: 'getVerificationReport', summary: 'Generate a PDF compliance report for the session',
      description: 'Subject, journey and version, status, decision, risk score and band, reason codes, each check with its main signals, and the transition trail. A deleted session is 409 conflict.',
      params: IdParam,
      response: { 200: binary('application/pdf', 'The report.'), ...standardErrors },
    },
  }, async (req, reply) => {
    const evidence = await loadEvidence(req.ctx.db, req.ctx, sealer, req.params.id, hosted, { media: 'listed' });
    const pdf = await renderReport(evidence, new Date());
    reply.type('application/pdf').header('content-disposition', `inline; filename="${evidence.session.id}-report.pdf"`);
    return pdf;
  });

  r.delete('/:id', {
    config: { scope: 'verifications:write' },
    schema: {
      tags, operationId: 'deleteVerification', summary: 'Delete a session and its media under the caller\'s retention policy',
      description: 'Destroys the media and personal data (subject reference and country, check results) of a finished session and keeps a tombstone (id, status, timestamps, decision) for audit and billing; emits verification.deleted. A processing session is 409 conflict (it decides within seconds). A waiting session is cancelled first (expired, or abandoned once capture started). A referred session may be deleted (its review case closes with resolution deleted, the tombstone stays referred). Repeating it returns the tombstone. Afterwards evidence and report are 409.',
      params: IdParam, response: { 200: VerificationTombstone, ...standardErrors },
    },
  }, async (req) => deleteVerification(req.ctx, req.params.id));
};
