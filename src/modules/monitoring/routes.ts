import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { notFound } from '../../platform/errors.js';
import { Page } from '../../platform/pagination.js';
import { IdParam, standardErrors } from '../../platform/schemas.js';
import { AlertsQuery, EnrolSubject, MonitoredSubject, MonitoringAlert, SubjectsQuery } from './schemas.js';
import { monitoredSubjects, monitoringAlerts, toAlert, toMonitoredSubject } from './repository.js';
import { enrolSubject, unenrolSubject } from './enrol.js';

/** Ongoing monitoring: enrolled subjects are re-screened against every list update; new hits become alerts. */
export const monitoringModule: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const sealer = deps.sealer;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Monitoring'];

  r.post(
    '/subjects',
    {
      config: { scope: 'screening:write' },
      schema: {
        tags,
        operationId: 'enrolMonitoredSubject',
        summary: 'Enrol a subject for ongoing screening (201; enrolling the same subject_reference again returns it, updated, with 200)',
        body: EnrolSubject,
        response: { 200: MonitoredSubject, 201: MonitoredSubject, ...standardErrors },
      },
    },
    async (req, reply) => {
      // The status must be known before the verb stores the idempotent response: an existing
      // enrolment is looked up first (the verb re-checks it under a row lock).
      const exists = await monitoredSubjects.page(req.ctx.db, req.ctx, { subject_reference: req.body.subject_reference, limit: 1 });
      reply.code(exists.data.length ? 200 : 201);
      const { subject } = await enrolSubject({ ctx: req.ctx, sealer, input: req.body });
      return subject;
    },
  );

  r.get(
    '/subjects',
    {
      config: { scope: 'screening:read' },
      schema: {
        tags,
        operationId: 'listMonitoredSubjects',
        summary: 'List enrolled subjects, newest first',
        querystring: SubjectsQuery,
        response: { 200: Page(MonitoredSubject), ...standardErrors },
      },
    },
    async (req) => {
      const page = await monitoredSubjects.page(req.ctx.db, req.ctx, req.query);
      return { data: page.data.map((row) => toMonitoredSubject(row, sealer)), next_cursor: page.next_cursor };
    },
  );

  r.get(
    '/subjects/:id',
    {
      config: { scope: 'screening:read' },
      schema: {
        tags,
        operationId: 'getMonitoredSubject',
        summary: 'Retrieve an enrolled subject',
        params: IdParam,
        response: { 200: MonitoredSubject, ...standardErrors },
      },
    },
    async (req) => {
      const row = await monitoredSubjects.get(req.ctx.db, req.ctx, req.params.id);
      if (!row) throw notFound('monitored subject', 'id');
      return toMonitoredSubject(row, sealer);
    },
  );

  r.delete(
    '/subjects/:id',
    {
      config: { scope: 'screening:write' },
      schema: {
        tags,
        operationId: 'unenrolMonitoredSubject',
        summary: 'Stop monitoring a subject (its alerts are kept)',
        params: IdParam,
        response: { 200: MonitoredSubject, ...standardErrors },
      },
    },
    async (req) => unenrolSubject({ ctx: req.ctx, sealer, id: req.params.id }),
  );

  r.get(
    '/alerts',
    {
      config: { scope: 'screening:read' },
      schema: {
        tags,
        operationId: 'listMonitoringAlerts',
        summary: 'List monitoring alerts, newest first (filter by state, subject)',
        querystring: AlertsQuery,
        response: { 200: Page(MonitoringAlert), ...standardErrors },
      },
    },
    async (req) => {
      const page = await monitoringAlerts.page(req.ctx.db, req.ctx, req.query);
      return { data: page.data.map(toAlert), next_cursor: page.next_cursor };
    },
  );

  r.get(
    '/alerts/:id',
    {
      config: { scope: 'screening:read' },
      schema: {
        tags,
        operationId: 'getMonitoringAlert',
        summary: 'Retrieve a monitoring alert (the alert_id of a screening.rescreening_hit event)',
        params: IdParam,
        response: { 200: MonitoringAlert, ...standardErrors },
      },
    },
    async (req) => {
      const row = await monitoringAlerts.get(req.ctx.db, req.ctx, req.params.id);
      if (!row) throw notFound('monitoring alert', 'id');
      return toAlert(row);
    },
  );
};
