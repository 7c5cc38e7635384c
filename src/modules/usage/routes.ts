import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { billingPeriod, usageOfPeriod } from '../../platform/usage.js';
import { Timestamp, standardErrors } from '../../platform/schemas.js';

const Usage = Type.Object({
  object: Type.Literal('usage'),
  period: Type.String({ description: 'Billing period, a calendar month in UTC (YYYY-MM).' }),
  period_start: Timestamp,
  period_end: Timestamp,
  environment: Type.String(),
  total: Type.Integer(),
  modules: Type.Array(
    Type.Object({
      module: Type.String(),
      count: Type.Integer(),
      operations: Type.Array(Type.Object({ operation: Type.String(), count: Type.Integer() })),
    }),
  ),
  days: Type.Array(
    Type.Object({
      date: Type.String({ format: 'date', description: 'A UTC day of the period (YYYY-MM-DD) with usage.' }),
      total: Type.Integer(),
      modules: Type.Record(Type.String(), Type.Integer(), { description: 'Count per module that day.' }),
    }),
    { description: 'Per-day counts over the period, oldest first; days without usage are left out.' },
  ),
});

/** Code-unit order (as the database's C collation): stable whatever the server's locale. */
const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const usageModule: FastifyPluginAsync<ModuleOptions> = async (app) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '',
    {
      config: { scope: 'usage:read' },
      schema: {
        tags: ['Usage'],
        operationId: 'getUsage',
        summary: 'Per-module usage counts for the current (or a past) billing period',
        querystring: Type.Object({
          period: Type.Optional(
            Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM; default the current month (UTC).' }),
          ),
        }),
        response: { 200: Usage, ...standardErrors },
      },
    },
    async (req) => {
      const period = req.query.period ?? billingPeriod();
      const rows = await usageOfPeriod(req.ctx.db, req.ctx, period);
      const modules = new Map<string, { module: string; count: number; operations: Map<string, number> }>();
      const days = new Map<string, { date: string; total: number; modules: Record<string, number> }>();
      for (const row of rows) {
        const m = modules.get(row.module) ?? { module: row.module, count: 0, operations: new Map<string, number>() };
        m.count += row.n;
        m.operations.set(row.operation, (m.operations.get(row.operation) ?? 0) + row.n);
        modules.set(row.module, m);
        const d = days.get(row.day) ?? { date: row.day, total: 0, modules: {} };
        d.total += row.n;
        d.modules[row.module] = (d.modules[row.module] ?? 0) + row.n;
        days.set(row.day, d);
      }
      const [y, mo] = period.split('-').map(Number) as [number, number];
      return {
        object: 'usage' as const,
        period,
        period_start: new Date(Date.UTC(y, mo - 1, 1)).toISOString(),
        period_end: new Date(Date.UTC(y, mo, 1)).toISOString(),
        environment: req.ctx.environment,
        total: rows.reduce((s, x) => s + x.n, 0),
        modules: [...modules.values()]
          .sort((a, b) => byCode(a.module, b.module))
          .map((m) => ({
            module: m.module,
            count: m.count,
            operations: [...m.operations].sort(([a], [b]) => byCode(a, b)).map(([operation, count]) => ({ operation, count })),
          })),
        days: [...days.values()],
      };
    },
  );
};
