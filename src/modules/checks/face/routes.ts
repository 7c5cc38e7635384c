import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ModuleOptions } from '../../../platform/app-types.js';
import { notFound } from '../../../platform/errors.js';
import { standardErrors } from '../../../platform/schemas.js';
import { Check } from '../kernel/index.js';
import { FACE_INDEX } from './face-index-cache.js';
import {
  AgeEstimationBody,
  EnrollmentBody,
  EnrollmentParams,
  FaceEnrollment,
  FaceMatchBody,
  FaceSearchBody,
  LivenessBody,
} from './schemas.js';
import { livenessCheck } from './liveness.js';
import { faceMatchCheck } from './face-match.js';
import { ageEstimationCheck } from './age-estimation.js';
import { faceSearchCheck } from './face-search.js';
import { deleteEnrollment, enrollFace } from './enrollments.js';
import { faceEnrollments, toEnrollment } from './repository.js';

/** Face checks (liveness, 1:1 match, 1:N search, age) and face-search enrolments, under /v1/checks. */
export const faceChecksModule: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const settings = deps.config.checks.face;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Checks'];
  const scope = 'checks:write';
  // In the background once the server is ready: searches meanwhile load what they need themselves.
  app.addHook('onReady', async () => {
    if (!settings.warmIndexes || settings.searchWithPgvector) return;
    const started = performance.now();
    deps.resources
      .get(FACE_INDEX)
      .warm(deps.db)
      .then(
        (r) => {
          if (r.indexes > 0) app.log.info({ ...r, ms: Math.round(performance.now() - started) }, 'face search indexes preloaded');
        },
        (err: unknown) => app.log.warn({ err }, 'face search index preload stopped; searches load on demand'),
      );
  });
  const args = <I>(ctx: Parameters<typeof livenessCheck>[0]['ctx'], input: I) => ({
    ctx,
    sealer: deps.sealer,
    settings,
    resources: deps.resources,
    input,
  });

  r.post(
    '/liveness',
    {
      config: { scope },
      schema: {
        tags,
        operationId: 'createLivenessCheck',
        summary: 'Presentation-attack check on a selfie or a short burst of frames',
        body: LivenessBody,
        response: { 200: Check, ...standardErrors },
      },
    },
    async (req) => livenessCheck(args(req.ctx, req.body)),
  );

  r.post(
    '/face-match',
    {
      config: { scope },
      schema: {
        tags,
        operationId: 'createFaceMatchCheck',
        summary: '1:1 compare a selfie with a document portrait or another photo',
        body: FaceMatchBody,
        response: { 200: Check, ...standardErrors },
      },
    },
    async (req) => faceMatchCheck(args(req.ctx, req.body)),
  );

  r.post(
    '/age-estimation',
    {
      config: { scope },
      schema: {
        tags,
        operationId: 'createAgeEstimationCheck',
        summary: 'Estimate age from a face and decide against a minimum age',
        body: AgeEstimationBody,
        response: { 200: Check, ...standardErrors },
      },
    },
    async (req) => ageEstimationCheck(args(req.ctx, req.body)),
  );

  r.post(
    '/face-search',
    {
      config: { scope },
      schema: {
        tags,
        operationId: 'createFaceSearchCheck',
        summary: "1:N search a face among the enrolled faces; another subject's face is a duplicate-identity signal",
        body: FaceSearchBody,
        response: { 200: Check, ...standardErrors },
      },
    },
    async (req) => faceSearchCheck(args(req.ctx, req.body)),
  );

  r.post(
    '/face-search/enrollments',
    {
      config: { scope },
      schema: {
        tags,
        operationId: 'createFaceEnrollment',
        summary: "Enrol a subject's face for 1:N search (the embedding is stored, not the photo)",
        body: EnrollmentBody,
        response: { 201: FaceEnrollment, ...standardErrors, 422: Type.Ref('Error') },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return enrollFace({ ctx: req.ctx, settings, resources: deps.resources, input: req.body });
    },
  );

  r.get(
    '/face-search/enrollments/:id',
    {
      config: { scope: 'checks:read' },
      schema: {
        tags,
        operationId: 'getFaceEnrollment',
        summary: 'Retrieve a face enrolment (without its embedding)',
        params: EnrollmentParams,
        response: { 200: FaceEnrollment, ...standardErrors },
      },
    },
    async (req) => {
      const row = await faceEnrollments.get(req.ctx.db, req.ctx, req.params.id);
      if (!row) throw notFound('face enrollment', 'id');
      return toEnrollment(row);
    },
  );

  r.delete(
    '/face-search/enrollments/:id',
    {
      config: { scope },
      schema: {
        tags,
        operationId: 'deleteFaceEnrollment',
        summary: 'Delete a face enrolment: its embedding is erased, the record stays for the audit trail',
        params: EnrollmentParams,
        response: { 200: FaceEnrollment, ...standardErrors },
      },
    },
    async (req) => deleteEnrollment({ ctx: req.ctx, id: req.params.id }),
  );
};
