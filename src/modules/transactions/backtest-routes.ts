import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { IdParam, standardErrors } from '../../platform/schemas.js';
import { Backtest, CreateBacktest } from './schemas.js';
import { createBacktest, getBacktest } from './backtest.js';

/** Backtests live under /v1/rules but replay this module's transactions (the table is this module's). */
export const rulesBacktestModule: FastifyPluginAsync<ModuleOptions> = async (app) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Rules'];
  r.post(
    '/backtest',
    {
      config: { scope: 'rules:write' },
      schema: {
        tags,
        operationId: 'createRuleBacktest',
        summary: 'Backtest the draft or a version over stored transactions (a job)',
        description:
          '202 with the backtest (state queued); GET /v1/rules/backtests/{id} for the result: per rule and overall evaluated, hits, outcomes, sample references and, on labelled history (imports), precision and recall. Every rule that is not disabled is evaluated as if active.',
        body: CreateBacktest,
        response: { 202: Backtest, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(202);
      return createBacktest({ ctx: req.ctx, input: req.body });
    },
  );
  r.get(
    '/backtests/:id',
    {
      config: { scope: 'rules:read' },
      schema: {
        tags,
        operationId: 'getRuleBacktest',
        summary: 'Retrieve a backtest and its result',
        params: IdParam,
        response: { 200: Backtest, ...standardErrors },
      },
    },
    async (req) => getBacktest({ ctx: req.ctx, id: req.params.id }),
  );
};
