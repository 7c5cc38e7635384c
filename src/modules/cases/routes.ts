import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { notFound } from '../../platform/errors.js';
import { Page, PageQuery } from '../../platform/pagination.js';
import { IdParam, iso, standardErrors } from '../../platform/schemas.js';
import {
  ALERT_KINDS,
  BacklogQuery,
  Case,
  CaseBacklog,
  CaseComment,
  CASE_KINDS,
  CaseClaim,
  CasesQuery,
  ClaimCase,
  CreateCaseComment,
  UpdateCase,
} from './schemas.js';
import { commentOnCase, listCaseComments } from './case-comments.js';
import { claimNextCase } from './claim-case.js';
import { alertRows, caseRows, toCase } from './repository.js';
import { updateCase } from './update-case.js';
import { OPERATION_DOCS } from './operation-docs.js';

/** The review queue: referred sessions and monitoring alerts as cases with owner, severity and state. */
export const casesModule: FastifyPluginAsync<ModuleOptions> = async (app) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Cases'];

  r.get(
    '',
    {
      config: { scope: 'cases:read' },
      schema: {
        tags,
        operationId: 'listCases',
        summary: 'List cases and alerts with owner, severity and state',
        description: OPERATION_DOCS.listCases,
        querystring: CasesQuery,
        response: { 200: Page(Case), ...standardErrors },
      },
    },
    async (req) => {
      const page = await caseRows.page(req.ctx.db, req.ctx, req.query);
      const alerts = await alertRows.ofCases(
        req.ctx.db,
        req.ctx,
        page.data.filter((c) => c.alert_count > 0).map((c) => c.id),
      );
      return { data: page.data.map((c) => toCase(c, undefined, alerts.get(c.id))), next_cursor: page.next_cursor };
    },
  );

  r.get(
    '/backlog',
    {
      config: { scope: 'cases:read' },
      schema: {
        tags,
        operationId: 'getCaseBacklog',
        summary: 'Count open cases per kind, with those past the review SLA and the oldest',
        description:
          'The review backlog in one read (the console dashboard): every case kind and alert kind, zero when none is open. An alert kind counts the alert_review cases holding alerts of it, as the kind filter of GET /v1/cases does; `open` and `past_sla` at the top count each case once.',
        querystring: BacklogQuery,
        response: { 200: CaseBacklog, ...standardErrors },
      },
    },
    async (req) => {
      const slaHours = req.query.sla_hours ?? 24;
      const cutoff = new Date(Date.now() - slaHours * 3_600_000);
      const rows = new Map((await caseRows.backlog(req.ctx.db, req.ctx, cutoff)).map((x) => [x.kind, x]));
      const kinds = [...CASE_KINDS, ...ALERT_KINDS].map((kind) => {
        const x = rows.get(kind);
        return { kind, open: x?.open ?? 0, past_sla: x?.past_sla ?? 0, oldest_created_at: iso(x?.oldest ?? null) };
      });
      const caseKinds = kinds.filter((k) => (CASE_KINDS as readonly string[]).includes(k.kind));
      return {
        object: 'case_backlog' as const,
        sla_hours: slaHours,
        cutoff: cutoff.toISOString(),
        open: caseKinds.reduce((s, k) => s + k.open, 0),
        past_sla: caseKinds.reduce((s, k) => s + k.past_sla, 0),
        kinds,
      };
    },
  );

  r.post(
    '/claim',
    {
      config: { scope: 'cases:write' },
      schema: {
        tags,
        operationId: 'claimNextCase',
        summary: 'Claim the next case of the queue: it is locked to the caller and taken into review',
        description: OPERATION_DOCS.claimNextCase,
        body: ClaimCase,
        response: { 200: CaseClaim, ...standardErrors },
      },
    },
    async (req) => claimNextCase({ ctx: req.ctx, input: req.body }),
  );

  r.get(
    '/:id',
    {
      config: { scope: 'cases:read' },
      schema: {
        tags,
        operationId: 'getCase',
        summary: 'Retrieve a case with its state trail',
        params: IdParam,
        response: { 200: Case, ...standardErrors },
      },
    },
    async (req) => {
      const row = await caseRows.get(req.ctx.db, req.ctx, req.params.id);
      if (!row) throw notFound('case', 'id');
      const alerts = await alertRows.ofCases(req.ctx.db, req.ctx, [row.id]);
      return toCase(row, await caseRows.transitionsOf(req.ctx.db, req.ctx, row.id), alerts.get(row.id));
    },
  );

  r.patch(
    '/:id',
    {
      config: { scope: 'cases:write' },
      schema: {
        tags,
        operationId: 'updateCase',
        summary: 'Assign a case, change its severity, or move its state',
        description: OPERATION_DOCS.updateCase,
        params: IdParam,
        body: UpdateCase,
        response: { 200: Case, ...standardErrors },
      },
    },
    async (req) => updateCase({ ctx: req.ctx, id: req.params.id, input: req.body }),
  );

  r.get(
    '/:id/comments',
    {
      config: { scope: 'cases:read' },
      schema: {
        tags,
        operationId: 'listCaseComments',
        summary: "A case's comments, oldest first",
        params: IdParam,
        querystring: PageQuery,
        response: { 200: Page(CaseComment), ...standardErrors },
      },
    },
    async (req) => listCaseComments(req.ctx, req.params.id, req.query),
  );

  r.post(
    '/:id/comments',
    {
      config: { scope: 'cases:write' },
      schema: {
        tags,
        operationId: 'createCaseComment',
        summary: 'Comment on a case (audited by comment id; the text stays with the case)',
        params: IdParam,
        body: CreateCaseComment,
        response: { 201: CaseComment, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return commentOnCase({ ctx: req.ctx, id: req.params.id, input: req.body });
    },
  );
};
