import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import type { RequestContext } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { Page } from '../../platform/pagination.js';
import { IdParam, standardErrors } from '../../platform/schemas.js';
import { CreateTransaction, ImportTransactions, Transaction, TransactionImport, TransactionsQuery } from './schemas.js';
import { importTransactions } from './import-transactions.js';
import { createTransaction } from './create-transaction.js';
import { SUBJECT_QUEUE, WRITE_BATCHER } from './subject-queue.js';
import { transactionRows } from './repository.js';
import { toTransaction } from './present.js';
import { NAME_SCREENINGS, SCREENING_INDEX, screenName } from '../checks/index.js';
import type { ScreenCounterparty } from './rule-context.js';

/** KYT: transactions evaluated against the published rule set. */
export const transactionsModule: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Transactions'];
  // The screening index and memo start on the first transaction whose rules read counterparty.screening.
  const screenFor =
    (t: Pick<RequestContext, 'accountId' | 'environment'>): ScreenCounterparty =>
    (db, name, reference) =>
      screenName({
        db,
        tenant: t,
        sealer: deps.sealer,
        cache: deps.resources.get(SCREENING_INDEX),
        memo: deps.resources.get(NAME_SCREENINGS),
        name,
        reference,
      });

  r.post(
    '',
    {
      config: { scope: 'transactions:write' },
      schema: {
        tags,
        operationId: 'createTransaction',
        summary: 'Submit a transaction for rule evaluation and scoring',
        description:
          "Aggregates, evaluation, storage, rollup and alerts in one database transaction. 201 with the evaluation; a repeat of the reference answers the stored one with 200 (409 when the facts differ). One subject's transactions are evaluated one at a time: when TRANSACTIONS_SUBJECT_QUEUE_LIMIT of them are already queued, 429 rate_limited with Retry-After. Emits transaction.evaluated where an enabled webhook destination of the environment subscribes to it (by name or *), and alert.created.",
        body: CreateTransaction,
        response: { 200: Transaction, 201: Transaction, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201); // before the verb: the stored idempotent response records the status
      const r = await createTransaction({
        ctx: req.ctx,
        sealer: deps.sealer,
        queue: deps.resources.get(SUBJECT_QUEUE),
        queueLimit: deps.config.transactions.subjectQueueLimit,
        writer: deps.resources.get(WRITE_BATCHER),
        screen: screenFor(req.ctx),
        input: req.body,
      });
      if (!r.created) reply.code(200);
      return r.transaction;
    },
  );

  r.post(
    '/imports',
    {
      config: { scope: 'transactions:write' },
      schema: {
        tags,
        operationId: 'importTransactions',
        summary: 'Import transaction history (CSV or JSON lines) without evaluating it',
        description:
          'So aggregates are warm from day one and backtests have history. All or nothing: a bad row is 400 on data naming its line. References already stored are skipped. No rules, alerts or events. CLI: verity transactions:import.',
        body: ImportTransactions,
        response: { 201: TransactionImport, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return importTransactions({ ctx: req.ctx, input: req.body });
    },
  );

  r.get(
    '/:id',
    {
      config: { scope: 'transactions:read' },
      schema: {
        tags,
        operationId: 'getTransaction',
        summary: 'Retrieve the evaluation, the rules that fired and any alerts raised',
        params: IdParam,
        response: { 200: Transaction, ...standardErrors },
      },
    },
    async (req) => {
      const row = await transactionRows.get(req.ctx.db, req.ctx, req.params.id);
      if (!row) throw notFound('transaction', 'id');
      return toTransaction(row);
    },
  );

  r.get(
    '',
    {
      config: { scope: 'transactions:read' },
      schema: {
        tags,
        operationId: 'listTransactions',
        summary: 'List transactions, newest first',
        description: 'Filters: subject_reference, status, direction, source, occurred_gte, occurred_lt; cursor pagination.',
        querystring: TransactionsQuery,
        response: { 200: Page(Transaction), ...standardErrors },
      },
    },
    async (req) => {
      const page = await transactionRows.page(req.ctx.db, req.ctx, req.query);
      return { data: page.data.map(toTransaction), next_cursor: page.next_cursor };
    },
  );
};
