import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { AppError, notFound } from '../../platform/errors.js';
import { Page } from '../../platform/pagination.js';
import { IdParam, standardErrors } from '../../platform/schemas.js';
import { REASON_CODES } from '../journeys/index.js';
import { CreatedVerification, CreateVerification, DecisionObject, ManualDecision, Verification, VerificationsQuery } from './schemas.js';
import { sessions, toVerification } from './repository.js';
import { createVerification } from './create-verification.js';
import { recordManualDecision, toDecision } from './decision.js';
import { SANDBOX_SUBJECTS } from './sandbox.js';
import { SESSION_STATES } from './state-machine.js';
import { CorrectFields } from './corrections/schemas.js';
import { correctFields } from './corrections/correct-fields.js';
import { loadVerificationDetail } from './corrections/view.js';
import { SCREENING_INDEX } from '../checks/index.js';
import { OPERATION_DOCS } from './operation-docs.js';
import { DecisionStats, DecisionStatsQuery, decisionStats, MAX_STATS_DAYS } from './decision-stats.js';

export const verificationsModule: FastifyPluginAsync<ModuleOptions> = async (app, opts) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Verifications'];
  const hosted = opts.deps.config.hostedBaseUrl;
  // The process's screening index: a correction re-screens with it.

  r.post(
    '',
    {
      config: { scope: 'verifications:write', idempotency: 'in-transaction' },
      schema: {
        tags,
        operationId: 'createVerification',
        summary: 'Create a session for a journey; returns a hosted URL and an SDK session token',
        description: OPERATION_DOCS.createVerification,
        body: CreateVerification,
        response: { 201: CreatedVerification, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return createVerification({ ctx: req.ctx, sealer: opts.deps.sealer, hostedBaseUrl: hosted, input: req.body });
    },
  );

  r.get(
    '',
    {
      config: { scope: 'verifications:read' },
      schema: {
        tags,
        operationId: 'listVerifications',
        summary: 'List and filter sessions by status, journey, decision and creation date',
        description: `Newest first. status is one of ${SESSION_STATES.join(', ')} (as a reader sees it: a waiting session past expires_at is expired or abandoned).`,
        querystring: VerificationsQuery,
        response: { 200: Page(Verification), ...standardErrors },
      },
    },
    async (req) => {
      const page = await sessions.page(req.ctx.db, req.ctx, req.query);
      const checks = await sessions.checksOf(
        req.ctx.db,
        page.data.map((s) => s.id),
      );
      return { data: page.data.map((s) => toVerification(s, checks.get(s.id) ?? [], hosted)), next_cursor: page.next_cursor };
    },
  );

  r.get(
    '/decision-stats',
    {
      config: { scope: 'verifications:read' },
      schema: {
        tags,
        operationId: 'getVerificationDecisionStats',
        summary: 'Decisions per day (approved, declined, referred) and the approval rate over a window',
        description: `Counts sessions by their current decision on the UTC day it was recorded, between from and to (both included, at most ${MAX_STATS_DAYS} days; default the last 30 days). approval_rate is approved / (approved + declined). The console's dashboard charts it.`,
        querystring: DecisionStatsQuery,
        response: { 200: DecisionStats, ...standardErrors },
      },
    },
    async (req) => decisionStats({ ctx: req.ctx, query: req.query }),
  );

  r.get(
    '/:id',
    {
      config: { scope: 'verifications:read' },
      schema: {
        tags,
        operationId: 'getVerification',
        summary: 'Retrieve the session with per-check results and current status',
        params: IdParam,
        response: { 200: Verification, ...standardErrors },
      },
    },
    async (req) => loadVerificationDetail(req.ctx.db, req.ctx, opts.deps.sealer, req.params.id, hosted),
  );

  r.patch(
    '/:id',
    {
      config: { scope: 'verifications:write' },
      schema: {
        tags,
        operationId: 'correctVerificationFields',
        summary: 'Correct extracted fields under review; the edit is recorded in the audit trail',
        description: OPERATION_DOCS.correctVerificationFields,
        params: IdParam,
        body: CorrectFields,
        response: { 200: Verification, ...standardErrors, 422: Type.Ref('Error') },
      },
    },
    async (req) =>
      correctFields({
        ctx: req.ctx,
        sealer: opts.deps.sealer,
        cache: opts.deps.resources.get(SCREENING_INDEX),
        hostedBaseUrl: hosted,
        id: req.params.id,
        input: req.body,
      }),
  );

  r.get(
    '/:id/decision',
    {
      config: { scope: 'verifications:read' },
      schema: {
        tags,
        operationId: 'getVerificationDecision',
        summary: 'Retrieve the decision object, risk score and reason codes',
        description: `decision is approved, declined or referred (waiting for a reviewer). Before the session has a decision: 409 conflict. Reason codes: ${REASON_CODES.join(', ')}.`,
        params: IdParam,
        response: { 200: DecisionObject, ...standardErrors },
      },
    },
    async (req) => {
      const s = await sessions.get(req.ctx.db, req.ctx, req.params.id);
      if (!s) throw notFound('verification', 'id');
      return toDecision(s, s.effective_status, (await sessions.checksOf(req.ctx.db, [s.id])).get(s.id) ?? []);
    },
  );

  r.post(
    '/:id/decision',
    {
      config: { scope: 'verifications:write' },
      schema: {
        tags,
        operationId: 'recordVerificationDecision',
        summary: 'Record a manual decision from your own review tool',
        description: OPERATION_DOCS.recordVerificationDecision,
        params: IdParam,
        body: ManualDecision,
        response: { 200: DecisionObject, ...standardErrors },
      },
    },
    async (req) => recordManualDecision({ ctx: req.ctx, id: req.params.id, input: req.body }),
  );
};

const SandboxSubject = Type.Object({
  reference: Type.String({ description: 'Pass as subject.reference when creating a session with a sandbox key.' }),
  reaches: Type.Union(SESSION_STATES.map((s) => Type.Literal(s))),
  description: Type.String(),
  events: Type.Array(Type.String()),
});

export const sandboxModule: FastifyPluginAsync<ModuleOptions> = async (app) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/subjects',
    {
      config: { scope: 'verifications:read' },
      schema: {
        tags: ['Sandbox'],
        operationId: 'listSandboxSubjects',
        summary: 'Sandbox test subjects with forced outcomes, one per session state',
        description: 'Sandbox keys only; production keys get 404 (forced outcomes never exist in production).',
        response: { 200: Type.Object({ data: Type.Array(SandboxSubject), next_cursor: Type.Null() }), ...standardErrors },
      },
    },
    async (req) => {
      if (req.ctx.environment !== 'sandbox')
        throw new AppError('not_found', 'The sandbox catalogue exists only for sandbox keys; production always runs the real engines.');
      return {
        data: SANDBOX_SUBJECTS.map(({ reference, reaches, description, events }) => ({ reference, reaches, description, events })),
        next_cursor: null,
      };
    },
  );
};
